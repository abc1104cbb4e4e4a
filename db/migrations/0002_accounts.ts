import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("first_name", "text", (col) => col.notNull())
    .addColumn("last_name", "text", (col) => col.notNull())
    .addColumn("email", "text", (col) => col.notNull())
    // The email lower-cased: one account per address whatever its case.
    .addColumn("email_key", "text", (col) => col.notNull().unique())
    .addColumn("phone_country", "text", (col) => col.notNull())
    .addColumn("phone_code", "text", (col) => col.notNull())
    .addColumn("phone_number", "text", (col) => col.notNull())
    .addColumn("password_hash", "text")
    .addColumn("email_verified_at", "text")
    .addColumn("totp_secret", "text")
    .addColumn("two_factor_enabled", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("totp_last_step", "integer")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    // Password accepted, second factor not yet: the 2FA steps read the user from here, never from the form.
    .addColumn("pending_user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("pending_totp_secret", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("last_seen_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_pending_user_id").on("sessions").column("pending_user_id").execute();

  await db.schema
    .createTable("auth_tokens")
    .addColumn("id_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("auth_tokens_user_purpose").on("auth_tokens").columns(["user_id", "purpose"]).execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("bucket", "text", (col) => col.primaryKey())
    .addColumn("window_started_at", "text", (col) => col.notNull())
    .addColumn("hits", "integer", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["rate_limits", "auth_tokens", "sessions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
