import type { Kysely } from "kysely";

/**
 * Signed webhooks (issue 31, docs/decisions/0057-webhooks.md): the endpoints administrators register, one delivery
 * row per event and endpoint (queued in the transaction of the change that causes it, leased by the instance that
 * sends it), and each attempt with what the receiver answered (kept 30 days).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    // JSON array of event types, e.g. ["interview.shared","share.ended"].
    .addColumn("events", "text", (col) => col.notNull())
    // The signing secret (whsec_…), sealed; the one it replaced, sealed, is also signed with until previous_until.
    .addColumn("secret", "text", (col) => col.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_until", "text")
    // 1 sends, 0 is disabled (events are not queued for it and its pending deliveries wait).
    .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    // The Standard Webhooks message id (webhook-id header): the same on every attempt, so receivers de-duplicate.
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("endpoint_id", "text", (col) => col.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("event_type", "text", (col) => col.notNull())
    // The JSON body sent: ids and links only, never personal data.
    .addColumn("payload", "text", (col) => col.notNull())
    // "pending", "delivered" or "failed" (no 2xx within the retry window).
    .addColumn("status", "text", (col) => col.notNull().defaultTo("pending"))
    // Attempts in the current round (the backoff's step), and in all.
    .addColumn("tries", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (col) => col.notNull())
    // After this no new attempt is made (24 hours after it was queued or sent again).
    .addColumn("give_up_at", "text", (col) => col.notNull())
    // The lease: an instance that claimed it sends it; once lease_until passes, another may (kill -9 loses nothing).
    .addColumn("lease_until", "text")
    .addColumn("lease_token", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("delivered_at", "text")
    .execute();
  // The workers' question, "what is due?", and the endpoint page's list.
  await db.schema.createIndex("webhook_deliveries_due").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("webhook_deliveries_endpoint").on("webhook_deliveries").columns(["endpoint_id", "created_at"]).execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("delivery_id", "text", (col) => col.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("attempted_at", "text", (col) => col.notNull())
    // The HTTP status, or null when no answer came (refused address, timeout, connection error: see error).
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    // The first 1,000 characters of the answer's body.
    .addColumn("response", "text")
    .addColumn("duration_ms", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery").on("webhook_attempts").columns(["delivery_id", "attempted_at"]).execute();
  await db.schema.createIndex("webhook_attempts_at").on("webhook_attempts").column("attempted_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_attempts").execute();
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_endpoints").execute();
}
