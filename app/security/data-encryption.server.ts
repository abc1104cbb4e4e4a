// People's answers and files at rest: AES-256-GCM, a random 96-bit IV per value, and a format that names its
// key, so values sealed under an old key stay readable while `cli db rotate-key` moves them to the new one.
// Format, keys and rotation: docs/decisions/0019-data-encryption.md.
import { createCipheriv, createDecipheriv, createHash, createSecretKey, type KeyObject, randomFillSync } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, type DataConfig, readDataConfig } from "~/config.server";

/** Text values start with this; a value without it was written before encryption (the migration seals it). */
export const TEXT_PREFIX = "enc1:";
/** File bytes start with this magic, then the format version and the key id. */
const MAGIC = Buffer.from("LSHE", "latin1");
const BYTES_VERSION = 1;
const KEY_ID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BYTES_HEADER = MAGIC.length + 1 + KEY_ID_BYTES;

/** The file `npm start --local` keeps its generated key in (server.js); read outside production when present. */
export const LOCAL_KEY_FILE = "data-encryption-key";
// Outside production only, where a fixed key is harmless and keeps development data readable across restarts.
const DEVELOPMENT_KEY = createHash("sha256").update("legal-self-help development data key").digest();

export interface DataKey {
  /** The first 4 bytes of the key's SHA-256, in hex: names the key in every value without revealing it. */
  id: string;
  /** Imported once: a cipher made from a key object skips importing raw key bytes on every value. */
  key: KeyObject;
}

export interface DataKeyring {
  /** What new values are sealed with. */
  current: DataKey;
  /** Every key that can open values, the current one included, by id. */
  byId: ReadonlyMap<string, DataKey>;
}

/** A value that opens under no configured key, or was changed: never shown, never overwritten silently. */
export class DataDecryptionError extends Error {
  override name = "DataDecryptionError";
}

export function dataKey(key: Buffer): DataKey {
  return { id: createHash("sha256").update(key).digest().subarray(0, KEY_ID_BYTES).toString("hex"), key: createSecretKey(key) };
}

/** A keyring from a current key and the keys still to be read (both base64 of 32 bytes, checked by config). */
export function dataKeyring(current: Buffer, old: Buffer[] = []): DataKeyring {
  const keys = [dataKey(current), ...old.map(dataKey)];
  return { current: keys[0]!, byId: new Map(keys.map((key) => [key.id, key])) };
}

/**
 * The keys the configuration names: DATA_ENCRYPTION_KEY, and DATA_ENCRYPTION_OLD_KEYS to read. Without a key
 * (production refuses to start without one, app/config.server.ts): the key `npm start --local` keeps in
 * DATA_DIR if there is one, so operator commands from the same checkout read the same data, else a fixed one.
 */
export function keyringFromConfig(settings: DataConfig): DataKeyring {
  const old = (settings.DATA_ENCRYPTION_OLD_KEYS ?? []).map((key) => Buffer.from(key, "base64"));
  if (settings.DATA_ENCRYPTION_KEY) return dataKeyring(Buffer.from(settings.DATA_ENCRYPTION_KEY, "base64"), old);
  const file = path.join(settings.DATA_DIR, LOCAL_KEY_FILE);
  if (!existsSync(file)) return dataKeyring(DEVELOPMENT_KEY, old);
  const local = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  // Sealing with another key than the one the data was written with would make it unreadable later: refuse.
  if (local.length !== 32) throw new ConfigError(`${file} does not hold a data encryption key (32 bytes in base64)`);
  return dataKeyring(local, old);
}

let configured: DataKeyring | undefined;

/** This process's keyring, from the environment, read once. */
export function configuredKeyring(): DataKeyring {
  configured ??= keyringFromConfig(readDataConfig());
  return configured;
}

function cipher(key: DataKey, iv: Buffer, aad: Buffer) {
  return createCipheriv("aes-256-gcm", key.key, iv).setAAD(aad);
}

function decipher(key: DataKey, iv: Buffer, tag: Buffer, aad: Buffer) {
  return createDecipheriv("aes-256-gcm", key.key, iv).setAAD(aad).setAuthTag(tag);
}

// IVs come from a pool filled 4 kB at a time: one call to the system's random source per 341 values instead of
// one per value, which the viewer's page step (three values sealed) measurably paid.
const ivPool = Buffer.alloc(IV_BYTES * 341);
let ivPoolUsed = ivPool.length;
function randomIv(): Buffer {
  if (ivPoolUsed === ivPool.length) {
    randomFillSync(ivPool);
    ivPoolUsed = 0;
  }
  // A copy: the pool is refilled in place, and an IV must never change once used.
  const iv = Buffer.from(ivPool.subarray(ivPoolUsed, ivPoolUsed + IV_BYTES));
  ivPoolUsed += IV_BYTES;
  return iv;
}

/**
 * The text values this process last sealed or opened, by place, per keyring: a person's next page opens the
 * answers and history their last save sealed a moment before, and the save after it opens them again, so most
 * opens need no decryption (a page step opened four values and sealed two; decryption was a third of the cost
 * that encryption added to a step, docs/decisions/0019-data-encryption.md). A value is only taken from here
 * when the stored text is the very string that was sealed or opened at that place under this keyring, so
 * a changed, moved or retired value still goes through decryption and is refused. Bounded by size: the oldest
 * go first; a value too large to be worth keeping is not kept.
 */
export class RecentValues {
  static readonly BUDGET_CHARS = 4_000_000;
  private readonly byPlace = new Map<string, { sealed: string; plain: string }>();
  private chars = 0;

  get(where: string, sealed: string): string | undefined {
    const recent = this.byPlace.get(where);
    return recent?.sealed === sealed ? recent.plain : undefined;
  }

  remember(where: string, sealed: string, plain: string) {
    this.forget(where);
    const size = sealed.length + plain.length;
    if (size > RecentValues.BUDGET_CHARS / 64) return;
    this.byPlace.set(where, { sealed, plain });
    this.chars += size;
    for (const oldest of this.byPlace.keys()) {
      if (this.chars <= RecentValues.BUDGET_CHARS) break;
      this.forget(oldest);
    }
  }

  /** Characters held (sealed and plain text together). */
  get size() {
    return this.chars;
  }

  private forget(where: string) {
    const recent = this.byPlace.get(where);
    if (!recent) return;
    this.byPlace.delete(where);
    this.chars -= recent.sealed.length + recent.plain.length;
  }
}

const recentValues = new WeakMap<DataKeyring, RecentValues>();
function recentValuesOf(keys: DataKeyring): RecentValues {
  let recent = recentValues.get(keys);
  if (!recent) recentValues.set(keys, (recent = new RecentValues()));
  return recent;
}

/**
 * Seals a text column's value: "enc1:<key id>:<base64 of iv | tag | ciphertext>". `where` names the place the
 * value lives (table, column, row id): it is authenticated with the value, so a value copied to another row or
 * column does not open.
 */
export function sealText(plain: string, where: string, keys: DataKeyring = configuredKeyring()): string {
  const head = `${TEXT_PREFIX}${keys.current.id}:`;
  const iv = randomIv();
  const c = cipher(keys.current, iv, Buffer.from(head + where, "utf8"));
  // GCM is a stream mode: update() gives all the ciphertext and final() nothing, so one buffer is packed.
  const body = c.update(plain, "utf8");
  c.final();
  const packed = Buffer.allocUnsafe(IV_BYTES + TAG_BYTES + body.length);
  iv.copy(packed, 0);
  c.getAuthTag().copy(packed, IV_BYTES);
  body.copy(packed, IV_BYTES + TAG_BYTES);
  const sealed = head + packed.toString("base64");
  recentValuesOf(keys).remember(where, sealed, plain);
  return sealed;
}

/** The id of the key a text value was sealed with; null for a plain (never sealed) value. */
export function textKeyId(value: string): string | null {
  if (!value.startsWith(TEXT_PREFIX)) return null;
  const end = value.indexOf(":", TEXT_PREFIX.length);
  return end < 0 ? null : value.slice(TEXT_PREFIX.length, end);
}

/** Opens a value sealText sealed at the same `where`; throws DataDecryptionError for anything else. */
export function openText(sealed: string, where: string, keys: DataKeyring = configuredKeyring()): string {
  const recent = recentValuesOf(keys);
  const known = recent.get(where, sealed);
  if (known !== undefined) return known;
  const keyId = textKeyId(sealed);
  if (keyId === null) throw new DataDecryptionError(`${where} is not sealed`);
  const key = keys.byId.get(keyId);
  if (!key) throw new DataDecryptionError(`${where} is sealed under key ${keyId}, which is not configured`);
  const head = `${TEXT_PREFIX}${keyId}:`;
  const packed = Buffer.from(sealed.slice(head.length), "base64");
  if (packed.length < IV_BYTES + TAG_BYTES) throw new DataDecryptionError(`${where} is cut short`);
  let plain: string;
  try {
    const d = decipher(key, packed.subarray(0, IV_BYTES), packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES), Buffer.from(head + where, "utf8"));
    const opened = d.update(packed.subarray(IV_BYTES + TAG_BYTES));
    d.final(); // checks the tag; GCM gives no more text here
    plain = opened.toString("utf8");
  } catch {
    throw new DataDecryptionError(`${where} does not open under key ${keyId}: changed, or moved from another place`);
  }
  recent.remember(where, sealed, plain);
  return plain;
}

/**
 * Seals a file's bytes: "LSHE", version 1, the 4-byte key id, then iv | tag | ciphertext; the header is
 * authenticated. Files are not bound to their place: the storage that holds them knows nothing of rows.
 */
export function sealBytes(bytes: Uint8Array, keys: DataKeyring = configuredKeyring()): Buffer {
  const header = Buffer.concat([MAGIC, Buffer.from([BYTES_VERSION]), Buffer.from(keys.current.id, "hex")]);
  const iv = randomIv();
  const c = cipher(keys.current, iv, header);
  const body = Buffer.concat([c.update(bytes), c.final()]);
  return Buffer.concat([header, iv, c.getAuthTag(), body]);
}

/** The id of the key a file was sealed with; null for a file written before encryption. */
export function bytesKeyId(bytes: Uint8Array): string | null {
  if (bytes.length < BYTES_HEADER || !MAGIC.equals(bytes.subarray(0, MAGIC.length)) || bytes[MAGIC.length] !== BYTES_VERSION) return null;
  return Buffer.from(bytes.subarray(MAGIC.length + 1, BYTES_HEADER)).toString("hex");
}

export function openBytes(sealed: Uint8Array, keys: DataKeyring = configuredKeyring()): Buffer {
  const keyId = bytesKeyId(sealed);
  if (keyId === null) throw new DataDecryptionError("The file is not sealed");
  const key = keys.byId.get(keyId);
  if (!key) throw new DataDecryptionError(`The file is sealed under key ${keyId}, which is not configured`);
  const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (data.length < BYTES_HEADER + IV_BYTES + TAG_BYTES) throw new DataDecryptionError("The file is cut short");
  const iv = data.subarray(BYTES_HEADER, BYTES_HEADER + IV_BYTES);
  const tag = data.subarray(BYTES_HEADER + IV_BYTES, BYTES_HEADER + IV_BYTES + TAG_BYTES);
  try {
    const d = decipher(key, iv, tag, data.subarray(0, BYTES_HEADER));
    return Buffer.concat([d.update(data.subarray(BYTES_HEADER + IV_BYTES + TAG_BYTES)), d.final()]);
  } catch {
    throw new DataDecryptionError(`The file does not open under key ${keyId}: it was changed`);
  }
}
