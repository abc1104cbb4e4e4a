import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { PURGE_BATCH_SIZE } from "../../db/batches";
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { openText, sealText } from "~/security/data-encryption.server";
import { type AttachmentStorage, attachmentIdOfKey, attachmentStorageKey } from "~/storage/attachment-storage.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { folderStorage } from "~/storage/folder-storage.server";
import { interviewPlace } from "./interviews.server";
import { checkUpload } from "./upload-check.server";
import { logger } from "~/observability/log.server";

const log = logger("attachments");

/** Uploads must be under 5 MB. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024 - 1;

export const attachmentMessages = {
  none: "No files uploaded",
  tooLarge: "The file is too large: it must be under 5 MB.",
  wrongType: "Only PDF or Word files can be uploaded.",
  notStored: "Your file could not be saved just now. Please try again in a few minutes.",
} as const;

type Kind = { ext: "pdf" | "doc" | "docx"; contentType: string };

/** What a file is, from its first bytes (never from its name): PDF, Word 97–2003 or Word (docx). */
export function detectDocumentType(bytes: Uint8Array): Kind | null {
  const starts = (signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return { ext: "pdf", contentType: "application/pdf" };
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { ext: "doc", contentType: "application/msword" };
  if (starts([0x50, 0x4b, 0x03, 0x04])) {
    // A docx is a zip whose entries include word/document.xml.
    const text = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 64 * 1024))).toString("latin1");
    if (text.includes("word/") && text.includes("[Content_Types].xml")) {
      return { ext: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" };
    }
  }
  return null;
}

export type StoredAttachment = { ok: true; id: string; path: string } | { ok: false; message: string };

/**
 * Keeps an uploaded file for its owner. The answer's value is the returned path, whose base name is the
 * attachment id with the file's extension (the `Attachment` type, docs/a2j-formats.md).
 */
export async function storeAttachment(
  owner: { userId: string; interviewId: string | null },
  file: File,
  storage: AttachmentStorage = attachmentStorage(),
  db: Db = database(),
): Promise<StoredAttachment> {
  if (file.size === 0) return { ok: false, message: attachmentMessages.none };
  if (file.size > MAX_ATTACHMENT_BYTES) return { ok: false, message: attachmentMessages.tooLarge };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = detectDocumentType(bytes);
  if (!kind) return { ok: false, message: attachmentMessages.wrongType };
  const checked = await checkUpload(kind.ext, bytes);
  if (!checked.ok) return checked;
  const id = randomUUID();
  const key = attachmentStorageKey(owner.userId, id, kind.ext);
  // The row first: the database storage keeps the bytes under it (deleted with it), so they need it to exist.
  await db
    .insertInto("attachments")
    .values({
      id,
      user_id: owner.userId,
      interview_id: owner.interviewId,
      file_name: sealText(file.name.slice(0, 255) || `document.${kind.ext}`, attachmentNamePlace(id)),
      content_type: kind.contentType,
      size: bytes.length,
      storage_key: key,
      created_at: new Date().toISOString(),
    })
    .execute();
  try {
    await storage.put(key, bytes);
  } catch (error) {
    // No row may name bytes that were never stored (a bucket that is down): the upload fails whole, and the
    // person is told on the page, with the rest of what they typed kept.
    await db.deleteFrom("attachments").where("id", "=", id).execute();
    log.error(`could not store ${key}`, { err: error });
    return { ok: false, message: attachmentMessages.notStored };
  }
  return { ok: true, id, path: `attachments/${id}.${kind.ext}` };
}

/** Where a file's sealed name lives (its name may say what the file is about): bound to the row. */
export const attachmentNamePlace = (id: string) => `attachments.file_name:${id}`;

/** An attachment of its owner only: its info (url) and where its sealed bytes are. */
export async function findAttachment(userId: string, id: string, db: Db = database()) {
  const row = await db
    .selectFrom("attachments")
    .select(["id", "file_name", "content_type", "size", "storage_key"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { ...row, file_name: openText(row.file_name, attachmentNamePlace(row.id)), url: `/attachments/${row.id}` } : null;
}

/** Links attachments uploaded before the interview's first save to the interview. */
export async function adoptAttachments(userId: string, interviewId: string, ids: string[], db: Db = database()) {
  if (!ids.length) return;
  await db
    .updateTable("attachments")
    .set({ interview_id: interviewId })
    .where("user_id", "=", userId)
    .where("id", "in", ids)
    .where("interview_id", "is", null)
    .execute();
}

/**
 * The uploads among `candidates` that an interview of the same person names in its answers. The answers are
 * sealed, so SQL cannot search them: the few people with unadopted uploads have their interviews opened here.
 * An interview that does not open counts as naming every upload of its owner: a file is never lost for it.
 */
async function namedInAnswers(db: Db, candidates: { id: string; user_id: string }[]): Promise<Set<string>> {
  const interviews = await db
    .selectFrom("interviews")
    .select(["id", "user_id", "vars"])
    .where("user_id", "in", [...new Set(candidates.map((row) => row.user_id))])
    .execute();
  const named = new Set<string>();
  for (const interview of interviews) {
    let vars: string | null;
    try {
      vars = openText(interview.vars, interviewPlace("vars", interview.id));
    } catch {
      vars = null;
    }
    for (const row of candidates) {
      if (row.user_id === interview.user_id && (vars === null || vars.includes(row.id))) named.add(row.id);
    }
  }
  return named;
}

/** An upload no saved interview adopted is kept this long; so is a file without a row (it may be being written). */
export const ATTACHMENT_GRACE_MS = 24 * 60 * 60_000;

/**
 * Housekeeping for uploads, in batches:
 * - rows never adopted by a saved interview (interview_id null) uploaded more than ATTACHMENT_GRACE_MS ago,
 *   unless an interview of the same user names them in its answers (a save whose adoption did not happen):
 *   the row, then its file;
 * - files without a row (their interview or user was deleted, which deletes the rows by cascade; an upload
 *   whose row was never written) last written more than ATTACHMENT_GRACE_MS ago, so an upload being written
 *   is never touched. Only with a storage that can list its files.
 * Rows of deleted interviews need no rule: the foreign key deletes them with the interview.
 */
export async function purgeOrphanedAttachments(
  db: Db,
  now: Date,
  storage: AttachmentStorage,
  batchSize = PURGE_BATCH_SIZE,
): Promise<{ rows: number; files: number }> {
  const uploadedBy = new Date(now.getTime() - ATTACHMENT_GRACE_MS).toISOString();
  let rows = 0;
  let after = "";
  for (;;) {
    // In id order from where the last batch ended: the rows a saved interview names are skipped, not deleted.
    const candidates = await db
      .selectFrom("attachments")
      .select(["id", "user_id"])
      .where("interview_id", "is", null)
      .where("created_at", "<=", uploadedBy)
      .where("id", ">", after)
      .orderBy("id")
      .limit(batchSize)
      .execute();
    if (!candidates.length) break;
    after = candidates.at(-1)!.id;
    const named = await namedInAnswers(db, candidates);
    const unadopted = candidates.filter((row) => !named.has(row.id)).map((row) => row.id);
    if (unadopted.length) {
      // The condition is checked again by the delete: a row adopted meanwhile stays.
      const deleted = await db
        .deleteFrom("attachments")
        .where("id", "in", unadopted)
        .where("interview_id", "is", null)
        .returning("storage_key")
        .execute();
      // The row goes first: a file whose deletion fails is a file without a row, swept by a later run.
      for (const { storage_key } of deleted) await storage.delete(storage_key);
      rows += deleted.length;
    }
    if (candidates.length < batchSize) break;
  }

  let files = 0;
  if (!storage.list) return { rows, files };
  const writtenBy = now.getTime() - ATTACHMENT_GRACE_MS;
  let batch: string[] = [];
  const sweep = async () => {
    const ids = [...new Set(batch.map(attachmentIdOfKey))];
    const known = new Set(
      (await db.selectFrom("attachments").select("storage_key").where("id", "in", ids).execute()).map((row) => row.storage_key),
    );
    for (const key of batch) {
      if (known.has(key)) continue;
      await storage.delete(key);
      files += 1;
    }
    batch = [];
  };
  for await (const file of storage.list()) {
    if (file.modifiedAt.getTime() > writtenBy) continue;
    batch.push(file.key);
    if (batch.length >= batchSize) await sweep();
  }
  if (batch.length) await sweep();
  return { rows, files };
}

/**
 * Moves the files of a deployment from before the database and bucket storages (kept under
 * DATA_DIR/attachments) into `storage`, at start-up, then deletes them from the folder. A file whose row is gone
 * (its interview or account was deleted) is deleted, not moved. Each file is deleted only after its bytes are
 * stored, and storing them again is harmless, so a move cut short is finished by the next start.
 */
export async function moveFolderIntoStorage(root: string, storage: AttachmentStorage, db: Db): Promise<{ moved: number; deleted: number }> {
  const folder = folderStorage(root);
  let moved = 0;
  let deleted = 0;
  let left = false;
  for await (const { key } of folder.list()) {
    const row = await db.selectFrom("attachments").select("id").where("storage_key", "=", key).executeTakeFirst();
    const bytes = row ? await folder.get(key) : null;
    if (row && !bytes) {
      left = true;
      continue;
    }
    if (bytes) {
      await storage.put(key, bytes);
      moved += 1;
    } else deleted += 1;
    await folder.delete(key);
  }
  // The folders left empty (one per person) go too.
  if (!left) await rm(root, { recursive: true, force: true });
  return { moved, deleted };
}

/** Every file a person uploaded, oldest first, with its name opened (for "Download my data" and account deletion). */
export async function listAttachments(userId: string, db: Db = database()) {
  const rows = await db
    .selectFrom("attachments")
    .select(["id", "interview_id", "file_name", "content_type", "size", "storage_key", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    interviewId: row.interview_id,
    fileName: openText(row.file_name, attachmentNamePlace(row.id)),
    contentType: row.content_type,
    size: Number(row.size),
    storageKey: row.storage_key,
    createdAt: row.created_at,
  }));
}

/** Where a person's uploaded files are kept: their storage keys (deleting an account deletes these files). */
export async function attachmentKeysOf(userId: string, db: Db = database()): Promise<string[]> {
  const rows = await db.selectFrom("attachments").select("storage_key").where("user_id", "=", userId).execute();
  return rows.map((row) => row.storage_key);
}

/**
 * Copies a person's attachments for another of their interviews: new rows (names sealed again in their new
 * place) and the bytes stored again under new keys, so either interview can be deleted without the other
 * losing a file. Returns each copied id with its copy's; a file whose bytes are gone is left out.
 */
export async function copyAttachments(
  userId: string,
  ids: string[],
  interviewId: string,
  storage: AttachmentStorage = attachmentStorage(),
  db: Db = database(),
): Promise<Map<string, string>> {
  const copies = new Map<string, string>();
  if (!ids.length) return copies;
  const rows = await db
    .selectFrom("attachments")
    .select(["id", "file_name", "content_type", "size", "storage_key"])
    .where("user_id", "=", userId)
    .where("id", "in", ids)
    .execute();
  for (const row of rows) {
    const bytes = await storage.get(row.storage_key);
    if (!bytes) continue;
    const id = randomUUID();
    const ext = row.storage_key.split(".").pop() ?? "pdf";
    const key = attachmentStorageKey(userId, id, ext);
    await db
      .insertInto("attachments")
      .values({
        id,
        user_id: userId,
        interview_id: interviewId,
        file_name: sealText(openText(row.file_name, attachmentNamePlace(row.id)), attachmentNamePlace(id)),
        content_type: row.content_type,
        size: row.size,
        storage_key: key,
        created_at: new Date().toISOString(),
      })
      .execute();
    await storage.put(key, new Uint8Array(bytes));
    copies.set(row.id, id);
  }
  return copies;
}
