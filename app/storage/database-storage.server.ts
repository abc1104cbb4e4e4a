import type { Db } from "../../db/database";
import { type AttachmentStorage, attachmentIdOfKey } from "./attachment-storage.server";

/**
 * Uploaded files in the database's `attachment_files` table, so that every instance on one database sees them.
 * A file belongs to its attachment row (a foreign key with ON DELETE CASCADE): it must be put after the row
 * exists, and it goes when the row goes, with its interview or its account. So it has no list() to sweep.
 */
export function databaseStorage(db: Db): AttachmentStorage {
  return {
    async put(key, bytes) {
      const row = { attachment_id: attachmentIdOfKey(key), bytes: Buffer.from(bytes), written_at: new Date().toISOString() };
      // Written again by a retried move (moveFolderIntoStorage): the newer bytes win.
      await db
        .insertInto("attachment_files")
        .values(row)
        .onConflict((conflict) => conflict.column("attachment_id").doUpdateSet({ bytes: row.bytes, written_at: row.written_at }))
        .execute();
    },
    async get(key) {
      const row = await db.selectFrom("attachment_files").select("bytes").where("attachment_id", "=", attachmentIdOfKey(key)).executeTakeFirst();
      return row?.bytes ?? null;
    },
    async delete(key) {
      await db.deleteFrom("attachment_files").where("attachment_id", "=", attachmentIdOfKey(key)).execute();
    },
  };
}
