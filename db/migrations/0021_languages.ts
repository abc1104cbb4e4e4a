import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The language a person chose (docs/decisions/0043-languages.md): their pages and emails are in it. Empty until
  // they choose one or sign up; the browser's languages decide until then.
  await db.schema.alterTable("users").addColumn("language", "text").execute();
  // The organisation's settings that are not content: which languages it offers people ("languages": a JSON list
  // of tags, the first the default). A missing row means the default, every shipped language that is reviewed.
  await db.schema
    .createTable("site_settings")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("site_settings").execute();
  await db.schema.alterTable("users").dropColumn("language").execute();
}
