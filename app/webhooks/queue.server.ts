// Queuing events (docs/decisions/0057-webhooks.md): one delivery row per enabled endpoint subscribed to the event,
// written with the Db handed in: the transaction of the change that causes the event, so that a change committed
// always has its deliveries and a change rolled back has none. Payloads carry ids and links, never personal data:
// the receiver fetches what it may see through the API with its token.
import { createHash, randomUUID } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { Db } from "../../db/database";
import type { Database } from "../../db/schema";
import { config } from "~/config.server";
import type { WebhookEventType } from "./events";

export const DAY_MS = 86_400_000;

/** How long a delivery is retried after it is queued (or sent again), scaled by WEBHOOK_RETRY_SCALE for tests. */
export const retryWindowMs = (scale: number) => DAY_MS * scale;

/** A Standard Webhooks message id: the same on every attempt of a delivery. */
export const newDeliveryId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/** Where the API serves what an event is about (docs/decisions/0056 and 0057). */
export const sharedInterviewLink = (shareId: string) => `/api/v1/shared-interviews/${shareId}`;
export const helpRequestLink = (shareId: string) => `/api/v1/help-requests/${shareId}`;

export interface QueueOptions {
  now?: Date;
  retryScale?: number;
}

/**
 * Queues one event for every enabled endpoint that subscribed to it; returns how many deliveries were queued.
 * `data` must hold ids and links only.
 */
export async function queueWebhookEvent(
  db: Db,
  type: WebhookEventType,
  data: Record<string, unknown>,
  { now = new Date(), retryScale = config().WEBHOOK_RETRY_SCALE }: QueueOptions = {},
): Promise<number> {
  const endpoints = await db.selectFrom("webhook_endpoints").select(["id", "events"]).where("enabled", "=", 1).execute();
  const subscribed = endpoints.filter((endpoint) => (JSON.parse(endpoint.events) as string[]).includes(type));
  if (!subscribed.length) return 0;
  const at = now.toISOString();
  const payload = JSON.stringify({ type, timestamp: at, data });
  await db
    .insertInto("webhook_deliveries")
    .values(
      subscribed.map((endpoint) => ({
        id: newDeliveryId(),
        endpoint_id: endpoint.id,
        event_type: type,
        payload,
        status: "pending" as const,
        tries: 0,
        attempts: 0,
        next_attempt_at: at,
        give_up_at: new Date(now.getTime() + retryWindowMs(retryScale)).toISOString(),
        created_at: at,
      })),
    )
    .execute();
  return subscribed.length;
}

const shareData = (shareId: string, self: string, more: Record<string, string> = {}) => ({ share_id: shareId, links: { self, ...more } });

/** A person shared an interview with the organisation: `interview.shared`, and `help.requested` (the desk's new request). */
export async function queueInterviewShared(db: Db, shareId: string, options?: QueueOptions): Promise<number> {
  return (
    (await queueWebhookEvent(db, "interview.shared", shareData(shareId, sharedInterviewLink(shareId)), options)) +
    (await queueWebhookEvent(db, "help.requested", shareData(shareId, helpRequestLink(shareId)), options))
  );
}

/** Shares ended (stopped by the person): `share.ended` for each. The link then answers 404. */
export async function queueSharesEnded(db: Db, shareIds: string[], options?: QueueOptions): Promise<number> {
  let queued = 0;
  for (const shareId of shareIds) queued += await queueWebhookEvent(db, "share.ended", shareData(shareId, sharedInterviewLink(shareId)), options);
  return queued;
}

/** The live shares of an interview (not stopped, not past their end): events about it go out only while it is shared. */
async function liveSharesOf(db: Db, interviewId: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("interview_shares")
    .select("id")
    .where("interview_id", "=", interviewId)
    .where((eb: ExpressionBuilder<Database, "interview_shares">) => eb.and([eb("ended_at", "is", null), eb("expires_at", ">", now.toISOString())]))
    .execute();
  return rows.map((row) => row.id);
}

/** An interview became Completed: `interview.completed` for each live share of it (none when it is not shared). */
export async function queueInterviewCompleted(db: Db, interviewId: string, options: QueueOptions = {}): Promise<number> {
  let queued = 0;
  for (const shareId of await liveSharesOf(db, interviewId, options.now ?? new Date())) {
    queued += await queueWebhookEvent(
      db,
      "interview.completed",
      shareData(shareId, sharedInterviewLink(shareId), { document: `${sharedInterviewLink(shareId)}/document` }),
      options,
    );
  }
  return queued;
}

/**
 * An interview's documents were signed (the signing work calls this in the transaction that records the
 * signature): `documents.signed` for each live share of it; nothing when the interview is not shared.
 */
export async function queueDocumentsSigned(db: Db, interviewId: string, options: QueueOptions = {}): Promise<number> {
  let queued = 0;
  for (const shareId of await liveSharesOf(db, interviewId, options.now ?? new Date())) {
    queued += await queueWebhookEvent(db, "documents.signed", shareData(shareId, sharedInterviewLink(shareId), { document: `${sharedInterviewLink(shareId)}/document` }), options);
  }
  return queued;
}

/**
 * Shares that end because their interview (or the person's account) is being deleted: `share.ended` for each live
 * one, in the transaction that deletes it.
 */
export async function queueLiveSharesEnded(db: Db, interviewIds: string[], options: QueueOptions = {}): Promise<number> {
  if (!interviewIds.length) return 0;
  const now = options.now ?? new Date();
  const rows = await db
    .selectFrom("interview_shares")
    .select("id")
    .where("interview_id", "in", interviewIds)
    .where((eb: ExpressionBuilder<Database, "interview_shares">) => eb.and([eb("ended_at", "is", null), eb("expires_at", ">", now.toISOString())]))
    .execute();
  return queueSharesEnded(
    db,
    rows.map((row) => row.id),
    options,
  );
}

/** Shares past their days are looked for this far back (the deliveries are kept 30 days, so none is queued twice). */
export const EXPIRED_LOOKBACK_MS = 7 * DAY_MS;

/**
 * Shares that ended by reaching their last day (no change to hang a transaction on): `share.ended` for each
 * endpoint that existed when it expired. The delivery's id is derived from the endpoint and the share, and
 * inserted only if absent, so every instance may run this and each is queued once.
 */
export async function queueExpiredShares(db: Db, { now = new Date(), retryScale = config().WEBHOOK_RETRY_SCALE }: QueueOptions = {}): Promise<number> {
  const endpoints = (await db.selectFrom("webhook_endpoints").select(["id", "events", "created_at"]).where("enabled", "=", 1).execute()).filter((endpoint) =>
    (JSON.parse(endpoint.events) as string[]).includes("share.ended"),
  );
  if (!endpoints.length) return 0;
  const at = now.toISOString();
  const expired = await db
    .selectFrom("interview_shares")
    .select(["id", "expires_at"])
    .where("ended_at", "is", null)
    .where("expires_at", "<=", at)
    .where("expires_at", ">", new Date(now.getTime() - EXPIRED_LOOKBACK_MS).toISOString())
    .execute();
  const rows = expired.flatMap((share) =>
    endpoints
      .filter((endpoint) => endpoint.created_at < share.expires_at)
      .map((endpoint) => ({
        id: `msg_${createHash("sha256").update(`${endpoint.id}:share.ended:${share.id}`).digest("hex").slice(0, 32)}`,
        endpoint_id: endpoint.id,
        event_type: "share.ended",
        payload: JSON.stringify({ type: "share.ended", timestamp: share.expires_at, data: shareData(share.id, sharedInterviewLink(share.id)) }),
        status: "pending" as const,
        tries: 0,
        attempts: 0,
        next_attempt_at: at,
        give_up_at: new Date(now.getTime() + retryWindowMs(retryScale)).toISOString(),
        created_at: at,
      })),
  );
  if (!rows.length) return 0;
  const result = await db
    .insertInto("webhook_deliveries")
    .values(rows)
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
