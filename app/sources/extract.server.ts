/**
 * The text of a document: markdown or plain text as it is, PDF through pdf.js (unpdf), Word (.docx) through mammoth
 * and html-to-text (app/sources/document-text.server.ts). The file is first read whole as an upload is
 * (app/interviews/upload-check.server.ts: protected, damaged, a deflate bomb), then its text is extracted in a
 * worker thread with the same time and memory limits, so a hostile file cannot hold the server. Used for the
 * organisation's sources and for a letter a person uploads.
 */
import { detectDocumentType } from "~/interviews/attachments.server";
import { checkUpload, readInWorker, UPLOAD_CHECK_MS, uploadCheckMessages } from "~/interviews/upload-check.server";
import type { TextReading } from "./document-text.server";

export type ExtractionFailure = "no-text" | "unreadable" | "protected" | "too-complex" | "wrong-type" | "old-word";

export type ExtractedText =
  /** pages: the text of each page of a PDF (text is them all, a blank line between). */
  | { ok: true; text: string; kind: "markdown" | "pdf" | "docx"; pages?: string[] }
  | { ok: false; reason: ExtractionFailure; message: string };

export const extractionMessages: Record<ExtractionFailure, string> = {
  "no-text": "This file has no text we can read. If it is a scan or a photo, please upload a copy with its text (for example saved from the original, or after text recognition).",
  unreadable: "This file is damaged and cannot be read. Please save it again and upload the new copy.",
  protected: "This file is password-protected. Please upload a copy without a password.",
  "too-complex": uploadCheckMessages.tooComplex,
  "wrong-type": "Only PDF, Word (.docx), markdown or plain text files can be used.",
  "old-word": "This is an older Word file (.doc). Please save it as .docx or PDF and upload that.",
};

const MARKDOWN_TYPES = /^text\/(markdown|x-markdown|plain)$/;
/** Control characters a PDF's or Word file's text may carry (PostgreSQL refuses U+0000 in text): dropped. */
const withoutControls = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "");
const usable = (text: string) => /[\p{L}\p{N}]/u.test(text);

/**
 * The text of a file, decided by its bytes (a PDF or a .docx) or else by its declared type (markdown or plain text,
 * which must be UTF-8). Each reading of the file (the check, then the extraction) may take up to timeoutMs. Never throws.
 */
export async function extractDocumentText(bytes: Uint8Array, contentType: string, timeoutMs = UPLOAD_CHECK_MS): Promise<ExtractedText> {
  const fail = (reason: ExtractionFailure): ExtractedText => ({ ok: false, reason, message: extractionMessages[reason] });
  const document = detectDocumentType(bytes);
  if (!document) {
    if (!MARKDOWN_TYPES.test(contentType.split(";")[0]!.trim().toLowerCase())) return fail("wrong-type");
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    } catch {
      return fail("unreadable");
    }
    // A binary file sent as text: control characters other than tabs and line ends.
    if (/[\u0000-\u0008\u000E-\u001F]/.test(text)) return fail("unreadable");
    return usable(text) ? { ok: true, text: text.trim(), kind: "markdown" } : fail("no-text");
  }
  if (document.ext === "doc") return fail("old-word");
  const checked = await checkUpload(document.ext, bytes, timeoutMs);
  if (!checked.ok) {
    const byMessage: [string, ExtractionFailure][] = [
      [uploadCheckMessages.pdfProtected, "protected"],
      [uploadCheckMessages.wordProtected, "protected"],
      [uploadCheckMessages.tooComplex, "too-complex"],
    ];
    const reason = byMessage.find(([message]) => message === checked.message)?.[1];
    return reason ? fail(reason) : { ok: false, reason: "unreadable", message: checked.message };
  }
  const read = await readInWorker<TextReading | { problem: "too-complex" }>(
    new URL("./extract-text.worker.ts", import.meta.url),
    { kind: document.ext, bytes },
    { timeout: { problem: "too-complex" }, crash: { problem: "unreadable" } },
    timeoutMs,
  );
  if ("problem" in read) return fail(read.problem);
  if ("pages" in read) {
    const pages = read.pages.map((page) => withoutControls(page).trim());
    return pages.some(usable) ? { ok: true, text: pages.join("\n\n"), kind: "pdf", pages } : fail("no-text");
  }
  const text = withoutControls(read.text).trim();
  return usable(text) ? { ok: true, text, kind: "docx" } : fail("no-text");
}
