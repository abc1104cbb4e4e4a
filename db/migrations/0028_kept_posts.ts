import type { Kysely } from "kysely";

/**
 * Forms posted after the session expired (docs/decisions/0051-session-expiry-loses-nothing.md): kept, sealed, for
 * a short while, bound to the account whose session it was and to what the form was for (an interview page, the
 * rephrase page, Understand my situation), until that person signs in again and the form is applied once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("kept_posts")
    // SHA-256 of the random id the browser is given (in the return address): a stolen table gives no id.
    .addColumn("id_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // "interview", "rephrase" or "understand".
    .addColumn("purpose", "text", (col) => col.notNull())
    // The page the form was posted to (a path): the form is applied only there.
    .addColumn("path", "text", (col) => col.notNull())
    // The interview it belongs to (null for a first page, before the interview exists, or Understand without one).
    .addColumn("interview_id", "text", (col) => col.references("interviews.id").onDelete("cascade"))
    // The form's text fields as JSON, sealed like the answers and bound to this row.
    .addColumn("form", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("kept_posts_expires").on("kept_posts").column("expires_at").execute();
  await db.schema.createIndex("kept_posts_user").on("kept_posts").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("kept_posts").execute();
}
