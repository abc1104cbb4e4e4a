import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // How each country writes dates for people (app/a2j/dates.ts, DateLocale). A country the content does not
  // describe keeps A2J's own month/day/year, so a guide imported for a US issue reads as its author wrote it.
  await db.schema.alterTable("categories").addColumn("date_order", "text", (col) => col.notNull().defaultTo("MDY")).execute();
  await db.schema.alterTable("categories").addColumn("date_style", "text", (col) => col.notNull().defaultTo("numeric")).execute();
}
