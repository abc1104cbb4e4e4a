import { strToU8, zipSync } from "fflate";
import PDFKit from "pdfkit";
import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { readablePdf } from "../../tests/support/pdf";
import { docx } from "~/documents/test-docx";
import { checkUpload, uploadCheckMessages } from "./upload-check.server";

async function pdfkitPdf(options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const doc = new PDFKit({ ...options, info: { Title: "Bank statement" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => doc.on("end", resolve));
  doc.text("Statement of account");
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

describe("an upload is read whole before it is kept", () => {
  it("accepts PDFs that assembly can merge, written by hand, by pdf-lib and by pdfkit", async () => {
    const made = await PDFDocument.create();
    made.addPage();
    for (const bytes of [readablePdf(), readablePdf(200_000), await made.save(), await pdfkitPdf()]) {
      expect(await checkUpload("pdf", bytes)).toEqual({ ok: true });
    }
  });

  it("refuses a truncated PDF", async () => {
    const whole = await pdfkitPdf();
    expect(await checkUpload("pdf", whole.subarray(0, Math.floor(whole.length / 2)))).toEqual({ ok: false, message: uploadCheckMessages.pdfIncomplete });
  });

  it("refuses a password-protected PDF, saying to upload a copy without a password", async () => {
    expect(await checkUpload("pdf", await pdfkitPdf({ userPassword: "secret", pdfVersion: "1.7" }))).toEqual({
      ok: false,
      message: "This PDF is password-protected. Please upload a copy without a password.",
    });
  });

  it("refuses bytes that start like a PDF but are none", async () => {
    expect(await checkUpload("pdf", Buffer.from("%PDF-1.4\n% not really a PDF\n%%EOF\n"))).toEqual({ ok: false, message: uploadCheckMessages.pdfUnreadable });
    // A PDF whose page tree names an object that is not there.
    const dangling = Buffer.from(readablePdf().toString("latin1").replace("/Kids [3 0 R]", "/Kids [9 0 R]"), "latin1");
    expect(await checkUpload("pdf", dangling)).toEqual({ ok: false, message: uploadCheckMessages.pdfUnreadable });
  });

  it("accepts a Word document and refuses a corrupt one", async () => {
    expect(await checkUpload("docx", docx(["Tenancy agreement"]))).toEqual({ ok: true });
    const refused = { ok: false, message: uploadCheckMessages.wordUnreadable };
    // The zip cut short.
    const whole = docx(["Tenancy agreement ".repeat(200)]);
    expect(await checkUpload("docx", whole.subarray(0, whole.length - 200))).toEqual(refused);
    // A zip of Word's parts whose main part is not a document.
    const noBody = zipSync({ "[Content_Types].xml": strToU8("<Types/>"), "word/document.xml": strToU8("<w:document>") });
    expect(await checkUpload("docx", noBody)).toEqual(refused);
    // Its main part missing.
    expect(await checkUpload("docx", zipSync({ "[Content_Types].xml": strToU8("<Types/>"), "word/styles.xml": strToU8("<w:styles/>") }))).toEqual(refused);
  });

  it("refuses a Word 97–2003 header with nothing behind it, and an encrypted Word file", async () => {
    const header = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
    expect(await checkUpload("doc", header)).toEqual({ ok: false, message: uploadCheckMessages.wordUnreadable });
    header.writeUInt16LE(0xfffe, 28);
    header.writeUInt16LE(9, 30);
    Buffer.from("EncryptedPackage", "utf16le").copy(header, 1024);
    expect(await checkUpload("doc", header)).toEqual({ ok: false, message: uploadCheckMessages.wordProtected });
    Buffer.from("WordDocument\0\0\0\0", "utf16le").copy(header, 1024);
    expect(await checkUpload("doc", header)).toEqual({ ok: true });
  });

  it("gives up on a file that takes too long to read, and the server goes on", async () => {
    expect(await checkUpload("pdf", readablePdf(3_000_000), 1)).toEqual({ ok: false, message: uploadCheckMessages.tooComplex });
    expect(await checkUpload("pdf", readablePdf())).toEqual({ ok: true });
  });
});
