import type { Kysely } from "kysely";

// Migrations take Kysely<any>: they describe the schema as it was at their time, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("categories")
    .addColumn("id", "integer", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("sort_order", "integer", (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("issues")
    .addColumn("id", "integer", (col) => col.primaryKey())
    .addColumn("category_id", "integer", (col) => col.notNull().references("categories.id").onDelete("restrict"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("guide_id", "text")
    .addColumn("guide_path", "text")
    .addColumn("model_ai", "text", (col) => col.notNull().defaultTo("gpt-3.5-turbo"))
    .addColumn("rephrase_content", "text", (col) => col.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("issues_category_id").on("issues").column("category_id").execute();

  await db.schema
    .createTable("home_content")
    .addColumn("id", "integer", (col) => col.primaryKey())
    .addColumn("headline", "text", (col) => col.notNull())
    .addColumn("sub_headline", "text", (col) => col.notNull())
    .addColumn("body_copy", "text", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("legal_documents")
    .addColumn("slug", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("outbox_messages")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("from_address", "text", (col) => col.notNull())
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("html", "text", (col) => col.notNull())
    .addColumn("text", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("outbox_messages_created_at").on("outbox_messages").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["outbox_messages", "legal_documents", "home_content", "issues", "categories"]) {
    await db.schema.dropTable(table).execute();
  }
}
