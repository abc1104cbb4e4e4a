import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // "Email me in N days if I have not finished" (issue 29, docs/decisions/0050-reminders.md): one row per interview a
  // person asked to be reminded of. Housekeeping claims a due row (claimed_at, a lease), sends it once (sent_at);
  // the emailed stop link carries a random code the row keeps only the hash of (stop_hash). Deleting the interview
  // or the account deletes the reminder with it.
  await db.schema
    .createTable("interview_reminders")
    .addColumn("interview_id", "text", (col) => col.primaryKey().references("interviews.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // The language the email is written in: the person's, else the page's when they asked.
    .addColumn("language", "text", (col) => col.notNull())
    // Set when the email is sent (the code is made then, and only its hash kept): null until then.
    .addColumn("stop_hash", "text", (col) => col.unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("due_at", "text", (col) => col.notNull())
    .addColumn("claimed_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("stopped_at", "text")
    .execute();
  // Housekeeping's question, "which reminders are due?", and the daily cap's, "how many went to this person today?".
  await db.schema.createIndex("interview_reminders_due").on("interview_reminders").columns(["sent_at", "due_at"]).execute();
  await db.schema.createIndex("interview_reminders_user_sent").on("interview_reminders").columns(["user_id", "sent_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("interview_reminders").execute();
}
