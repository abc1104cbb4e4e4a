import type { Db } from "../../db/database";
import type { ObjectStorageLocation } from "~/config.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { openBytes, sealBytes } from "~/security/data-encryption.server";
import { type AttachmentStorage, type BytesTransform, transformingStorage, unchangedBytes } from "./attachment-storage.server";
import { databaseStorage } from "./database-storage.server";
import { s3Storage } from "./s3-storage.server";

/** One S3 client per bucket and process: it keeps its connections open between requests. */
const buckets = new Map<string, AttachmentStorage>();

/** The storage a configuration names: its bucket when STORAGE_URL is set, otherwise the database. */
export function storageFromConfig(
  { STORAGE_URL }: { STORAGE_URL?: ObjectStorageLocation },
  db: Db,
  transform: BytesTransform = unchangedBytes,
): AttachmentStorage {
  let inner: AttachmentStorage;
  if (STORAGE_URL) {
    const id = JSON.stringify(STORAGE_URL);
    inner = buckets.get(id) ?? s3Storage(STORAGE_URL);
    buckets.set(id, inner);
  } else inner = databaseStorage(db);
  return transformingStorage(inner, transform);
}

/**
 * The bytes of uploaded files as they are stored, sealed (docs/decisions/0019-data-encryption.md): for the
 * commands that seal and re-seal them (start-up, `cli db rotate-key`) and for housekeeping, which only lists and
 * deletes.
 */
export function storedFiles(): AttachmentStorage {
  return storageFromConfig(config(), database());
}

const sealedAtRest: BytesTransform = { seal: (bytes) => sealBytes(bytes), open: (bytes) => openBytes(bytes) };

/** Where this process keeps uploaded files: sealed on their way in, opened on their way out. */
export function attachmentStorage(): AttachmentStorage {
  return storageFromConfig(config(), database(), sealedAtRest);
}
