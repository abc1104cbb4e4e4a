import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The digits dates are written with in a language that has its own (Arabic's ٠١٢٣…): "latin" (0123, as until now)
  // or "native" (the language's own), the country's choice like the order and style of its dates (issue 27).
  await db.schema.alterTable("categories").addColumn("date_digits", "text", (col) => col.notNull().defaultTo("latin")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("categories").dropColumn("date_digits").execute();
}
