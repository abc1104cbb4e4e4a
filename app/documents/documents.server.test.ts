import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { unzipSync } from "fflate";
import { PDFDocument } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import type { Answers, AnswerValue, VarType } from "~/a2j";
import { storeAttachment } from "~/interviews/attachments.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { importGuide, importSeedGuides } from "~/guides/import.server";
import { sealInterviewColumns } from "~/interviews/interviews.server";
import { extractText } from "unpdf";
import { attachmentNamePlace } from "~/interviews/attachments.server";
import { openBytes, sealBytes, sealText } from "~/security/data-encryption.server";
import { attachmentStorageKey } from "~/storage/attachment-storage.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { englishNotIncludedWords } from "./assemble.server";
import { contentDisposition, documentFileName, documentMessages, interviewDocument, notIncludedWordsIn } from "./documents.server";
import { docx, docxText } from "./test-docx";

function memoryStorage(): AttachmentStorage {
  const files = new Map<string, Buffer>();
  return {
    async put(key, bytes) {
      files.set(key, Buffer.from(bytes));
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async delete(key) {
      files.delete(key);
    },
  };
}

const v = (name: string, type: VarType, value: AnswerValue): Answers => ({ [name.toLowerCase()]: { name, type, repeating: false, values: [null, value] } });

describe.each(dialects)("interview documents on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = randomUUID();
  const bob = randomUUID();
  const storage = memoryStorage();

  // Completed late on 25 November 2026 in London, early on the 26th in Sydney.
  const completedAt = "2026-11-25T22:30:00.000Z";

  async function interview(id: string, status: "Draft" | "Completed", answers: Answers, issueId = 2) {
    const now = completedAt;
    await handle.db
      .insertInto("interviews")
      .values({ id, user_id: alice, issue_id: issueId, status, ...sealInterviewColumns(id, { vars: JSON.stringify(answers), engine_state: '{"history":[]}' }), created_at: now, updated_at: now })
      .execute();
  }

  const job: Answers = { ...v("User name full TE", "Text", "Zoë Ångström"), ...v("Have job TF", "TF", true), ...v("Company name TE", "Text", "ACME") };

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: false }, handle.db);
    await insertTestUser(handle.db, alice, "alice@example.org");
    await insertTestUser(handle.db, bob, "bob@example.org");
    await interview("done", "Completed", job);
    await interview("draft", "Draft", job);
    await interview("nothing", "Completed", { ...v("Have job TF", "TF", false) });
  });
  afterAll(() => handle?.drop());

  it("assembles the owner's Completed interview into a PDF named after it", async () => {
    const doc = await interviewDocument(alice, "done", { db: handle.db, storage });
    expect(doc).toMatchObject({ kind: "file", contentType: "application/pdf", fileName: "Criminal records and spent convictions – Employment Verification – 25 November 2026.pdf" });
    if (doc.kind !== "file") return;
    expect(Buffer.from(doc.bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    expect((await PDFDocument.load(doc.bytes)).getPageCount()).toBe(1);
  });

  it("has nothing for a Draft, another user or an unknown id", async () => {
    expect(await interviewDocument(alice, "draft", { db: handle.db, storage })).toEqual({ kind: "not-found" });
    expect(await interviewDocument(bob, "done", { db: handle.db, storage })).toEqual({ kind: "not-found" });
    expect(await interviewDocument(alice, "nope", { db: handle.db, storage })).toEqual({ kind: "not-found" });
  });

  it("says so when the answers call for no document", async () => {
    expect(await interviewDocument(alice, "nothing", { db: handle.db, storage })).toEqual({ kind: "unavailable", message: documentMessages.empty });
  });

  it("appends the user's PDF attachments", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    pdf.addPage();
    const file = new File([new Uint8Array(await pdf.save())], "proof.pdf", { type: "application/pdf" });
    const stored = await storeAttachment({ userId: alice, interviewId: null }, file, storage, handle.db);
    if (!stored.ok) throw new Error(stored.message);
    await interview("with-file", "Completed", { ...job, ...v("Proof AT", "Attachment", stored.path) });
    const doc = await interviewDocument(alice, "with-file", { db: handle.db, storage });
    if (doc.kind !== "file") throw new Error(doc.kind);
    expect((await PDFDocument.load(doc.bytes)).getPageCount()).toBe(3);
  });

  it("an attachment that cannot be read, or whose file is gone, is named on a last page; the rest is delivered", async () => {
    // Sealed at rest like every upload, and planted past the upload check (a file kept before it existed).
    const sealed = storageFromConfig({}, handle.db, { seal: sealBytes, open: openBytes });
    const good = await PDFDocument.create();
    good.addPage().drawText("PROOF OF INCOME");
    const stored = await storeAttachment({ userId: alice, interviewId: null }, new File([new Uint8Array(await good.save())], "income.pdf"), sealed, handle.db);
    if (!stored.ok) throw new Error(stored.message);
    const plant = async (name: string, bytes: Uint8Array | null) => {
      const id = randomUUID();
      const key = attachmentStorageKey(alice, id, "pdf");
      await handle.db
        .insertInto("attachments")
        .values({ id, user_id: alice, interview_id: null, file_name: sealText(name, attachmentNamePlace(id)), content_type: "application/pdf", size: bytes?.length ?? 0, storage_key: key, created_at: new Date().toISOString() })
        .execute();
      if (bytes) await sealed.put(key, bytes);
      return `attachments/${id}.pdf`;
    };
    const unreadable = await plant("Bank statement (protected).pdf", new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<< /Type /Catalog\n%%EOF\n"));
    const gone = await plant("Payslip.pdf", null);
    await interview("with-broken-file", "Completed", { ...job, ...v("Statement AT", "Attachment", unreadable), ...v("Income AT", "Attachment", stored.path), ...v("Payslip AT", "Attachment", gone) });
    const doc = await interviewDocument(alice, "with-broken-file", { db: handle.db, storage: sealed });
    if (doc.kind !== "file") throw new Error(doc.kind);
    expect(doc).toMatchObject({ contentType: "application/pdf", fileName: "Criminal records and spent convictions – Employment Verification – 25 November 2026.pdf" });
    const { text } = await extractText(new Uint8Array(doc.bytes), { mergePages: false });
    const shown = (text as string[]).map((t) => t.replace(/\s+/g, " ").trim());
    expect(shown).toHaveLength(3);
    expect(shown[1]).toBe("PROOF OF INCOME");
    expect(shown[2]).toContain("These files could not be included: • Bank statement (protected).pdf • Payslip.pdf");
  });

  it("Word attachments come beside the PDF in a zip; a Word file alone comes as itself", async () => {
    const lease = docx(["Lease"]);
    const store = async (name: string) => {
      const stored = await storeAttachment({ userId: alice, interviewId: null }, new File([new Uint8Array(lease)], name), storage, handle.db);
      if (!stored.ok) throw new Error(stored.message);
      return stored.path;
    };
    const [a, b] = [await store("Lease.docx"), await store("Lease.docx")];
    await interview("with-word", "Completed", { ...job, ...v("Lease AT", "Attachment", a), ...v("Other AT", "Attachment", b) });
    const zip = await interviewDocument(alice, "with-word", { db: handle.db, storage });
    expect(zip).toMatchObject({ kind: "file", contentType: "application/zip", fileName: "Criminal records and spent convictions – Employment Verification – 25 November 2026.zip" });
    if (zip.kind !== "file") return;
    const entries = unzipSync(zip.bytes);
    const pdfName = "Criminal records and spent convictions – Employment Verification – 25 November 2026.pdf";
    expect(Object.keys(entries)).toEqual([pdfName, "Lease.docx", "Lease (2).docx"]);
    expect(Buffer.from(entries[pdfName]!.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(entries["Lease.docx"]).toEqual(new Uint8Array(lease));

    await interview("word-only", "Completed", { ...v("Have job TF", "TF", false), ...v("Lease AT", "Attachment", a) });
    expect(await interviewDocument(alice, "word-only", { db: handle.db, storage })).toMatchObject({
      kind: "file",
      contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      fileName: "Criminal records and spent convictions – documents – 25 November 2026.docx",
    });
  });

  it("a guide's Word template comes with its PDF in a zip", async () => {
    const files = new Map<string, Uint8Array>([
      ["Guide.json", await readFile("db/seed/guides/letter-of-demand/Guide.json")],
      ["templates.json", Buffer.from('{"templateIds":[1,2]}')],
      ["template1.json", Buffer.from(JSON.stringify({ title: "Letter", rootNode: { tag: "a2j-template", children: [{ tag: "a2j-rich-text", state: { userContent: "<p>Hello</p>" } }] } }))],
      ["template2.docx", docx(["For {User full name TE}"])],
    ]);
    await importGuide("word-test", files, handle.db);
    await handle.db.updateTable("issues").set({ guide_id: "word-test" }).where("id", "=", 9).execute();
    await interview("word-guide", "Completed", v("User full name TE", "Text", "Tan Wei Ling"), 9);
    const zip = await interviewDocument(alice, "word-guide", { db: handle.db, storage });
    if (zip.kind !== "file") throw new Error(zip.kind);
    expect(zip).toMatchObject({ contentType: "application/zip", fileName: "Small claims for money or goods – Letter – 25 November 2026.zip" });
    const entries = unzipSync(zip.bytes);
    expect(Object.keys(entries)).toEqual(["Small claims for money or goods – Letter – 25 November 2026.pdf", "Small claims for money or goods – Letter – 25 November 2026 2.docx"]);
    expect(docxText(entries["Small claims for money or goods – Letter – 25 November 2026 2.docx"]!)).toEqual(["For Tan Wei Ling"]);
  });

  it("a broken template is a message, not an exception", async () => {
    await handle.db.updateTable("guide_version_files").set({ content: Buffer.from("{not json").toString("base64") }).where("guide_id", "=", "re-entry-navigator").where("path", "=", "template3.json").execute();
    expect(await interviewDocument(alice, "done", { db: handle.db, storage })).toEqual({ kind: "unavailable", message: documentMessages.failed });
  });
});

describe("content disposition", () => {
  it("quotes a safe ASCII name and gives the UTF-8 one in RFC 5987's characters", () => {
    expect(contentDisposition("My document 1.pdf")).toBe(`attachment; filename="My document 1.pdf"; filename*=UTF-8''My%20document%201.pdf`);
    expect(contentDisposition('Zoë "x".pdf')).toBe(`attachment; filename="Zoe _x_.pdf"; filename*=UTF-8''Zo%C3%AB%20%22x%22.pdf`);
    expect(contentDisposition("Divorce and separation – Summary – 25 November 2026.pdf")).toBe(
      `attachment; filename="Divorce and separation - Summary - 25 November 2026.pdf"; filename*=UTF-8''Divorce%20and%20separation%20%E2%80%93%20Summary%20%E2%80%93%2025%20November%202026.pdf`,
    );
    // ' ( ) * are not RFC 5987 attr-chars: a name with them still parses.
    expect(contentDisposition("Ana's lease (2)*.pdf")).toContain("filename*=UTF-8''Ana%27s%20lease%20%282%29%2A.pdf");
    expect(contentDisposition("Σύνοψη.pdf")).toContain('filename="______.pdf"');
  });
});

describe("a document's file name", () => {
  const base = { what: "Summary of my situation", madeAt: "2026-11-25T22:30:00.000Z", dates: { order: "DMY", style: "numeric" } as const };
  it("says the issue, what the document is and the day it was completed, in the organisation's time zone", () => {
    expect(documentFileName({ ...base, issue: { name: "Divorce and separation", sensitive: false }, timeZone: "UTC" })).toBe(
      "Divorce and separation – Summary of my situation – 25 November 2026",
    );
    expect(documentFileName({ ...base, issue: { name: "Divorce and separation", sensitive: false }, timeZone: "Australia/Sydney" })).toBe(
      "Divorce and separation – Summary of my situation – 26 November 2026",
    );
    // A2J's month-first order for a country without its own.
    expect(documentFileName({ ...base, dates: { order: "MDY", style: "numeric" }, issue: { name: "Eviction", sensitive: false }, timeZone: "UTC" })).toBe(
      "Eviction – Summary of my situation – November 25, 2026",
    );
  });

  it("leaves out a sensitive issue's name, and characters no file name may hold", () => {
    expect(documentFileName({ ...base, issue: { name: "Family violence protection orders", sensitive: true }, timeZone: "UTC" })).toBe(
      "Summary of my situation – 25 November 2026",
    );
    expect(documentFileName({ ...base, what: 'Rent/bond: "A" <b>?', issue: { name: "Tenancy\\disputes", sensitive: false }, timeZone: "UTC" })).toBe(
      "Tenancy-disputes – Rent-bond- -A- -b- – 25 November 2026",
    );
  });
});

describe("the last page's words", () => {
  it("are in the document's language where its font draws them, else in English", () => {
    expect(notIncludedWordsIn("en")).toEqual(englishNotIncludedWords);
    expect(notIncludedWordsIn("fr")).toEqual({
      title: "Fichiers non inclus",
      heading: "Ces fichiers n'ont pas pu être inclus :",
      advice: "Ils n'ont pas pu être lus. Téléversez une nouvelle copie de chacun dans votre entrevue, ou remettez-les séparément.",
    });
    expect(notIncludedWordsIn("vi").title).toBe("Các tệp không được đưa vào");
    // No font of the document draws Chinese or Tamil yet, nor shapes Arabic; a language the product lacks too.
    for (const lang of ["zh-Hans", "ta", "ar", "de"]) expect(notIncludedWordsIn(lang)).toEqual(englishNotIncludedWords);
  });
});
