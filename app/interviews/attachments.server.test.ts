import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import PDFKit from "pdfkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { readablePdf } from "../../tests/support/pdf";
import { captureLogs } from "~/observability/log.server";
import { MAX_BODY_BYTES, MAX_FILE_BYTES } from "~/security/request-guard.server";
import { type AttachmentStorage, attachmentStorageKey } from "~/storage/attachment-storage.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { uploadCheckMessages } from "./upload-check.server";
import { MAX_ATTACHMENT_BYTES, detectDocumentType, findAttachment, moveFolderIntoStorage, storeAttachment } from "./attachments.server";

describe("the upload limit at the edge", () => {
  it("cuts a file one byte past what an attachment may have, so the size check still refuses it with its message", () => {
    expect(MAX_FILE_BYTES).toBe(MAX_ATTACHMENT_BYTES + 1);
    expect(MAX_FILE_BYTES).toBeLessThan(MAX_BODY_BYTES);
  });
});

describe("uploads are checked by content, not by name", () => {
  it("knows PDF, Word 97–2003 and Word documents", () => {
    expect(detectDocumentType(Buffer.from("%PDF-1.7\n…"))?.ext).toBe("pdf");
    expect(detectDocumentType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))?.ext).toBe("doc");
    const docx = zipSync({ "[Content_Types].xml": Buffer.from("<Types/>"), "word/document.xml": Buffer.from("<w:document/>") }, { level: 0 });
    expect(detectDocumentType(docx)?.ext).toBe("docx");
  });

  it("refuses anything else, whatever it is called", () => {
    expect(detectDocumentType(Buffer.from("GIF89a"))).toBeNull();
    expect(detectDocumentType(Buffer.from("<html><script>"))).toBeNull();
    expect(detectDocumentType(zipSync({ "evil.exe": Buffer.from("MZ") }))).toBeNull();
    expect(detectDocumentType(new Uint8Array())).toBeNull();
  });
});

/** A PDF only its password opens, as banks send statements. */
async function protectedPdf(): Promise<Buffer<ArrayBuffer>> {
  const doc = new PDFKit({ userPassword: "1234", pdfVersion: "1.7" });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on("end", resolve));
  doc.text("Statement of account");
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

describe.each(dialects)("uploaded files in the database on %s", (dialect) => {
  let database: TestDatabase;
  let storage: AttachmentStorage;
  const alice = randomUUID();
  const pdf = (size: number) => {
    const noise = randomBytes(size);
    return readablePdf(size, (i) => noise[i]!);
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, alice, "alice@example.org");
    storage = storageFromConfig({}, database.db);
  });
  afterAll(() => database?.drop());

  it("keeps an upload's bytes in the database, for its owner", async () => {
    const bytes = pdf(200_000);
    const stored = await storeAttachment({ userId: alice, interviewId: null }, new File([bytes], "lease.pdf"), storage, database.db);
    if (!stored.ok) throw new Error(stored.message);
    const found = await findAttachment(alice, stored.id, database.db);
    expect(found).toMatchObject({ file_name: "lease.pdf", size: bytes.length, storage_key: `${alice}/${stored.id}.pdf` });
    expect((await storage.get(found!.storage_key))!.equals(bytes)).toBe(true);
  });

  it("refuses a file it cannot read whole, with what to do, and keeps nothing of it", async () => {
    const before = await database.db.selectFrom("attachments").select("id").execute();
    const upload = (bytes: Uint8Array<ArrayBuffer>, name: string) => storeAttachment({ userId: alice, interviewId: null }, new File([bytes], name), storage, database.db);
    const whole = pdf(20_000);
    expect(await upload(whole.subarray(0, 10_000), "statement.pdf")).toEqual({ ok: false, message: uploadCheckMessages.pdfIncomplete });
    expect(await upload(await protectedPdf(), "statement.pdf")).toEqual({ ok: false, message: "This PDF is password-protected. Please upload a copy without a password." });
    expect(await upload(Buffer.from("%PDF-1.4\n% a letter, renamed\n%%EOF\n"), "statement.pdf")).toEqual({ ok: false, message: uploadCheckMessages.pdfUnreadable });
    expect(await upload(Buffer.from("Dear landlord,\nI am writing about the deposit.\n"), "letter.pdf")).toEqual({ ok: false, message: "Only PDF or Word files can be uploaded." });
    const corrupt = zipSync({ "[Content_Types].xml": Buffer.from("<Types/>"), "word/document.xml": Buffer.from("<w:document><w:body>") });
    expect(await upload(corrupt, "lease.docx")).toEqual({ ok: false, message: uploadCheckMessages.wordUnreadable });
    expect(await database.db.selectFrom("attachments").select("id").execute()).toEqual(before);
  });

  it("keeps no row when the bytes cannot be stored, and says so", async () => {
    const failing: AttachmentStorage = { ...storage, put: async () => Promise.reject(new Error("bucket unreachable")) };
    const before = await database.db.selectFrom("attachments").select("id").execute();
    const log = captureLogs();
    try {
      expect(await storeAttachment({ userId: alice, interviewId: null }, new File([pdf(10)], "a.pdf"), failing, database.db)).toEqual({
        ok: false,
        message: "Your file could not be saved just now. Please try again in a few minutes.",
      });
      expect(log.lines()).toMatchObject([{ level: "error", component: "attachments", err: { message: "bucket unreachable" } }]);
    } finally {
      log.restore();
    }
    expect(await database.db.selectFrom("attachments").select("id").execute()).toEqual(before);
  });

  it("moves the files of an older deployment from DATA_DIR/attachments into the storage, finishing a move cut short", async () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), "lsh-move-")), "attachments");
    try {
      const files = new Map<string, Buffer>();
      for (let i = 0; i < 3; i++) {
        const id = randomUUID();
        const key = attachmentStorageKey(alice, id, "pdf");
        files.set(key, pdf(50_000));
        await database.db
          .insertInto("attachments")
          .values({ id, user_id: alice, interview_id: null, file_name: `${i}.pdf`, content_type: "application/pdf", size: 1, storage_key: key, created_at: new Date().toISOString() })
          .execute();
      }
      // A file whose row went with its interview or account: deleted, not moved.
      const orphan = attachmentStorageKey(alice, randomUUID(), "pdf");
      for (const [key, bytes] of [...files, [orphan, pdf(10)] as const]) {
        await mkdir(path.dirname(path.join(root, key)), { recursive: true });
        await writeFile(path.join(root, key), bytes);
      }
      const onDisk = (key: string) => existsSync(path.join(root, key));

      // The process dies while storing the second file: the first is moved, the rest stay on disk.
      let puts = 0;
      const dying: AttachmentStorage = {
        ...storage,
        put: async (key, bytes) => {
          if (++puts === 2) throw new Error("killed");
          await storage.put(key, bytes);
        },
      };
      await expect(moveFolderIntoStorage(root, dying, database.db)).rejects.toThrow("killed");
      const left = [...files.keys()].filter(onDisk);
      expect(left.length).toBeGreaterThanOrEqual(2);
      expect(left.length).toBeLessThanOrEqual(files.size);

      const second = await moveFolderIntoStorage(root, storage, database.db);
      expect(second.moved).toBe(left.length);
      expect(existsSync(root)).toBe(false);
      for (const [key, bytes] of files) expect((await storage.get(key))!.equals(bytes), key).toBe(true);
      expect(await storage.get(orphan)).toBeNull();

      expect(await moveFolderIntoStorage(root, storage, database.db)).toEqual({ moved: 0, deleted: 0 });
    } finally {
      rmSync(path.dirname(root), { recursive: true, force: true });
    }
  });
});
