import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // A draft that is published as it was saved becomes the published version itself (no second, identical
  // version): when, and by whom, it was published (docs/decisions/0041). Empty for a version saved published.
  await db.schema.alterTable("content_versions").addColumn("published_at", "text").execute();
  await db.schema.alterTable("content_versions").addColumn("published_by_email", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("content_versions").dropColumn("published_by_email").execute();
  await db.schema.alterTable("content_versions").dropColumn("published_at").execute();
}
