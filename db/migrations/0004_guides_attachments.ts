import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Guides live in the database, so every instance of a deployment serves the same ones.
  await db.schema
    .createTable("guides")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("title", "text", (col) => col.notNull())
    // The guide as imported: "json" (Guide.json) or "xml" (Guide.xml); `source` is its text.
    .addColumn("format", "text", (col) => col.notNull())
    .addColumn("source", "text", (col) => col.notNull())
    .addColumn("imported_at", "text", (col) => col.notNull())
    .execute();

  // Templates, PDFs, pick lists and media of a guide, base64 (the same text type on both databases).
  await db.schema
    .createTable("guide_files")
    .addColumn("guide_id", "text", (col) => col.notNull().references("guides.id").onDelete("cascade"))
    .addColumn("path", "text", (col) => col.notNull())
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("guide_files_pk", ["guide_id", "path"])
    .execute();

  await db.schema
    .createTable("attachments")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("interview_id", "text", (col) => col.references("interviews.id").onDelete("cascade"))
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("size", "integer", (col) => col.notNull())
    // Where the storage keeps the bytes (a path under DATA_DIR/attachments for the local storage).
    .addColumn("storage_key", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("attachments_user_id").on("attachments").column("user_id").execute();
  await db.schema.createIndex("attachments_interview_id").on("attachments").column("interview_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["attachments", "guide_files", "guides"]) await db.schema.dropTable(table).execute();
}
