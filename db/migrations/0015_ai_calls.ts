import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Every call made to the AI endpoint, for the organisation: what for, which issue, which model, how many tokens,
  // the source passages it was given, how it ended. No personal text: the transcript column stays empty unless the
  // organisation turns transcripts on (AI_TRANSCRIPTS), and is then sealed and kept for a shorter time
  // (docs/decisions/0032-grounded-ai-help.md).
  await db.schema
    .createTable("ai_calls")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("happened_at", "text", (col) => col.notNull())
    .addColumn("purpose", "text", (col) => col.notNull())
    .addColumn("issue_id", "integer")
    .addColumn("model", "text", (col) => col.notNull())
    .addColumn("prompt_tokens", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("completion_tokens", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("outcome", "text", (col) => col.notNull())
    .addColumn("passages", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("reading_grade", "real")
    .addColumn("transcript", "text")
    .execute();
  await db.schema.createIndex("ai_calls_happened_at").on("ai_calls").column("happened_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ai_calls").execute();
}
