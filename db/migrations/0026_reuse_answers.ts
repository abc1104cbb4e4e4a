import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Whether a new interview offers the answers the person gave in their other interviews and their profile
  // (issue 29): 1 (on, as for everyone until they turn it off on their profile page) or 0.
  await db.schema.alterTable("users").addColumn("offer_reused_answers", "integer", (col) => col.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("offer_reused_answers").execute();
}
