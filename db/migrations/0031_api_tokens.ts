import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The organisation's API tokens (issue 31, docs/decisions/0056-the-api.md): made by an administrator at /admin/api,
  // shown once, kept only as the SHA-256 of the token (token_hash), with its first characters (prefix) to tell
  // tokens apart in the list. A token acts for the administrator who made it: removing that account removes
  // their tokens. Every use is counted on the row (last_used_at, use_count).
  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("prefix", "text", (col) => col.notNull())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    // The scopes, space-separated (e.g. "issues:read shared:read").
    .addColumn("scopes", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("use_count", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("api_tokens_created_by").on("api_tokens").column("created_by").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_tokens").execute();
}
