import { createHmac, hkdfSync, randomInt } from "node:crypto";
import type { Db } from "../../db/database";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { decryptSecret, encryptSecret, encryptionKey } from "./crypto.server";
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
 * A keyed hash (HMAC-SHA256 with a key derived from the encryption key, salted with the user id): 50 bits
 * would fall to a plain hash offline, but without the server's key the table is worth nothing, and one keyed
 * hash lets a code be found by an indexed lookup instead of trying a slow hash against every code.
 */
function recoveryCodeHash(userId: string, code: string): string {
  const key = Buffer.from(hkdfSync("sha256", encryptionKey(config()), "legal-self-help", "recovery-code-v1", 32));
  return createHmac("sha256", key).update(`${userId}:${code}`).digest("base64url");
}

/** Replaces every code of the user with ten new ones; returns them, the only time they exist in clear. */
export async function replaceRecoveryCodes(userId: string, db: Db = database()): Promise<string[]> {
  const codes = newRecoveryCodes();
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
    await trx
      .insertInto("recovery_codes")
      .values(codes.map((code) => ({ code_hash: recoveryCodeHash(userId, normalizeRecoveryCode(code)!), user_id: userId, created_at: now, used_at: null })))
      .execute();
  });
  return codes;
}

/** Uses up one code of the user; false when it is not one of theirs or was used already (two tabs: one wins). */
export async function consumeRecoveryCode(userId: string, typed: string, db: Db = database()): Promise<boolean> {
  const code = normalizeRecoveryCode(typed);
  if (!code) return false;
  const result = await db
    .updateTable("recovery_codes")
    .set({ used_at: new Date().toISOString() })
    .where("code_hash", "=", recoveryCodeHash(userId, code))
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

/** Sealed for the session row: the codes stay on screen (reloads included) until the person has saved them. */
export function sealCodesToShow(show: CodesToShow): string {
  return encryptSecret(JSON.stringify(show), encryptionKey(config()));
}

export async function keepCodesToShow(session: Session, show: CodesToShow, db: Db = database()): Promise<void> {
  await db.updateTable("sessions").set({ recovery_codes_to_show: sealCodesToShow(show) }).where("id_hash", "=", session.idHash).execute();
}

export async function codesToShow(session: Session, db: Db = database()): Promise<CodesToShow | null> {
  const row = await db.selectFrom("sessions").select("recovery_codes_to_show").where("id_hash", "=", session.idHash).executeTakeFirst();
  if (!row?.recovery_codes_to_show) return null;
  return JSON.parse(decryptSecret(row.recovery_codes_to_show, encryptionKey(config()))) as CodesToShow;
}

/** "I have saved them": the codes leave the session; only their hashes remain. */
export async function forgetCodesToShow(session: Session, db: Db = database()): Promise<void> {
  await db.updateTable("sessions").set({ recovery_codes_to_show: null }).where("id_hash", "=", session.idHash).execute();
}
