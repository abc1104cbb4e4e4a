import type { Kysely } from "kysely";

/**
 * Help from a person (docs/decisions/0042-helpers.md): helpers and what they may help with, interviews a person
 * shares with the organisation's helpers, the helpers' replies, who opened what, and interviews a helper prepares
 * for someone. `users.role` gains the value "helper" (a text column: no change needed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // What a helper may help with: one row per country or issue; a row naming neither is "every country and issue".
  // A country or issue that is deleted takes its row with it, and a helper left with no row sees nothing: a
  // deletion never widens what a helper sees.
  await db.schema
    .createTable("helper_limits")
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("country_id", "integer", (col) => col.references("categories.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (col) => col.references("issues.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("helper_limits_user").on("helper_limits").column("user_id").execute();

  // An interview shared with the helpers, for a time. The message is sealed like the answers; the answers,
  // documents and files themselves are never copied: the helper's view opens them from the interview per request.
  await db.schema
    .createTable("interview_shares")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("interview_id", "text", (col) => col.notNull().references("interviews.id").onDelete("cascade"))
    .addColumn("owner_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // 0 or 1 each: what the person chose to share.
    .addColumn("answers", "integer", (col) => col.notNull())
    .addColumn("documents", "integer", (col) => col.notNull())
    .addColumn("files", "integer", (col) => col.notNull())
    .addColumn("message", "text")
    // The guide's language, for the desk's filter.
    .addColumn("language", "text", (col) => col.notNull())
    // "new", "taken" or "closed".
    .addColumn("status", "text", (col) => col.notNull().defaultTo("new"))
    .addColumn("taken_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("taken_by_name", "text")
    .addColumn("taken_at", "text")
    .addColumn("closed_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    // Set when the person stops sharing.
    .addColumn("ended_at", "text")
    .execute();
  await db.schema.createIndex("interview_shares_interview").on("interview_shares").column("interview_id").execute();
  await db.schema.createIndex("interview_shares_desk").on("interview_shares").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("share_replies")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("share_id", "text", (col) => col.notNull().references("interview_shares.id").onDelete("cascade"))
    .addColumn("helper_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("helper_name", "text", (col) => col.notNull())
    // Sealed: the reply, and (JSON) the page it is about, whose question may quote the person's answers.
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("about", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("read_at", "text")
    .execute();
  await db.schema.createIndex("share_replies_share").on("share_replies").column("share_id").execute();

  // Each time a helper opened what was shared: the person reads this list.
  await db.schema
    .createTable("share_views")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("share_id", "text", (col) => col.notNull().references("interview_shares.id").onDelete("cascade"))
    .addColumn("helper_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("helper_name", "text", (col) => col.notNull())
    // "request", "answers", "document" or "file".
    .addColumn("what", "text", (col) => col.notNull())
    .addColumn("attachment_id", "text")
    .addColumn("viewed_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("share_views_share").on("share_views").columns(["share_id", "viewed_at"]).execute();

  // An interview a helper started for someone. Until it is claimed the interview row is the helper's
  // (interviews.user_id); claiming moves it, with its files, to the person. The row stays after, to say who
  // prepared it. Only the hash of the invitation's code is kept.
  await db.schema
    .createTable("prepared_interviews")
    .addColumn("interview_id", "text", (col) => col.primaryKey().references("interviews.id").onDelete("cascade"))
    .addColumn("helper_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("helper_name", "text", (col) => col.notNull())
    .addColumn("person_first_name", "text", (col) => col.notNull())
    .addColumn("person_last_name", "text", (col) => col.notNull())
    .addColumn("person_email", "text", (col) => col.notNull())
    .addColumn("invitation_hash", "text", (col) => col.unique())
    .addColumn("invited_at", "text")
    // Until claimed: when housekeeping removes it (7 days after the last invitation, or after it was started).
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("claimed_at", "text")
    .addColumn("claimed_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("prepared_interviews_helper").on("prepared_interviews").column("helper_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["prepared_interviews", "share_views", "share_replies", "interview_shares", "helper_limits"]) {
    await db.schema.dropTable(table).execute();
  }
  await db.updateTable("users").set({ role: "person" }).where("role", "=", "helper").execute();
}
