import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The long-text questions of an issue's guide that offer "Rephrase with AI": a JSON array of variable names
  // (docs/decisions/0007-ai-rephrase.md). Existing issues offer none until their content says so.
  await db.schema
    .alterTable("issues")
    .addColumn("rephrase_variables", "text", (col) => col.notNull().defaultTo(sql`'[]'`))
    .execute();
}
