// Moving stored answers and files under the current key: rows written before encryption at start-up (and by
// `cli db migrate`), every value under an older key by `cli db rotate-key`. docs/decisions/0019-data-encryption.md.
import { sql } from "kysely";
import type { DatabaseHandle, Db } from "../../db/database";
import {
  bytesKeyId,
  type DataKeyring,
  openBytes,
  openText,
  sealBytes,
  sealText,
  TEXT_PREFIX,
  textKeyId,
} from "~/security/data-encryption.server";
import { RESEAL_BATCH_SIZE } from "~/security/sealed-columns.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { attachmentNamePlace } from "./attachments.server";
import { interviewPlace, SEALED_INTERVIEW_COLUMNS, type SealedInterviewColumn } from "./interviews.server";

/** "plain": only what was never sealed (the start-up migration); "rotate": everything not under the current key. */
export type ResealScope = "plain" | "rotate";

export interface ResealCounts {
  /** Interview rows whose answers or page history were sealed again. */
  interviews: number;
  /** Attachment rows whose file name was sealed again. */
  fileNames: number;
  /** Stored files sealed again. */
  files: number;
  /** Attachment rows whose file the storage does not have (left as they are). */
  missingFiles: number;
}

/** A value as it should be under the current key; the same string when it already is (or, for "plain", is sealed). */
function resealText(value: string, where: string, keys: DataKeyring, scope: ResealScope): string {
  const keyId = textKeyId(value);
  if (keyId === null) return sealText(value, where, keys);
  if (scope === "plain" || keyId === keys.current.id) return value;
  return sealText(openText(value, where, keys), where, keys);
}

function resealFile(bytes: Buffer, keys: DataKeyring, scope: ResealScope): Buffer | null {
  const keyId = bytesKeyId(bytes);
  if (keyId === null) return sealBytes(bytes, keys);
  if (scope === "plain" || keyId === keys.current.id) return null;
  return sealBytes(openBytes(bytes, keys), keys);
}

/**
 * Seals again, in batches of `batchSize` rows, every interview column and attachment (name and file) the scope
 * takes in. Idempotent, and safe beside a running server: a row is written only if it has not changed since it
 * was read (a save meanwhile seals it under the current key anyway). Throws DataDecryptionError, naming the
 * place, for a value that opens under no configured key; what was done before it stays done.
 */
export async function resealAnswersAndFiles(
  db: Db,
  storage: AttachmentStorage,
  keys: DataKeyring,
  scope: ResealScope,
  batchSize = RESEAL_BATCH_SIZE,
): Promise<ResealCounts> {
  const counts: ResealCounts = { interviews: 0, fileNames: 0, files: 0, missingFiles: 0 };
  // What a value that needs no work starts with; SQL finds the rest (LIKE: the prefix has no wildcard).
  const settled = `${TEXT_PREFIX}${scope === "plain" ? "" : `${keys.current.id}:`}%`;

  for (let after = ""; ; ) {
    const rows = await db
      .selectFrom("interviews")
      .select(["id", "vars", "engine_state"])
      .where("id", ">", after)
      .where((eb) => eb.or(SEALED_INTERVIEW_COLUMNS.map((column) => eb(column, "not like", settled))))
      .orderBy("id")
      .limit(batchSize)
      .execute();
    if (!rows.length) break;
    after = rows.at(-1)!.id;
    const updates = rows.map((row) => ({
      row,
      sealed: Object.fromEntries(
        SEALED_INTERVIEW_COLUMNS.map((column) => [column, resealText(row[column], interviewPlace(column, row.id), keys, scope)]),
      ) as Record<SealedInterviewColumn, string>,
    }));
    await db.transaction().execute(async (trx) => {
      for (const { row, sealed } of updates) {
        const result = await trx
          .updateTable("interviews")
          .set(sealed)
          .where("id", "=", row.id)
          .where("vars", "=", row.vars)
          .where("engine_state", "=", row.engine_state)
          .executeTakeFirst();
        counts.interviews += Number(result.numUpdatedRows);
      }
    });
    if (rows.length < batchSize) break;
  }

  for (let after = ""; ; ) {
    const rows = await db
      .selectFrom("attachments")
      .select(["id", "file_name", "storage_key"])
      .where("id", ">", after)
      .where("file_name", "not like", settled)
      .orderBy("id")
      .limit(batchSize)
      .execute();
    if (!rows.length) break;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      // The file first: a name under the current key then always means a file under it (a crash in between
      // leaves the name behind, and the next run finds the file done and seals the name).
      const stored = await storage.get(row.storage_key);
      if (!stored) counts.missingFiles += 1;
      else {
        const resealed = resealFile(stored, keys, scope);
        if (resealed) {
          await storage.put(row.storage_key, resealed);
          counts.files += 1;
        }
      }
      const result = await db
        .updateTable("attachments")
        .set({ file_name: resealText(row.file_name, attachmentNamePlace(row.id), keys, scope) })
        .where("id", "=", row.id)
        .where("file_name", "=", row.file_name)
        .executeTakeFirst();
      counts.fileNames += Number(result.numUpdatedRows);
    }
    if (rows.length < batchSize) break;
  }
  return counts;
}

/**
 * SQLite keeps the text a row held before an update in its free pages and its write-ahead log until they are
 * reused: after sealing, the file is rewritten and the log emptied, so no earlier text (plain, or under a key
 * being retired) stays on disk. PostgreSQL's equivalent is VACUUM FULL, left to its operator (README).
 */
export async function compactAfterResealing({ db, dialect }: DatabaseHandle): Promise<void> {
  if (dialect !== "sqlite") return;
  await sql`vacuum`.execute(db);
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
}
