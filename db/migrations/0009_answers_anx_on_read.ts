import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The ANX answer file is built from the answers when it is asked for (the viewer's getDataUrl), not kept
  // beside them: every page step built and sealed a second copy of the answers that almost nothing read
  // (docs/decisions/0019-data-encryption.md, "Measurements").
  await db.schema.alterTable("interviews").dropColumn("xml").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("interviews").addColumn("xml", "text", (col) => col.notNull().defaultTo("")).execute();
}
