/**
 * Reading an uploaded file whole, as assembly will use it (decision 0025). Runs inside the upload check's worker
 * thread (app/interviews/upload-check.worker.ts), which is ended if it takes too long: pdf-lib's parser has no
 * limits of its own. Never throws: a file that cannot be read is a problem of the file.
 */
import { createRequire } from "node:module";
import type { PDFDocument as PdfDocument } from "@cantoo/pdf-lib";
import { unzipSync } from "fflate";

export type UploadKind = "pdf" | "doc" | "docx";
export type UploadProblem = "pdfProtected" | "pdfIncomplete" | "pdfUnreadable" | "wordProtected" | "wordUnreadable" | "tooComplex";

/** What a docx may unpack to: a 5 MB upload of ordinary documents stays far under it. */
export const MAX_DOCX_UNPACKED_BYTES = 100 * 1024 * 1024;

/** The problem that makes the file unusable, or null when it reads whole. */
export async function readUpload(kind: UploadKind, bytes: Uint8Array): Promise<UploadProblem | null> {
  try {
    return kind === "pdf" ? await readPdf(bytes) : kind === "doc" ? readDoc(bytes) : readDocx(bytes);
  } catch {
    return kind === "pdf" ? "pdfUnreadable" : "wordUnreadable";
  }
}

async function readPdf(bytes: Uint8Array): Promise<UploadProblem | null> {
  // Readers look for the end-of-file marker in the last 1024 bytes (PDF 1.7, implementation note 18): a file
  // cut short has none, and pdf-lib would otherwise read what there is and merge a broken page.
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString("latin1");
  if (!tail.includes("%%EOF")) return "pdfIncomplete";
  // Each check starts a fresh worker, so pdf-lib's start is paid per file: loaded only for a PDF, and from its
  // CommonJS build, which loads in about half the time of its ES modules (about 190 files) in a new thread.
  const { PDFDocument } = createRequire(import.meta.url)("@cantoo/pdf-lib") as typeof import("@cantoo/pdf-lib");
  let source: PdfDocument;
  try {
    source = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    return /encrypted/i.test(error instanceof Error ? error.message : String(error)) ? "pdfProtected" : "pdfUnreadable";
  }
  try {
    // What assembly does with it (app/documents/assemble.server.ts).
    const out = await PDFDocument.create();
    const pages = await out.copyPages(source, source.getPageIndices());
    if (!pages.length) return "pdfUnreadable";
    for (const page of pages) out.addPage(page);
    await out.save();
  } catch {
    return "pdfUnreadable";
  }
  return null;
}

const utf16 = (text: string) => Buffer.from(text, "utf16le");

/** A Word 97–2003 file: a compound file holding a WordDocument stream. */
function readDoc(bytes: Uint8Array): UploadProblem | null {
  const file = Buffer.from(bytes);
  // An encrypted .docx is kept in a compound file, as an "EncryptedPackage" stream.
  if (file.includes(utf16("EncryptedPackage"))) return "wordProtected";
  if (file.length < 1536) return "wordUnreadable";
  const byteOrder = file.readUInt16LE(28);
  const sectorShift = file.readUInt16LE(30);
  if (byteOrder !== 0xfffe || (sectorShift !== 9 && sectorShift !== 12)) return "wordUnreadable";
  if (!file.includes(utf16("WordDocument"))) return "wordUnreadable";
  return null;
}

/** A .docx: a zip of Word's parts, unpacked under a cap, whose main part is a whole document. */
function readDocx(bytes: Uint8Array): UploadProblem | null {
  let entries: Record<string, Uint8Array>;
  try {
    let unpacked = 0;
    entries = unzipSync(bytes, {
      filter: (entry) => {
        unpacked += entry.originalSize;
        if (unpacked > MAX_DOCX_UNPACKED_BYTES) throw new Error("too large unpacked");
        return true;
      },
    });
  } catch {
    return "wordUnreadable";
  }
  const main = entries["word/document.xml"];
  if (!entries["[Content_Types].xml"] || !main) return "wordUnreadable";
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true }).decode(main);
  } catch {
    return "wordUnreadable";
  }
  if (!/<w:body[\s>]/.test(xml) || !/<\/w:document>\s*$/.test(xml)) return "wordUnreadable";
  return null;
}
