import type { Kysely, Migration } from "kysely";

/**
 * Secrets that each do one job (docs/decisions/0033-secrets-and-rotation.md). Before this migration the
 * two-factor secrets (and the recovery codes waiting in a session) were sealed in a format of their own
 * ("v1:iv:tag:body") with a key derived from SESSION_SECRET (or TOTP_ENCRYPTION_KEY), the recovery codes were
 * hashed with a key derived from that one, and the usage page tokens were keyed with SESSION_SECRET itself.
 * Afterwards every sealed value is the data keyring's `enc1:` format, and the two hash keys are the
 * application's own, kept in `application_keys` sealed with the data keyring: the keys earlier values were made
 * with are kept there, so every recovery code and page token made before still works.
 *
 * The database layer knows no keys: the application hands them in (app/auth/earlier-secrets.server.ts, through
 * server/database-setup.ts). A database with nothing made the earlier way (a new one) needs none.
 */
export interface EarlierSecrets {
  /**
   * A value sealed the earlier way, opened with the earlier key and sealed again with the data keyring for its
   * row (`<column>:<id>`). Throws, saying which setting is missing, when no earlier key opens it.
   */
  resealTwoFactorValue(value: string, column: EarlierSealedColumn, id: string): string;
  /** The key the existing recovery codes were hashed with, sealed for its row of application_keys. */
  sealedRecoveryCodeKey(id: string): string;
  /** The key the existing usage page tokens were made with, sealed for its row of application_keys. */
  sealedPageTokenKey(id: string): string;
}

export type EarlierSealedColumn = "users.totp_secret" | "sessions.pending_totp_secret" | "sessions.recovery_codes_to_show";

/** The id of the key earlier recovery codes were hashed with (app/auth/recovery-codes.server.ts). */
export const EARLIER_RECOVERY_CODE_KEY = "recovery-codes-earlier";
/** The id of the page tokens' key (app/usage/page-token.server.ts). */
export const PAGE_TOKEN_KEY = "usage-pages";

const EARLIER = "v1:%";

export function secretsMigration(earlier: EarlierSecrets | undefined): Migration {
  return { up: (db) => up(db, earlier), down };
}

async function up(db: Kysely<any>, earlier: EarlierSecrets | undefined): Promise<void> {
  const secrets = await db.selectFrom("users").select(["id", "totp_secret"]).where("totp_secret", "like", EARLIER).execute();
  const sessions = await db
    .selectFrom("sessions")
    .select(["id_hash", "user_id", "pending_totp_secret", "recovery_codes_to_show"])
    .where((eb) => eb.or([eb("pending_totp_secret", "like", EARLIER), eb("recovery_codes_to_show", "like", EARLIER)]))
    .execute();
  const hasCodes = (await db.selectFrom("recovery_codes").select("user_id").limit(1).execute()).length > 0;
  const hasTokens =
    (await db.selectFrom("interviews").select("id").where("last_page", "is not", null).limit(1).execute()).length > 0 ||
    (await db.selectFrom("usage_events").select("seq").where("page", "is not", null).limit(1).execute()).length > 0;
  if (!earlier && (secrets.length || sessions.length || hasCodes || hasTokens)) {
    throw new Error(
      "this database holds two-factor secrets, recovery codes or usage page tokens made with keys derived from SESSION_SECRET " +
        "(or TOTP_ENCRYPTION_KEY): run the migration where those are set as the server had them (the server runs it as it starts)",
    );
  }

  // Everything is opened and sealed again before anything is written: a missing key stops the migration with
  // nothing changed (SQLite runs migrations outside a transaction).
  const movedSecrets = secrets.map((row) => ({ id: row.id as string, sealed: earlier!.resealTwoFactorValue(row.totp_secret, "users.totp_secret", row.id) }));
  // What a session holds lives 15 minutes (a pending set-up) or until the codes are saved: one that no earlier
  // key opens is dropped (the set-up starts again; new codes can be made) rather than stopping the start.
  const resealOrDrop = (value: string | null, column: EarlierSealedColumn, id: string | null) => {
    if (value === null || !value.startsWith("v1:")) return value;
    if (id === null) return null;
    try {
      return earlier!.resealTwoFactorValue(value, column, id);
    } catch {
      return null;
    }
  };
  const movedSessions = sessions.map((row) => ({
    idHash: row.id_hash as string,
    pending: resealOrDrop(row.pending_totp_secret, "sessions.pending_totp_secret", row.id_hash),
    codes: resealOrDrop(row.recovery_codes_to_show, "sessions.recovery_codes_to_show", row.user_id),
  }));
  const now = new Date().toISOString();
  const keys = [
    ...(hasCodes ? [{ id: EARLIER_RECOVERY_CODE_KEY, key: earlier!.sealedRecoveryCodeKey(EARLIER_RECOVERY_CODE_KEY), created_at: now }] : []),
    ...(hasTokens ? [{ id: PAGE_TOKEN_KEY, key: earlier!.sealedPageTokenKey(PAGE_TOKEN_KEY), created_at: now }] : []),
  ];

  await db.schema
    .createTable("application_keys")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  // The key each code was hashed with (`cli db rotate-key` retires the earlier one once no code uses it).
  await db.schema.alterTable("recovery_codes").addColumn("key_id", "text").execute();

  const write = async (trx: Kysely<any>) => {
    if (keys.length) await trx.insertInto("application_keys").values(keys).execute();
    if (hasCodes) await trx.updateTable("recovery_codes").set({ key_id: EARLIER_RECOVERY_CODE_KEY }).execute();
    for (const { id, sealed } of movedSecrets) await trx.updateTable("users").set({ totp_secret: sealed }).where("id", "=", id).execute();
    for (const { idHash, pending, codes } of movedSessions) {
      await trx.updateTable("sessions").set({ pending_totp_secret: pending, recovery_codes_to_show: codes }).where("id_hash", "=", idHash).execute();
    }
  };
  // PostgreSQL runs each migration in a transaction already; SQLite's is opened here, so the rows move at once.
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

async function down(db: Kysely<any>): Promise<void> {
  // The secrets cannot go back to the earlier format without the earlier key: only the schema is undone.
  await db.schema.alterTable("recovery_codes").dropColumn("key_id").execute();
  await db.schema.dropTable("application_keys").execute();
}
