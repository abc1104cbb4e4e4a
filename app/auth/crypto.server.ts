import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { configuredKeyring, type DataKeyring, openText, sealText } from "~/security/data-encryption.server";
import type { SealedTextColumn } from "~/security/sealed-columns.server";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** A random, URL-safe secret: session ids and emailed links. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** What the database keeps of a token: its SHA-256, so a leaked table cannot be used as links or cookies. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

// scrypt with N=2^15, r=8: 32 MiB of memory per hash (memory-hard), about 60 ms on this machine.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize("NFKC"), salt, KEY_LENGTH, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Hashing a password nobody has: unknown emails take as long as known ones. */
let decoy: Promise<string> | undefined;
export async function spendPasswordTime(password: string): Promise<void> {
  decoy ??= hashPassword(randomToken());
  await verifyPassword(password, await decoy);
}

/**
 * The columns that hold a two-factor secret, or recovery codes waiting to be saved: sealed with the data keyring
 * like answers (app/security/data-encryption.server.ts), each bound to its row. A pending secret belongs to its
 * session (id hash); the codes to show and the confirmed secret to the person (user id).
 */
export type TwoFactorColumn = "users.totp_secret" | "sessions.pending_totp_secret" | "sessions.recovery_codes_to_show";

export const twoFactorPlace = (column: TwoFactorColumn, id: string) => `${column}:${id}`;

export function sealTwoFactorValue(plain: string, column: TwoFactorColumn, id: string, keys: DataKeyring = configuredKeyring()): string {
  return sealText(plain, twoFactorPlace(column, id), keys);
}

/** Throws DataDecryptionError for a value sealed elsewhere, changed, or under a key no longer configured. */
export function openTwoFactorValue(sealed: string, column: TwoFactorColumn, id: string, keys: DataKeyring = configuredKeyring()): string {
  return openText(sealed, twoFactorPlace(column, id), keys);
}

/** The two-factor columns as `cli db rotate-key` seals them again, each with what it counts. */
export const TWO_FACTOR_COLUMNS: { counted: string; spec: SealedTextColumn }[] = [
  {
    counted: "two-factor secret(s)",
    spec: { table: "users", column: "totp_secret", key: "id", place: (id) => twoFactorPlace("users.totp_secret", id) },
  },
  {
    counted: "two-factor set-up(s) in progress",
    spec: { table: "sessions", column: "pending_totp_secret", key: "id_hash", place: (id) => twoFactorPlace("sessions.pending_totp_secret", id) },
  },
  {
    counted: "set(s) of recovery codes waiting to be saved",
    spec: {
      table: "sessions",
      column: "recovery_codes_to_show",
      key: "id_hash",
      placeBy: "user_id",
      place: (userId) => twoFactorPlace("sessions.recovery_codes_to_show", userId),
    },
  },
];
