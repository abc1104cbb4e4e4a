// The endpoints administrators register (docs/decisions/0057-webhooks.md): address, description, events, a
// signing secret shown once and kept sealed, rotation (the old secret still signs for a day), disabling, deleting,
// and what was sent to each with its attempts. Every change is audited, without the secret. This is the interface
// the administration pages and the API's webhook endpoints use.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database";
import type { WebhookDeliveryStatus } from "../../db/schema";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import type { SealedTextColumn } from "~/security/sealed-columns.server";
import { openText, sealText } from "~/security/data-encryption.server";
import { checkEndpointUrl, type Resolver, systemResolver } from "./address-guard.server";
import { isWebhookEvent, type WebhookEventType } from "./events";
import { DAY_MS, retryWindowMs } from "./queue.server";
import { newWebhookSecret } from "./signing.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How long a rotated secret still signs (beside the new one), so receivers can switch without losing a delivery. */
export const PREVIOUS_SECRET_MS = DAY_MS;

/** Where each sealed secret lives (app/security/data-encryption.server.ts binds a value to its place). */
export const secretPlace = (endpointId: string) => `webhook_endpoints.secret:${endpointId}`;
export const previousSecretPlace = (endpointId: string) => `webhook_endpoints.previous_secret:${endpointId}`;

/** The secrets as `cli db rotate-key` seals them again. */
export const WEBHOOK_SECRET_COLUMNS: { counted: string; spec: SealedTextColumn }[] = [
  { counted: "webhook secret(s)", spec: { table: "webhook_endpoints", column: "secret", key: "id", place: secretPlace } },
  { counted: "rotated webhook secret(s)", spec: { table: "webhook_endpoints", column: "previous_secret", key: "id", place: previousSecretPlace } },
];

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** Until when the secret before the last rotation also signs; null when none does. */
  previousSecretUntil: string | null;
}

export interface EndpointInput {
  url: string;
  description: string;
  events: string[];
}

export type EndpointRefusal = { ok: false; field: "url" | "description" | "events"; message: string };

interface Settings {
  allowPrivate?: boolean;
  resolve?: Resolver;
  now?: Date;
}

type EndpointRow = {
  id: string;
  url: string;
  description: string;
  events: string;
  enabled: number;
  created_at: string;
  updated_at: string;
  previous_until: string | null;
};

function endpointOf(row: EndpointRow, now = new Date()): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: (JSON.parse(row.events) as string[]).filter(isWebhookEvent),
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    previousSecretUntil: row.previous_until && row.previous_until > now.toISOString() ? row.previous_until : null,
  };
}

const endpointColumns = ["id", "url", "description", "events", "enabled", "created_at", "updated_at", "previous_until"] as const;

async function checkedInput(input: EndpointInput, settings: Settings): Promise<{ ok: true; url: string; description: string; events: WebhookEventType[] } | EndpointRefusal> {
  const events = [...new Set(input.events)].filter(isWebhookEvent);
  if (!events.length || events.length !== new Set(input.events).size) return { ok: false, field: "events", message: "Choose at least one event" };
  const description = input.description.trim();
  if (description.length > 200) return { ok: false, field: "description", message: "Description must be 200 characters or fewer" };
  if (input.url.length > 2000) return { ok: false, field: "url", message: "The address must be 2,000 characters or fewer" };
  const checked = await checkEndpointUrl(input.url, settings.allowPrivate ?? config().WEBHOOK_ALLOW_PRIVATE, settings.resolve ?? systemResolver);
  if (!checked.ok) return { ok: false, field: "url", message: checked.message };
  return { ok: true, url: checked.url.toString(), description, events };
}

/** Registers an endpoint; the secret is returned this once (only its sealed form is kept). */
export async function registerEndpoint(
  input: EndpointInput,
  actor: Actor,
  db: Db = database(),
  settings: Settings = {},
): Promise<{ ok: true; endpoint: WebhookEndpoint; secret: string } | EndpointRefusal> {
  const checked = await checkedInput(input, settings);
  if (!checked.ok) return checked;
  const id = randomUUID();
  const secret = newWebhookSecret();
  const at = (settings.now ?? new Date()).toISOString();
  const row = { id, url: checked.url, description: checked.description, events: JSON.stringify(checked.events), enabled: 1, created_at: at, updated_at: at, previous_until: null };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("webhook_endpoints")
      .values({ ...row, secret: sealText(secret, secretPlace(id)), previous_secret: null })
      .execute();
    await recordAuditEvent(actor, { action: "webhook.registered", subject: `webhook ${id}`, details: { url: checked.url, events: checked.events } }, trx);
  });
  return { ok: true, endpoint: endpointOf(row), secret };
}

/** Changes an endpoint's address, description or events. */
export async function changeEndpoint(id: string, input: EndpointInput, actor: Actor, db: Db = database(), settings: Settings = {}): Promise<{ ok: true } | EndpointRefusal | null> {
  if (!(await findEndpoint(id, db))) return null;
  const checked = await checkedInput(input, settings);
  if (!checked.ok) return checked;
  const changed = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("webhook_endpoints")
      .set({ url: checked.url, description: checked.description, events: JSON.stringify(checked.events), updated_at: (settings.now ?? new Date()).toISOString() })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent(actor, { action: "webhook.changed", subject: `webhook ${id}`, details: { url: checked.url, events: checked.events } }, trx);
    return true;
  });
  return changed ? { ok: true } : null;
}

export async function listEndpoints(db: Db = database(), now = new Date()) {
  const rows = await db.selectFrom("webhook_endpoints").select(endpointColumns).orderBy("created_at").orderBy("id").execute();
  const counts = await db
    .selectFrom("webhook_deliveries")
    .select(["endpoint_id", "status", (eb) => eb.fn.countAll<string | number>().as("count")])
    .where("status", "in", ["pending", "failed"])
    .groupBy(["endpoint_id", "status"])
    .execute();
  const count = (id: string, status: WebhookDeliveryStatus) => Number(counts.find((row) => row.endpoint_id === id && row.status === status)?.count ?? 0);
  return rows.map((row) => ({ ...endpointOf(row, now), pending: count(row.id, "pending"), failed: count(row.id, "failed") }));
}

export async function findEndpoint(id: string, db: Db = database(), now = new Date()): Promise<WebhookEndpoint | null> {
  if (!UUID.test(id)) return null;
  const row = await db.selectFrom("webhook_endpoints").select(endpointColumns).where("id", "=", id).executeTakeFirst();
  return row ? endpointOf(row, now) : null;
}

/** A new secret, returned this once; the old one keeps signing beside it for PREVIOUS_SECRET_MS. */
export async function rotateSecret(id: string, actor: Actor, db: Db = database(), now = new Date()): Promise<string | null> {
  if (!UUID.test(id)) return null;
  const secret = newWebhookSecret();
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("webhook_endpoints").select(["secret"]).where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    const previous = openText(row.secret, secretPlace(id));
    await trx
      .updateTable("webhook_endpoints")
      .set({
        secret: sealText(secret, secretPlace(id)),
        previous_secret: sealText(previous, previousSecretPlace(id)),
        previous_until: new Date(now.getTime() + PREVIOUS_SECRET_MS).toISOString(),
        updated_at: now.toISOString(),
      })
      .where("id", "=", id)
      .where("secret", "=", row.secret)
      .execute();
    await recordAuditEvent(actor, { action: "webhook.secret-rotated", subject: `webhook ${id}`, details: {} }, trx);
    return secret;
  });
}

/** Disables (no event is queued for it; what is pending waits) or enables an endpoint. False when there is none. */
export async function setEndpointEnabled(id: string, enabled: boolean, actor: Actor, db: Db = database(), now = new Date()): Promise<boolean> {
  if (!UUID.test(id)) return false;
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("webhook_endpoints")
      .set({ enabled: enabled ? 1 : 0, updated_at: now.toISOString() })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent(actor, { action: enabled ? "webhook.enabled" : "webhook.disabled", subject: `webhook ${id}`, details: {} }, trx);
    return true;
  });
}

/** Deletes an endpoint with its deliveries and their attempts. False when there is none. */
export async function deleteEndpoint(id: string, actor: Actor, db: Db = database()): Promise<boolean> {
  if (!UUID.test(id)) return false;
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("webhook_endpoints").select(["url"]).where("id", "=", id).executeTakeFirst();
    if (!row) return false;
    // The attempts go with their deliveries, the deliveries with the endpoint (foreign keys, on cascade).
    await trx
      .deleteFrom("webhook_attempts")
      .where("delivery_id", "in", (eb) => eb.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", id))
      .execute();
    await trx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
    await trx.deleteFrom("webhook_endpoints").where("id", "=", id).execute();
    await recordAuditEvent(actor, { action: "webhook.deleted", subject: `webhook ${id}`, details: { url: row.url } }, trx);
    return true;
  });
}

export interface DeliveryAttempt {
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  durationMs: number;
}

export interface Delivery {
  id: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  payload: string;
  /** The latest attempts, newest first. */
  recent: DeliveryAttempt[];
}

export const DELIVERIES_SHOWN = 50;
export const ATTEMPTS_SHOWN = 5;

/** An endpoint's latest deliveries, newest first, each with its latest attempts. */
export async function endpointDeliveries(endpointId: string, db: Db = database(), limit = DELIVERIES_SHOWN): Promise<Delivery[]> {
  if (!UUID.test(endpointId)) return [];
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select(["id", "event_type", "status", "attempts", "created_at", "next_attempt_at", "delivered_at", "payload"])
    .where("endpoint_id", "=", endpointId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const attempts = rows.length
    ? await db
        .selectFrom("webhook_attempts")
        .select(["delivery_id", "attempted_at", "status_code", "error", "response", "duration_ms"])
        .where(
          "delivery_id",
          "in",
          rows.map((row) => row.id),
        )
        .orderBy("attempted_at", "desc")
        .orderBy("id", "desc")
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    eventType: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
    payload: row.payload,
    recent: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .slice(0, ATTEMPTS_SHOWN)
      .map((attempt) => ({
        attemptedAt: attempt.attempted_at,
        statusCode: attempt.status_code,
        error: attempt.error,
        response: attempt.response,
        durationMs: Number(attempt.duration_ms),
      })),
  }));
}

/**
 * "Send again": the delivery goes out again now, with the same id (receivers that saw it de-duplicate), and is
 * retried for another window if it fails. False when the endpoint has no such delivery.
 */
export async function sendAgain(
  endpointId: string,
  deliveryId: string,
  actor: Actor,
  db: Db = database(),
  now = new Date(),
  retryScale = config().WEBHOOK_RETRY_SCALE,
): Promise<boolean> {
  if (!UUID.test(endpointId) || !/^msg_[0-9a-f]{32}$/.test(deliveryId)) return false;
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("webhook_deliveries")
      .set({ status: "pending", tries: 0, next_attempt_at: now.toISOString(), give_up_at: new Date(now.getTime() + retryWindowMs(retryScale)).toISOString() })
      .where("id", "=", deliveryId)
      .where("endpoint_id", "=", endpointId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent(actor, { action: "webhook.sent-again", subject: `webhook ${endpointId}`, details: { delivery: deliveryId } }, trx);
    return true;
  });
}

/** The secrets a delivery is signed with now: the current one, and the one before a rotation for a day after it. */
export async function signingSecrets(endpointId: string, db: Db, now = new Date()): Promise<{ url: string; enabled: boolean; secrets: string[] } | null> {
  const row = await db.selectFrom("webhook_endpoints").select(["url", "enabled", "secret", "previous_secret", "previous_until"]).where("id", "=", endpointId).executeTakeFirst();
  if (!row) return null;
  const secrets = [openText(row.secret, secretPlace(endpointId))];
  if (row.previous_secret && row.previous_until && row.previous_until > now.toISOString()) secrets.push(openText(row.previous_secret, previousSecretPlace(endpointId)));
  return { url: row.url, enabled: row.enabled === 1, secrets };
}
