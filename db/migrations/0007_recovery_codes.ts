import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Single-use recovery codes for a lost authenticator (NIST SP 800-63B look-up secrets): only a keyed hash of
  // each code is kept (app/auth/recovery-codes.server.ts), never the code.
  await db.schema
    .createTable("recovery_codes")
    .addColumn("code_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("recovery_codes_user_id").on("recovery_codes").column("user_id").execute();

  // Fresh codes, encrypted, for the one session that made them: shown until the person says they saved them.
  await db.schema.alterTable("sessions").addColumn("recovery_codes_to_show", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("recovery_codes_to_show").execute();
  await db.schema.dropTable("recovery_codes").execute();
}
