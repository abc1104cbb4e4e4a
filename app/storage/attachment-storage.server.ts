import path from "node:path";

/** A file the storage holds: its key and when it was last written. */
export interface StoredFile {
  key: string;
  modifiedAt: Date;
}

/**
 * Where the bytes of uploaded files live: the database by default, an S3-compatible bucket when STORAGE_URL is
 * set (docs/decisions/0015-file-storage-and-backups.md). Keys are `<user id>/<attachment id>.<ext>`
 * (attachmentStorageKey): the attachment row's `storage_key`.
 */
export interface AttachmentStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when the storage holds nothing under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Deletes the bytes; nothing happens when there are none. */
  delete(key: string): Promise<void>;
  /**
   * Every file held, for housekeeping's sweep of files without a row. A storage whose files cannot outlive
   * their row (the database's) has none, and is not swept.
   */
  list?(): AsyncIterable<StoredFile>;
}

/** The key of an attachment's bytes. Its base name is the row's id: the database storage and housekeeping rely on it. */
export function attachmentStorageKey(userId: string, attachmentId: string, ext: string): string {
  return `${userId}/${attachmentId}.${ext}`;
}

/** The attachment row a key belongs to (attachmentStorageKey's inverse). */
export function attachmentIdOfKey(key: string): string {
  return path.posix.basename(key).replace(/\.[^.]*$/, "");
}

/** What is done to the bytes on their way into the storage and back (encryption at rest). */
export interface BytesTransform {
  seal(bytes: Uint8Array): Buffer;
  open(bytes: Buffer): Buffer;
}

export const unchangedBytes: BytesTransform = {
  seal: (bytes) => Buffer.from(bytes),
  open: (bytes) => bytes,
};

/** A storage that seals the bytes before they are stored and opens them when they are read. */
export function transformingStorage(inner: AttachmentStorage, transform: BytesTransform): AttachmentStorage {
  return {
    put: (key, bytes) => inner.put(key, transform.seal(bytes)),
    async get(key) {
      const stored = await inner.get(key);
      return stored && transform.open(stored);
    },
    delete: (key) => inner.delete(key),
    ...(inner.list && { list: () => inner.list!() }),
  };
}
