import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // What is published in a language other than the default (docs/decisions/0044-content-in-every-language.md):
  // a country's, an issue's, the home page's or a page's translated fields ("country", "issue", "home",
  // "legal"; item_key as in content_versions), and an administrator's corrections to the interface's own words
  // ("strings", item_key ""). The body is JSON; its versions and drafts live in content_versions, as every
  // content's do (kinds "translation" and "strings").
  await db.schema
    .createTable("content_translations")
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("item_key", "text", (col) => col.notNull())
    .addColumn("language", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("content_translations_pk", ["kind", "item_key", "language"])
    .execute();
  await db.schema.createIndex("content_translations_language").on("content_translations").columns(["language", "kind"]).execute();
  // The language each source is written in: until now every one was in the default language.
  await db.schema.alterTable("sources").addColumn("language", "text", (col) => col.notNull().defaultTo("en")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sources").dropColumn("language").execute();
  await db.schema.dropTable("content_translations").execute();
}
