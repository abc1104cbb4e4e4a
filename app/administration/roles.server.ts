// Who administers the service, and who helps people with what they share. The first administrator is made on
// the server (`cli admin grant`); after that administrators make other administrators and helpers. Every change
// is recorded (audit.server.ts). docs/decisions/0021-administration-roles-and-audit.md, 0042-helpers.md.
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { emailKey } from "~/auth/accounts.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";

export const roleMessages = {
  noAccount: "No account uses this email address.",
  alreadyAdministrator: "This account is already an administrator.",
  notAdministrator: "This account is not an administrator.",
  lastAdministrator: "The last administrator cannot be removed: make another account an administrator first.",
  administratorNotHelper: "This account is an administrator. Administrators cannot also be helpers: a helper needs an account of their own.",
  notHelper: "This account is not a helper.",
  unknownLimit: "Choose countries and issues from the lists.",
} as const;

export type RoleChange = { ok: true; email: string } | { ok: false; message: string };

export interface Administrator {
  id: string;
  name: string;
  email: string;
}

export async function listAdministrators(db: Db = database()): Promise<Administrator[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "email"])
    .where("role", "=", "administrator")
    .orderBy("email_key")
    .execute();
  return rows.map((row) => ({ id: row.id, name: `${row.first_name} ${row.last_name}`.trim(), email: row.email }));
}

export async function isAdministrator(userId: string, db: Db = database()): Promise<boolean> {
  const row = await db.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst();
  return row?.role === "administrator";
}

/**
 * The service keeps at least one administrator: this account may not stop being one (revoked, or deleted)
 * while it is the only one. Without one, only the server's command line could administer the service.
 */
export async function isOnlyAdministrator(userId: string, db: Db = database()): Promise<boolean> {
  const administrators = await db.selectFrom("users").select("id").where("role", "=", "administrator").limit(2).execute();
  return administrators.length === 1 && administrators[0]!.id === userId;
}

/** Makes the account with this email an administrator. */
export async function grantAdministrator(email: string, actor: Actor, db: Db = database()): Promise<RoleChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("email_key", "=", emailKey(email)).executeTakeFirst();
    if (!user) return { ok: false, message: roleMessages.noAccount };
    if (user.role === "administrator") return { ok: false, message: roleMessages.alreadyAdministrator };
    await trx.updateTable("users").set({ role: "administrator", updated_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    // A helper made an administrator stops being a helper: the roles do not combine.
    if (user.role === "helper") await trx.deleteFrom("helper_limits").where("user_id", "=", user.id).execute();
    await recordAuditEvent(actor, { action: "role.granted", subject: user.email, details: { role: "administrator", ...(user.role === "helper" && { was: "helper" }) } }, trx);
    return { ok: true, email: user.email };
  });
}

/** Makes an administrator an ordinary account again; never the only one (isOnlyAdministrator). */
export async function revokeAdministrator(email: string, actor: Actor, db: Db = database()): Promise<RoleChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("email_key", "=", emailKey(email)).executeTakeFirst();
    if (!user) return { ok: false, message: roleMessages.noAccount };
    if (user.role !== "administrator") return { ok: false, message: roleMessages.notAdministrator };
    if (await isOnlyAdministrator(user.id, trx)) return { ok: false, message: roleMessages.lastAdministrator };
    await trx.updateTable("users").set({ role: "person", updated_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    await recordAuditEvent(actor, { action: "role.revoked", subject: user.email, details: { role: "administrator" } }, trx);
    return { ok: true, email: user.email };
  });
}

/**
 * What a helper may help with: every country and issue, or the shares of interviews on the issues named and on
 * every issue of the countries named. A helper with nothing left (their countries and issues deleted) sees nothing.
 */
export interface HelperLimits {
  everywhere: boolean;
  countryIds: number[];
  issueIds: number[];
}

export interface Helper {
  id: string;
  name: string;
  email: string;
  limits: HelperLimits;
}

function limitsOf(rows: { country_id: number | null; issue_id: number | null }[]): HelperLimits {
  return {
    everywhere: rows.some((row) => row.country_id === null && row.issue_id === null),
    countryIds: rows.flatMap((row) => (row.country_id === null ? [] : [Number(row.country_id)])).sort((a, b) => a - b),
    issueIds: rows.flatMap((row) => (row.issue_id === null ? [] : [Number(row.issue_id)])).sort((a, b) => a - b),
  };
}

export async function listHelpers(db: Db = database()): Promise<Helper[]> {
  const users = await db.selectFrom("users").select(["id", "first_name", "last_name", "email"]).where("role", "=", "helper").orderBy("email_key").execute();
  if (!users.length) return [];
  const limits = await db.selectFrom("helper_limits").select(["user_id", "country_id", "issue_id"]).where("user_id", "in", users.map((u) => u.id)).execute();
  return users.map((row) => ({
    id: row.id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    limits: limitsOf(limits.filter((limit) => limit.user_id === row.id)),
  }));
}

/** A helper's limits, read on every request of the help desk (a removed helper, or a narrower one, at their next click); null for anyone else. */
export async function helperScope(userId: string, db: Db = database()): Promise<HelperLimits | null> {
  const rows = await db
    .selectFrom("users")
    .leftJoin("helper_limits", "helper_limits.user_id", "users.id")
    .select(["users.role", "helper_limits.user_id as limited", "helper_limits.country_id", "helper_limits.issue_id"])
    .where("users.id", "=", userId)
    .execute();
  if (rows[0]?.role !== "helper") return null;
  return limitsOf(rows.filter((row) => row.limited !== null));
}

/**
 * Makes the account a helper with these limits (no country and no issue: every country and issue), or, for a
 * helper, replaces their limits. Countries and issues must exist.
 */
export async function saveHelper(
  email: string,
  limits: { countryIds: number[]; issueIds: number[] },
  actor: Actor,
  db: Db = database(),
): Promise<RoleChange & { granted?: boolean }> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("email_key", "=", emailKey(email)).executeTakeFirst();
    if (!user) return { ok: false, message: roleMessages.noAccount };
    if (user.role === "administrator") return { ok: false, message: roleMessages.administratorNotHelper };
    const countryIds = [...new Set(limits.countryIds)];
    const issueIds = [...new Set(limits.issueIds)];
    const countries = countryIds.length ? await trx.selectFrom("categories").select(["id", "name"]).where("id", "in", countryIds).orderBy("id").execute() : [];
    const issues = issueIds.length ? await trx.selectFrom("issues").select(["id", "name"]).where("id", "in", issueIds).orderBy("id").execute() : [];
    if (countries.length !== countryIds.length || issues.length !== issueIds.length) return { ok: false, message: roleMessages.unknownLimit };
    const granted = user.role !== "helper";
    if (granted) await trx.updateTable("users").set({ role: "helper", updated_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    await trx.deleteFrom("helper_limits").where("user_id", "=", user.id).execute();
    const rows = [
      ...countries.map((country) => ({ user_id: user.id, country_id: country.id, issue_id: null })),
      ...issues.map((issue) => ({ user_id: user.id, country_id: null, issue_id: issue.id })),
    ];
    await trx
      .insertInto("helper_limits")
      .values(rows.length ? rows : [{ user_id: user.id, country_id: null, issue_id: null }])
      .execute();
    const details = {
      role: "helper",
      countries: countries.map((country) => country.name),
      issues: issues.map((issue) => issue.name),
    };
    await recordAuditEvent(actor, { action: granted ? "helper.granted" : "helper.limits-changed", subject: user.email, details }, trx);
    return { ok: true, email: user.email, granted };
  });
}

/** Makes a helper an ordinary account again: from their next request the help desk is not theirs. */
export async function removeHelper(email: string, actor: Actor, db: Db = database()): Promise<RoleChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("email_key", "=", emailKey(email)).executeTakeFirst();
    if (!user) return { ok: false, message: roleMessages.noAccount };
    if (user.role !== "helper") return { ok: false, message: roleMessages.notHelper };
    await trx.updateTable("users").set({ role: "person", updated_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    await trx.deleteFrom("helper_limits").where("user_id", "=", user.id).execute();
    await recordAuditEvent(actor, { action: "helper.revoked", subject: user.email, details: { role: "helper" } }, trx);
    return { ok: true, email: user.email };
  });
}
