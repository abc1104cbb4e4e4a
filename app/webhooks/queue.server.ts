// Queuing events (docs/decisions/0057-webhooks.md): one delivery row per enabled endpoint subscribed to the event,
// written with the Db handed in: the transaction of the change that causes the event, so that a change committed
// always has its deliveries and a change rolled back has none. Payloads carry ids and links, never personal data:
// the receiver fetches what it may see through the API with its token.
import { randomUUID } from "node:crypto";
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
