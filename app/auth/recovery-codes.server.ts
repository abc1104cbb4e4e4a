import { createHmac, randomInt } from "node:crypto";
import type { Db } from "../../db/database";
import { EARLIER_RECOVERY_CODE_KEY } from "../../db/migrations/0016_secrets_in_the_data_keyring";
import { database } from "~/db.server";
import { applicationKey, existingApplicationKey } from "~/security/application-keys.server";
import { openTwoFactorValue, sealTwoFactorValue } from "./crypto.server";
import type { Session } from "./session.server";

export const RECOVERY_CODE_COUNT = 10;
// Crockford's base32, lower case: no i, l, o or u, so a code read off paper is not mistyped.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const CODE_LENGTH = 10;

/** What a person may type for a code: any case, spaces and dashes anywhere, o for 0 and i or l for 1. */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed
    .toLowerCase()
    .replace(/[\s-]/g, "")
    .replace(/o/g, "0")
    .replace(/[il]/g, "1");
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** Ten random codes of 50 bits each, shown as two groups of five ("7g3kq-m2x9d"). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * A keyed hash (HMAC-SHA256, salted with the user id): 50 bits would fall to a plain hash offline, but without
 * the key the table is worth nothing, and one keyed hash finds a code by an indexed lookup instead of trying a
 * slow hash against every code. The key is the application's "recovery-codes" key (random, kept sealed with the
 * data keyring, app/security/application-keys.server.ts); each code names the key it was hashed with, so codes
 * made before migration 0016 keep working with the key they were made with.
 */
function recoveryCodeHash(key: Buffer, userId: string, code: string): string {
  return createHmac("sha256", key).update(`${userId}:${code}`).digest("base64url");
}

/** New codes are hashed with this key. */
export const RECOVERY_CODE_KEY = "recovery-codes";

/** Replaces every code of the user with ten new ones; returns them, the only time they exist in clear. */
export async function replaceRecoveryCodes(userId: string, db: Db = database()): Promise<string[]> {
  const codes = newRecoveryCodes();
  const key = await applicationKey(db, RECOVERY_CODE_KEY);
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await trx
      .insertInto("recovery_codes")
      .values(codes.map((code) => ({ code_hash: recoveryCodeHash(key, userId, normalizeRecoveryCode(code)!), user_id: userId, created_at: now, used_at: null, key_id: RECOVERY_CODE_KEY })))
      .execute();
  });
  return codes;
}

/**
 * After a rotation: the key codes made before migration 0016 were hashed with goes once no unused code needs it
 * (the codes are used up or replaced), so nothing derived from the earlier SESSION_SECRET is left. Returns how
 * many unused codes still need it (0: it is gone, or there was none).
 */
export async function retireEarlierRecoveryCodeKey(db: Db = database()): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string | number>().as("left"))
    .where("key_id", "=", EARLIER_RECOVERY_CODE_KEY)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  const left = Number(row.left);
  if (left === 0) await db.deleteFrom("application_keys").where("id", "=", EARLIER_RECOVERY_CODE_KEY).execute();
  return left;
}

/** Uses up one code of the user; false when it is not one of theirs or was used already (two tabs: one wins). */
export async function consumeRecoveryCode(userId: string, typed: string, db: Db = database()): Promise<boolean> {
  const code = normalizeRecoveryCode(typed);
  if (!code) return false;
  // The keys the person's unused codes were hashed with: one, or two for a while after migration 0016.
  const keyIds = await db
    .selectFrom("recovery_codes")
    .select("key_id")
    .distinct()
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
  const hashes: string[] = [];
  for (const { key_id } of keyIds) {
    const key = key_id === null ? null : await existingApplicationKey(db, key_id);
    if (key) hashes.push(recoveryCodeHash(key, userId, code));
  }
  if (!hashes.length) return false;
  const result = await db
    .updateTable("recovery_codes")
    .set({ used_at: new Date().toISOString() })
    .where("code_hash", "in", hashes)
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(userId: string, db: Db = database()): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string | number>().as("left"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

/** Fresh codes waiting to be saved, and where to go once they are. */
export interface CodesToShow {
  codes: string[];
  then: "/" | "/account/dashboard";
}

/**
 * Sealed for the session row: the codes stay on screen (reloads included) until the person has saved them.
 * Bound to the person, since the row of the session that will show them may not exist yet (sign-in makes it).
 */
export function sealCodesToShow(userId: string, show: CodesToShow): string {
  return sealTwoFactorValue(JSON.stringify(show), "sessions.recovery_codes_to_show", userId);
}

export async function keepCodesToShow(session: Session, userId: string, show: CodesToShow, db: Db = database()): Promise<void> {
  await db.updateTable("sessions").set({ recovery_codes_to_show: sealCodesToShow(userId, show) }).where("id_hash", "=", session.idHash).execute();
}

export async function codesToShow(session: Session, db: Db = database()): Promise<CodesToShow | null> {
  const row = await db.selectFrom("sessions").select(["recovery_codes_to_show", "user_id"]).where("id_hash", "=", session.idHash).executeTakeFirst();
  if (!row?.recovery_codes_to_show || !row.user_id) return null;
  return JSON.parse(openTwoFactorValue(row.recovery_codes_to_show, "sessions.recovery_codes_to_show", row.user_id)) as CodesToShow;
}

/** "I have saved them": the codes leave the session; only their hashes remain. */
export async function forgetCodesToShow(session: Session, db: Db = database()): Promise<void> {
  await db.updateTable("sessions").set({ recovery_codes_to_show: null }).where("id_hash", "=", session.idHash).execute();
}
