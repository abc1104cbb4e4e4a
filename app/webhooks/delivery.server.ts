// Sending what is queued, from every server process (docs/decisions/0057-webhooks.md). A worker claims due
// deliveries with a lease (one conditional UPDATE: FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite runs one writer at a
// time), sends each signed, records the attempt and either marks it delivered or schedules the next try with
// backoff, within 24 hours. An instance killed mid-delivery leaves its lease to expire: another sends the delivery
// again with the same id, so nothing is lost and receivers de-duplicate. Attempts older than 30 days are purged.
import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { PostgresAdapter } from "kysely";
import type { Db } from "../../db/database";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { countWebhookAttempt, type WebhookAttemptOutcome } from "~/observability/metrics.server";
import { logger } from "~/observability/log.server";
import { AddressRefusedError, checkedAddress, hostOf, pinnedLookup, type Resolver, systemResolver } from "./address-guard.server";
import { signingSecrets } from "./endpoints.server";
import { DAY_MS, queueExpiredShares } from "./queue.server";
import { signedHeaders } from "./signing.server";

/** The delays between tries (seconds), the last repeating, each scaled by WEBHOOK_RETRY_SCALE; a last try at 24 hours. */
export const RETRY_DELAYS_S = [5, 60, 300, 1800, 3600, 7200, 14_400, 28_800];
/** Attempts and finished deliveries are kept this long. */
export const KEEP_ATTEMPTS_MS = 30 * DAY_MS;
/** Deliveries one worker claims at a time. */
export const BATCH = 10;
export const TIMEOUT_MS = 10_000;
/** The first this many characters of an answer's body are kept. */
export const RESPONSE_KEPT = 1000;
const PURGE_EVERY_MS = 60 * 60_000;
/** How often a worker looks for shares that reached their last day (share.ended). */
const EXPIRY_CHECK_EVERY_MS = 60_000;

export interface DeliverySettings {
  allowPrivate: boolean;
  leaseSeconds: number;
  retryScale: number;
  timeoutMs?: number;
  resolve?: Resolver;
}

export function configuredDeliverySettings(): DeliverySettings {
  const settings = config();
  return { allowPrivate: settings.WEBHOOK_ALLOW_PRIVATE, leaseSeconds: settings.WEBHOOK_LEASE_SECONDS, retryScale: settings.WEBHOOK_RETRY_SCALE };
}

/** When the try after `tries` failed ones is due: the scheduled delay with up to 10% more (instances spread out), never past the window. */
export function nextAttemptAt(tries: number, now: Date, giveUpAt: Date, retryScale: number, random = Math.random): Date | null {
  if (now.getTime() >= giveUpAt.getTime()) return null;
  const delay = RETRY_DELAYS_S[Math.min(tries - 1, RETRY_DELAYS_S.length - 1)]! * 1000 * retryScale * (1 + random() / 10);
  return new Date(Math.min(now.getTime() + delay, giveUpAt.getTime()));
}

export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  payload: string;
  tries: number;
  give_up_at: string;
  lease_token: string;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Claims up to `limit` due deliveries for `leaseSeconds`: pending, due, of an enabled endpoint, and not leased (or
 * the lease is over). The conditions are checked again by the UPDATE itself, so two instances never both win one.
 */
export async function claimDueDeliveries(db: Db, now: Date, leaseSeconds: number, limit = BATCH): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const token = randomUUID();
  const unleased = (eb: any) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]);
  let due = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select("d.id")
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at", "<=", at)
    .where((eb) => eb.or([eb("d.lease_until", "is", null), eb("d.lease_until", "<=", at)]))
    .where("e.enabled", "=", 1)
    .orderBy("d.next_attempt_at")
    .limit(limit);
  if (isPostgres(db)) due = due.forUpdate("d").skipLocked();
  const rows = await db
    .updateTable("webhook_deliveries")
    .set({ lease_until: new Date(now.getTime() + leaseSeconds * 1000).toISOString(), lease_token: token })
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where(unleased)
    .returning(["id", "endpoint_id", "payload", "tries", "give_up_at"])
    .execute();
  return rows.map((row) => ({ ...row, tries: Number(row.tries), lease_token: token }));
}

export interface AttemptResult {
  outcome: WebhookAttemptOutcome;
  statusCode: number | null;
  error: string | null;
  response: string | null;
}

/** POSTs one signed body to an endpoint, connecting only to the address checked; never follows a redirect. */
export function post(url: URL, headers: Record<string, string>, body: string, settings: DeliverySettings): Promise<AttemptResult> {
  const client = url.protocol === "https:" ? https : http;
  const host = hostOf(url);
  return new Promise((resolve) => {
    const refused = (error: unknown) =>
      error instanceof AddressRefusedError || (error as { code?: string })?.code === "EWEBHOOKADDRESS"
        ? resolve({ outcome: "refused", statusCode: null, error: (error as Error).message, response: null })
        : resolve({ outcome: "error", statusCode: null, error: oneLine(error), response: null });
    // An address given as such is not looked up by the socket: it is checked here.
    const literal = isIP(host) ? checkedAddress(host, settings.allowPrivate) : Promise.resolve(null);
    literal.then(() => {
      const request = client.request(
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": "legal-self-help-webhooks/1", "content-length": Buffer.byteLength(body), ...headers },
          lookup: pinnedLookup(settings.allowPrivate, settings.resolve ?? systemResolver),
          agent: false,
          signal: AbortSignal.timeout(settings.timeoutMs ?? TIMEOUT_MS),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            if (size < RESPONSE_KEPT * 4) chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_KEPT * 4) response.destroy();
          });
          const done = () => {
            const statusCode = response.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_KEPT);
            resolve({ outcome: statusCode >= 200 && statusCode < 300 ? "delivered" : "failed", statusCode, error: null, response: text || null });
          };
          response.on("end", done);
          response.on("close", done);
          response.on("error", done);
        },
      );
      request.on("error", refused);
      request.end(body);
    }, refused);
  });
}

const oneLine = (error: unknown) => {
  const text = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ? `${(error as NodeJS.ErrnoException).code}: ` : ""}${error.message}` : String(error);
  return text.replace(/\s+/g, " ").slice(0, 300);
};

/**
 * Sends one claimed delivery and records the attempt: delivered on a 2xx answer; otherwise the next try is
 * scheduled (or the delivery fails for good past its window). The delivery is written only while this worker
 * still holds its lease.
 */
export async function deliverClaimed(db: Db, claimed: ClaimedDelivery, settings: DeliverySettings, clock = () => new Date()): Promise<AttemptResult> {
  const started = clock();
  const endpoint = await signingSecrets(claimed.endpoint_id, db, started);
  let result: AttemptResult;
  if (!endpoint) result = { outcome: "error", statusCode: null, error: "the endpoint was deleted", response: null };
  else result = await post(new URL(endpoint.url), signedHeaders(endpoint.secrets, claimed.id, claimed.payload, started), claimed.payload, settings);
  const ended = clock();
  countWebhookAttempt(result.outcome);
  const tries = claimed.tries + 1;
  const next = result.outcome === "delivered" ? null : nextAttemptAt(tries, ended, new Date(claimed.give_up_at), settings.retryScale);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("webhook_deliveries")
      .set((eb) => ({
        tries,
        attempts: eb("attempts", "+", 1),
        lease_until: null,
        lease_token: null,
        ...(result.outcome === "delivered"
          ? { status: "delivered" as const, delivered_at: ended.toISOString() }
          : next
            ? { next_attempt_at: next.toISOString() }
            : { status: "failed" as const }),
      }))
      .where("id", "=", claimed.id)
      .where("lease_token", "=", claimed.lease_token)
      .executeTakeFirst();
    const exists = Number(updated.numUpdatedRows) === 1 || (await trx.selectFrom("webhook_deliveries").select("id").where("id", "=", claimed.id).executeTakeFirst());
    if (!exists) return;
    await trx
      .insertInto("webhook_attempts")
      .values({
        id: randomUUID(),
        delivery_id: claimed.id,
        attempted_at: started.toISOString(),
        status_code: result.statusCode,
        error: result.error,
        response: result.response,
        duration_ms: Math.max(0, ended.getTime() - started.getTime()),
      })
      .execute();
  });
  return result;
}

/** One round: claims what is due and sends it, at most BATCH at once. Returns how many were claimed. */
export async function runDeliveryRound(db: Db, settings: DeliverySettings, clock = () => new Date()): Promise<number> {
  const claimed = await claimDueDeliveries(db, clock(), settings.leaseSeconds);
  await Promise.all(claimed.map((delivery) => deliverClaimed(db, delivery, settings, clock)));
  return claimed.length;
}

/** Deletes attempts older than 30 days, and deliveries finished (delivered or failed) that long ago. */
export async function purgeOldWebhookAttempts(db: Db, now: Date): Promise<{ attempts: number; deliveries: number }> {
  const before = new Date(now.getTime() - KEEP_ATTEMPTS_MS).toISOString();
  const attempts = await db.deleteFrom("webhook_attempts").where("attempted_at", "<", before).executeTakeFirst();
  const finished = (eb: any) =>
    eb.or([eb.and([eb("status", "=", "delivered"), eb("delivered_at", "<", before)]), eb.and([eb("status", "=", "failed"), eb("give_up_at", "<", before)])]);
  await db
    .deleteFrom("webhook_attempts")
    .where("delivery_id", "in", (eb) => eb.selectFrom("webhook_deliveries").select("id").where(finished))
    .execute();
  const deliveries = await db.deleteFrom("webhook_deliveries").where(finished).executeTakeFirst();
  return { attempts: Number(attempts.numDeletedRows), deliveries: Number(deliveries.numDeletedRows) };
}

export interface WebhookWorker {
  /** Stops polling; resolves when the round under way has ended. */
  stop(): Promise<void>;
}

const workerLog = logger("webhooks");

/**
 * The worker of one server process: a round every WEBHOOK_POLL_MS (at once again while rounds come back full),
 * shares past their last day queued (share.ended) once a minute, and the purge once an hour. Rounds never overlap; the timer never keeps the process alive.
 */
export function startWebhookDelivery({
  db = database,
  settings = configuredDeliverySettings,
  pollMs = config().WEBHOOK_POLL_MS,
  clock = () => new Date(),
}: { db?: () => Db; settings?: () => DeliverySettings; pollMs?: number; clock?: () => Date } = {}): WebhookWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  let lastPurge = 0;
  let lastExpiryCheck = 0;
  const work = async () => {
    const now = clock();
    if (now.getTime() - lastExpiryCheck >= EXPIRY_CHECK_EVERY_MS) {
      lastExpiryCheck = now.getTime();
      await queueExpiredShares(db(), { now, retryScale: settings().retryScale });
    }
    if (now.getTime() - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = now.getTime();
      const purged = await purgeOldWebhookAttempts(db(), now);
      if (purged.attempts || purged.deliveries) workerLog.info(`purged ${purged.attempts} webhook attempts and ${purged.deliveries} deliveries older than 30 days`);
    }
    while (!stopped && (await runDeliveryRound(db(), settings(), clock)) === BATCH);
  };
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      round = work()
        .catch((error: unknown) => workerLog.error(`delivery round failed, will retry: ${oneLine(error)}`))
        .finally(() => {
          if (!stopped) schedule(pollMs);
        });
    }, delay);
    timer.unref();
  };
  schedule(Math.min(pollMs, 1000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
