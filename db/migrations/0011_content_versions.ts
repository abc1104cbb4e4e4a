import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Every saved version of an editable item (a country, an issue, the home page, About, terms, privacy), of
  // every kind in one table (db/content-versions.ts). The public tables keep holding what is published, so
  // every public read stays as it was; this table is the history, the drafts, and what the seed must not
  // overwrite (docs/decisions/0028-content-versions.md).
  await db.schema
    .createTable("content_versions")
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("item_key", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    // "draft", "published" or "deleted".
    .addColumn("status", "text", (col) => col.notNull())
    // Who made it: "administrator", "command line" or "seed" (the seed files, or what was there before versions).
    .addColumn("source", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("author_id", "text")
    .addColumn("author_email", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("content_versions_pk", ["kind", "item_key", "version"])
    .execute();

  // An issue people may not want seen on their screen (family violence): its page offers a quick exit.
  await db.schema.alterTable("issues").addColumn("sensitive", "integer", (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("issues").dropColumn("sensitive").execute();
  await db.schema.dropTable("content_versions").execute();
}
