import { type Kysely, PostgresAdapter } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The bytes of uploaded files, so that every instance on one database sees them (docs/decisions/0015). Keyed
  // by their attachment row and deleted with it: deleting an interview or an account deletes its files at once.
  const binary = db.getExecutor().adapter instanceof PostgresAdapter ? "bytea" : "blob";
  await db.schema
    .createTable("attachment_files")
    .addColumn("attachment_id", "text", (col) => col.primaryKey().references("attachments.id").onDelete("cascade"))
    .addColumn("bytes", binary, (col) => col.notNull())
    .addColumn("written_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("attachment_files").execute();
}
