import { createContext, createCookie, redirect, type RouterContextProvider } from "react-router";
import { deleteInBatches, PURGE_BATCH_SIZE } from "../../db/batches";
import { compiledOnce } from "../../db/compiled-query";
import type { Db } from "../../db/database";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { hashToken, randomToken } from "./crypto.server";
import { safeReturnPath, withReturn } from "./return-to";

/** Signed in: the session ends after this long whatever happens… */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60_000;
/** …or after this long without a request. */
export const SESSION_IDLE_MS = 8 * 60 * 60_000;
/** Password accepted, second factor pending: this long to finish. */
export const PENDING_MS = 15 * 60_000;
const TOUCH_EVERY_MS = 5 * 60_000;
/** Housekeeping removes a session this long after it stopped working: a margin for clocks that differ a little. */
export const SESSION_PURGE_MARGIN_MS = 60 * 60_000;

export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** Read with the session on every request, so a removed administrator loses access at their next click. */
  administrator: boolean;
  /** The same for helpers (app/help/): the help desk is theirs. */
  helper: boolean;
  /** The language they chose (app/i18n/languages.ts), null until they choose one. */
  language?: string | null;
}

export interface Session {
  idHash: string;
  /** When the session ends without another request (its last request + SESSION_IDLE_MS, or its 7 days if sooner), ISO. */
  endsAt: string;
  user: SessionUser | null;
  pendingUserId: string | null;
  pendingTotpSecret: string | null;
}

export const sessionContext = createContext<Session | null>(null);
/**
 * The account whose session expired with this request (the browser sent a session that ended by time, not one
 * signed out or revoked): a form it posted can be kept for that account until they sign in again (app/expiry/).
 */
export const expiredUserContext = createContext<string | null>(null);

function sessionCookie() {
  // Secure cookies need https; __Host- also pins the cookie to this host and path /.
  const secure = config().isHttps;
  return createCookie(secure ? "__Host-session" : "session", {
    httpOnly: true,
    secure,
    sameSite: "lax",
    path: "/",
    secrets: config().sessionSecrets,
  });
}

/**
 * Cookie headers whose session cookie was verified, with the id it holds: checking the signature (an HMAC
 * key import and verify) costs more than the session's database query, and a browser sends the same header
 * on every request. Only verified headers are kept, keyed by their exact text, at most 2,000 of up to 4 kB
 * each (8 MB); the oldest go first.
 */
const verifiedCookies = new Map<string, string>();
const VERIFIED_COOKIES_KEPT = 2000;
const VERIFIED_COOKIE_MAX_LENGTH = 4096;

async function readSessionId(cookie: string | null): Promise<string | null> {
  if (!cookie) return null;
  const known = verifiedCookies.get(cookie);
  if (known) return known;
  const value: unknown = await sessionCookie().parse(cookie);
  if (typeof value !== "string" || value.length < 32) return null;
  if (cookie.length > VERIFIED_COOKIE_MAX_LENGTH) return value;
  verifiedCookies.set(cookie, value);
  if (verifiedCookies.size > VERIFIED_COOKIES_KEPT) verifiedCookies.delete(verifiedCookies.keys().next().value!);
  return value;
}

/**
 * The query that reads a session with its user; others may join more to it, to read what they need in the
 * same round trip (the viewer does: docs/decisions/0020-several-instances.md).
 */
export function selectSession(db: Db, idHash: string) {
  return db
    .selectFrom("sessions")
    .leftJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id_hash",
      "sessions.user_id",
      "sessions.pending_user_id",
      "sessions.pending_totp_secret",
      "sessions.expires_at",
      "sessions.last_seen_at",
      "users.first_name",
      "users.last_name",
      "users.email",
      "users.role",
      "users.language",
    ])
    .where("sessions.id_hash", "=", idHash);
}
type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectSession>["executeTakeFirst"]>>>;
const sessionWithUser = compiledOnce(selectSession);

/**
 * The session of a request (given its Cookie header): null when there is none. `stale` when the browser sent
 * a session that has expired or was revoked: the caller clears it and sends the person to /.
 */
export async function loadSession(
  cookie: string | null,
  db: Db = database(),
  now = new Date(),
): Promise<{ session: Session | null; stale: boolean; expiredUserId: string | null }> {
  const { session, stale, expiredUserId } = await loadSessionWith(cookie, (idHash) => sessionWithUser(db, idHash), db, now);
  return { session, stale, expiredUserId };
}

/**
 * loadSession with the caller's query, which reads the session's columns (selectSession) and more beside
 * them: the row comes back too, null when there is no live session.
 */
export async function loadSessionWith<Row extends SessionRow>(
  cookie: string | null,
  read: (idHash: string) => Promise<{ rows: Row[] }>,
  db: Db = database(),
  now = new Date(),
): Promise<{ session: Session | null; stale: boolean; row: Row | null; expiredUserId: string | null }> {
  // A header seen before is known at once: no await (each costs promises, and each promise AsyncLocalStorage's hook).
  const id = (cookie && verifiedCookies.get(cookie)) || (await readSessionId(cookie));
  if (!id) return { session: null, stale: (cookie ?? "").includes(`${sessionCookie().name}=`), row: null, expiredUserId: null };
  const idHash = hashToken(id);
  const [row] = (await read(idHash)).rows;
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  if (!row || row.expires_at <= now.toISOString() || row.last_seen_at <= idleSince) {
    if (row) await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
    return { session: null, stale: true, row: null, expiredUserId: row?.user_id ?? null };
  }
  let lastSeen = new Date(row.last_seen_at).getTime();
  if (lastSeen < now.getTime() - TOUCH_EVERY_MS) {
    await db.updateTable("sessions").set({ last_seen_at: now.toISOString() }).where("id_hash", "=", idHash).execute();
    lastSeen = now.getTime();
  }
  const user =
    row.user_id && row.first_name !== null && row.last_name !== null && row.email !== null
      ? { id: row.user_id, firstName: row.first_name, lastName: row.last_name, email: row.email, administrator: row.role === "administrator", helper: row.role === "helper", language: row.language }
      : null;
  return {
    session: { idHash, endsAt: sessionEnd(lastSeen, row.expires_at), user, pendingUserId: row.pending_user_id, pendingTotpSecret: row.pending_totp_secret },
    stale: false,
    row,
    expiredUserId: null,
  };
}

/** When a session last seen at `lastSeen` (ms) ends without another request: idle time, or its 7 days if sooner. */
function sessionEnd(lastSeen: number, expiresAt: string): string {
  const idle = new Date(lastSeen + SESSION_IDLE_MS).toISOString();
  return idle < expiresAt ? idle : expiresAt;
}

/**
 * How long the session of a Cookie header has left without another request, in ms (0 when it has ended, or
 * there is none), read without counting as a request: the page's sign-out warning asks it
 * (docs/decisions/0051-session-expiry-loses-nothing.md).
 */
export async function sessionTimeLeft(cookie: string | null, db: Db = database(), now = new Date()): Promise<number> {
  const id = await readSessionId(cookie);
  if (!id) return 0;
  const row = await db.selectFrom("sessions").select(["user_id", "expires_at", "last_seen_at"]).where("id_hash", "=", hashToken(id)).executeTakeFirst();
  if (!row?.user_id) return 0;
  return Math.max(0, new Date(sessionEnd(new Date(row.last_seen_at).getTime(), row.expires_at)).getTime() - now.getTime());
}

/** "Stay signed in": the session counts as used now. Returns when it now ends without another request (ISO). */
export async function touchSession(session: Session, db: Db = database(), now = new Date()): Promise<string> {
  const row = await db
    .updateTable("sessions")
    .set({ last_seen_at: now.toISOString() })
    .where("id_hash", "=", session.idHash)
    .returning(["expires_at"])
    .executeTakeFirst();
  return row ? sessionEnd(now.getTime(), row.expires_at) : now.toISOString();
}

/**
 * Starts a new session (a new random id every time: sign-in rotates the id) and ends the one the request
 * had. Returns the Set-Cookie header.
 */
export async function startSession(
  fields: { userId: string; recoveryCodesToShow?: string } | { pendingUserId: string },
  previous: Session | null,
  db: Db = database(),
  now = new Date(),
): Promise<string> {
  const id = randomToken();
  const signedIn = "userId" in fields;
  const expiresAt = new Date(now.getTime() + (signedIn ? SESSION_ABSOLUTE_MS : PENDING_MS)).toISOString();
  await db.transaction().execute(async (trx) => {
    if (previous) await trx.deleteFrom("sessions").where("id_hash", "=", previous.idHash).execute();
    await trx
      .insertInto("sessions")
      .values({
        id_hash: hashToken(id),
        user_id: signedIn ? fields.userId : null,
        pending_user_id: signedIn ? null : fields.pendingUserId,
        pending_totp_secret: null,
        recovery_codes_to_show: signedIn ? (fields.recoveryCodesToShow ?? null) : null,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        last_seen_at: now.toISOString(),
      })
      .execute();
  });
  return sessionCookie().serialize(id, { expires: new Date(expiresAt) });
}

export async function setPendingTotpSecret(session: Session, sealedSecret: string | null, db: Db = database()) {
  await db.updateTable("sessions").set({ pending_totp_secret: sealedSecret }).where("id_hash", "=", session.idHash).execute();
}

/** Ends a session; returns the Set-Cookie header that removes the cookie. */
export async function endSession(session: Session | null, db: Db = database()): Promise<string> {
  if (session) await db.deleteFrom("sessions").where("id_hash", "=", session.idHash).execute();
  return clearSessionCookie();
}

export function clearSessionCookie(): Promise<string> {
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Signs a user out everywhere but (optionally) the current session: after a password change or reset. */
export async function endOtherSessions(userId: string, keep: Session | null, db: Db = database()) {
  let query = db.deleteFrom("sessions").where((eb) => eb.or([eb("user_id", "=", userId), eb("pending_user_id", "=", userId)]));
  if (keep) query = query.where("id_hash", "!=", keep.idHash);
  await query.execute();
}

/**
 * Housekeeping: deletes the sessions that ended (their 7 days, or 15 minutes for a pending second factor, or
 * 8 hours without a request, as loadSession decides) at least SESSION_PURGE_MARGIN_MS ago, in batches. A
 * browser that still sends one is answered as for an expired session ("stale"). Returns how many went.
 */
export function purgeExpiredSessions(db: Db, now: Date, batchSize = PURGE_BATCH_SIZE): Promise<number> {
  const endedBy = new Date(now.getTime() - SESSION_PURGE_MARGIN_MS).toISOString();
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS - SESSION_PURGE_MARGIN_MS).toISOString();
  return deleteInBatches(async (limit) => {
    const ended = db
      .selectFrom("sessions")
      .select("id_hash")
      .where((eb) => eb.or([eb("expires_at", "<=", endedBy), eb("last_seen_at", "<=", idleSince)]))
      .limit(limit);
    const result = await db.deleteFrom("sessions").where("id_hash", "in", ended).executeTakeFirst();
    return result.numDeletedRows;
  }, batchSize);
}

/** The signed-in user of this request, or null. */
export function currentUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(sessionContext)?.user ?? null;
}

/**
 * For pages only signed-in users may see: everybody else goes to sign in, and (given the request) comes back to
 * this page afterwards. Only a page that was opened (GET) is returned to: a form posted to an endpoint names no
 * page to show again.
 */
export function requireUser(context: Readonly<RouterContextProvider>, request?: Request): SessionUser {
  const user = currentUser(context);
  if (!user) {
    const url = request && (request.method === "GET" || request.method === "HEAD") ? new URL(request.url) : null;
    throw redirect(withReturn("/auth/sign-in", safeReturnPath(url ? url.pathname + url.search : null)));
  }
  return user;
}

/** For the auth pages: signed-in users are sent to /. */
export function requireSignedOut(context: Readonly<RouterContextProvider>): void {
  if (currentUser(context)) throw redirect("/");
}
