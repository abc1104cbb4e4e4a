// Keys the application makes for itself and keeps in the database, each for one job: the recovery codes' keyed
// hashes, the usage page tokens. Random bytes, sealed with the data keyring like answers, so rotating any secret
// (the data key, the session secret) leaves them as they are: `cli db rotate-key` only seals them again.
// docs/decisions/0033-secrets-and-rotation.md.
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/database";
import { configuredKeyring, type DataKeyring, openText, sealText } from "./data-encryption.server";
import type { SealedTextColumn } from "./sealed-columns.server";

/**
 * "recovery-codes": new recovery codes are hashed with it; "recovery-codes-earlier": the key codes made before
 * migration 0016 were hashed with (derived then from the two-factor key), kept until no code uses it;
 * "usage-pages": interviews' page tokens.
 */
export type ApplicationKeyId = "recovery-codes" | "recovery-codes-earlier" | "usage-pages";

/** Where a key's sealed bytes live: bound to its row, so a key copied to another row does not open. */
export const applicationKeyPlace = (id: string) => `application_keys.key:${id}`;

/** The keys as `cli db rotate-key` seals them again. */
export const APPLICATION_KEY_COLUMN: SealedTextColumn = { table: "application_keys", column: "key", key: "id", place: applicationKeyPlace };

/** A key's bytes as the table keeps them. */
export function sealApplicationKey(id: string, key: Buffer, keys: DataKeyring = configuredKeyring()): string {
  return sealText(key.toString("base64"), applicationKeyPlace(id), keys);
}

// Keys do not change once made (a rotation seals the same bytes again): each is read once per database handle.
const known = new WeakMap<Db, Map<string, Buffer>>();

async function readKey(db: Db, id: string, keys: DataKeyring): Promise<Buffer | null> {
  let byId = known.get(db);
  if (!byId) known.set(db, (byId = new Map()));
  const remembered = byId.get(id);
  if (remembered) return remembered;
  const row = await db.selectFrom("application_keys").select("key").where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const key = Buffer.from(openText(row.key, applicationKeyPlace(id), keys), "base64");
  byId.set(id, key);
  return key;
}

/** The key of that id if this database handle has already read it: no query, no await. */
export function rememberedApplicationKey(db: Db, id: ApplicationKeyId): Buffer | undefined {
  return known.get(db)?.get(id);
}

/**
 * The key of that id, made (32 random bytes) the first time it is asked for. Several instances asking at once
 * agree: the first insert wins and every one reads the row back.
 */
export async function applicationKey(db: Db, id: ApplicationKeyId, keys: DataKeyring = configuredKeyring()): Promise<Buffer> {
  const existing = await readKey(db, id, keys);
  if (existing) return existing;
  await db
    .insertInto("application_keys")
    .values({ id, key: sealApplicationKey(id, randomBytes(32), keys), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  return (await readKey(db, id, keys))!;
}

/** The key of that id if it exists (an earlier key is never made anew). */
export function existingApplicationKey(db: Db, id: string, keys: DataKeyring = configuredKeyring()): Promise<Buffer | null> {
  return readKey(db, id, keys);
}
