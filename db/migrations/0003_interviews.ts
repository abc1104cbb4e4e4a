import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("interviews")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (col) => col.notNull().references("issues.id").onDelete("restrict"))
    .addColumn("status", "text", (col) => col.notNull().defaultTo("Draft"))
    // A2J's answers as JSON (`values[0]` null) and as an ANX answer file.
    .addColumn("vars", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("xml", "text", (col) => col.notNull().defaultTo(""))
    // The engine's state between requests: current page and history (JSON).
    .addColumn("engine_state", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  // "My interviews": one user's rows, newest first, read straight from the index.
  await db.schema.createIndex("interviews_user_updated").on("interviews").columns(["user_id", "updated_at", "id"]).execute();
  await db.schema.createIndex("interviews_issue_id").on("interviews").column("issue_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("interviews").execute();
}
