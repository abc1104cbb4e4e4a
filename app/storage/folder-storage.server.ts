import { mkdir, opendir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AttachmentStorage, StoredFile } from "./attachment-storage.server";

/**
 * Files in a local folder: where uploads were kept before they moved into the database or a bucket
 * (DATA_DIR/attachments). Only the start-up move (moveFolderIntoStorage) reads it now: a folder is not seen by
 * a second instance.
 */
export function folderStorage(root: string): AttachmentStorage & { list(): AsyncIterable<StoredFile> } {
  const file = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(root + path.sep)) throw new Error("Storage key outside the storage");
    return full;
  };
  return {
    async put(key, bytes) {
      await mkdir(path.dirname(file(key)), { recursive: true });
      await writeFile(file(key), bytes);
    },
    async get(key) {
      return readFile(file(key)).catch(() => null);
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
    async *list() {
      async function* walk(dir: string): AsyncGenerator<StoredFile> {
        const entries = await opendir(dir).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return null;
          throw error;
        });
        if (!entries) return;
        for await (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) yield* walk(full);
          else if (entry.isFile()) {
            const info = await stat(full).catch(() => null);
            if (info) yield { key: path.relative(root, full).split(path.sep).join("/"), modifiedAt: info.mtime };
          }
        }
      }
      yield* walk(root);
    },
  };
}
