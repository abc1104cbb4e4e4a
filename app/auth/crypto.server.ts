import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

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
 * A 32-byte key for secrets at rest: TOTP_ENCRYPTION_KEY (base64 of 32 bytes) when set, else derived from
 * SESSION_SECRET with HKDF, so a deployment needs one secret but may keep two.
 */
export function encryptionKey(settings: { TOTP_ENCRYPTION_KEY?: string; SESSION_SECRET: string }): Buffer {
  if (settings.TOTP_ENCRYPTION_KEY) return Buffer.from(settings.TOTP_ENCRYPTION_KEY, "base64");
  return Buffer.from(hkdfSync("sha256", settings.SESSION_SECRET, "legal-self-help", "totp-secret-v1", 32));
}

/** AES-256-GCM; the result names its version so the key or cipher can change later. */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

export function decryptSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, body] = sealed.split(":");
  if (version !== "v1" || !iv || !tag || !body) throw new Error("Unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}
