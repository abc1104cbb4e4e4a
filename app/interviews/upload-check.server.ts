/**
 * An upload is read whole before it is kept (issue 16): a PDF must open and its pages copy into a new
 * document exactly as assembly will copy them, a Word file must be a document Word can open. What fails is
 * refused at once with what to do, instead of breaking the person's download later.
 *
 * The reading runs in a worker thread that is ended after UPLOAD_CHECK_MS: pdf-lib's parser has no limits
 * of its own, and a hostile file (millions of tiny objects, a deflate bomb in a docx) must not hold the
 * server's event loop. At most CONCURRENT_CHECKS workers run at once; other uploads wait their turn.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export const uploadCheckMessages = {
  pdfProtected: "This PDF is password-protected. Please upload a copy without a password.",
  pdfIncomplete: "This PDF is incomplete: it may not have finished downloading or saving. Please get the file again and upload the new copy.",
  pdfUnreadable: "This PDF is damaged and cannot be opened. Please save or print it to PDF again and upload the new copy.",
  wordProtected: "This Word file is password-protected. Please upload a copy without a password.",
  wordUnreadable: "This Word file is damaged and cannot be opened. Please open it in Word, save it again and upload the new copy.",
  tooComplex: "This file took too long to read. Please save or print it to PDF again and upload the new copy.",
} as const;

export type UploadCheck = { ok: true } | { ok: false; message: string };

/** How long one file may take to read. */
export const UPLOAD_CHECK_MS = 10_000;
const CONCURRENT_CHECKS = 2;
/** What a docx may unpack to: a 5 MB upload of ordinary documents stays far under it. */
const MAX_DOCX_UNPACKED_BYTES = 100 * 1024 * 1024;

const require = createRequire(import.meta.url);

// Plain CommonJS run by the worker (eval), so that it needs no build step of its own; the packages are
// resolved by the caller and passed in.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { kind, bytes, pdfLib, fflate, maxUnpacked } = workerData;
const done = (result) => parentPort.postMessage(result);

async function checkPdf() {
  // Readers look for the end-of-file marker in the last 1024 bytes (PDF 1.7, implementation note 18): a file
  // cut short has none, and pdf-lib would otherwise read what there is and merge a broken page.
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString("latin1");
  if (!tail.includes("%%EOF")) return "pdfIncomplete";
  const { PDFDocument } = require(pdfLib);
  let source;
  try {
    source = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    return /encrypted/i.test(String(error && error.message)) ? "pdfProtected" : "pdfUnreadable";
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

function utf16(text) {
  return Buffer.from(text, "utf16le");
}

function checkDoc() {
  const file = Buffer.from(bytes);
  // An encrypted .docx is kept in a compound file, as an "EncryptedPackage" stream.
  if (file.includes(utf16("EncryptedPackage"))) return "wordProtected";
  const byteOrder = file.readUInt16LE(28);
  const sectorShift = file.readUInt16LE(30);
  if (file.length < 1536 || byteOrder !== 0xfffe || (sectorShift !== 9 && sectorShift !== 12)) return "wordUnreadable";
  if (!file.includes(utf16("WordDocument"))) return "wordUnreadable";
  return null;
}

function checkDocx() {
  const { unzipSync } = require(fflate);
  let entries;
  try {
    let unpacked = 0;
    entries = unzipSync(bytes, {
      filter: (entry) => {
        unpacked += entry.originalSize;
        if (unpacked > maxUnpacked) throw new Error("too large unpacked");
        return true;
      },
    });
  } catch {
    return "wordUnreadable";
  }
  const main = entries["word/document.xml"];
  if (!entries["[Content_Types].xml"] || !main) return "wordUnreadable";
  let xml;
  try {
    xml = new TextDecoder("utf-8", { fatal: true }).decode(main);
  } catch {
    return "wordUnreadable";
  }
  if (!/<w:body[\\s>]/.test(xml) || !/<\\/w:document>\\s*$/.test(xml)) return "wordUnreadable";
  return null;
}

(async () => {
  try {
    done(kind === "pdf" ? await checkPdf() : kind === "doc" ? checkDoc() : checkDocx());
  } catch {
    done(kind === "pdf" ? "pdfUnreadable" : "wordUnreadable");
  }
})();
`;

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= CONCURRENT_CHECKS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/**
 * Runs a CommonJS worker source (eval) on one file, in turn with the other readings: it answers with one message,
 * or is ended after timeoutMs (`timeout`); a crash or running out of memory gives `crash`. Also used to extract a
 * file's text (app/sources/extract.server.ts).
 */
export async function readInWorker<T>(
  source: string,
  workerData: Record<string, unknown>,
  outcomes: { timeout: T; crash: T },
  timeoutMs = UPLOAD_CHECK_MS,
): Promise<T> {
  const release = await turn();
  try {
    return await new Promise<T>((resolve) => {
      const worker = new Worker(source, { eval: true, workerData, resourceLimits: { maxOldGenerationSizeMb: 256 } });
      const timer = setTimeout(() => {
        void worker.terminate();
        resolve(outcomes.timeout);
      }, timeoutMs);
      const finish = (result: T) => {
        clearTimeout(timer);
        void worker.terminate();
        resolve(result);
      };
      worker.once("message", finish);
      worker.once("error", () => finish(outcomes.crash));
      worker.once("exit", () => finish(outcomes.crash));
    });
  } finally {
    release();
  }
}

/** Reads an upload of the given kind (from its first bytes) whole; refuses it with what to do when it cannot be used. */
export async function checkUpload(kind: "pdf" | "doc" | "docx", bytes: Uint8Array, timeoutMs = UPLOAD_CHECK_MS): Promise<UploadCheck> {
  // Out of memory or a crash while reading: the file is what cannot be read.
  const unreadable = kind === "pdf" ? "pdfUnreadable" : "wordUnreadable";
  const problem = await readInWorker<keyof typeof uploadCheckMessages | null>(
    WORKER_SOURCE,
    { kind, bytes, pdfLib: require.resolve("pdf-lib"), fflate: require.resolve("fflate"), maxUnpacked: MAX_DOCX_UNPACKED_BYTES },
    { timeout: "tooComplex", crash: unreadable },
    timeoutMs,
  );
  return problem === null ? { ok: true } : { ok: false, message: uploadCheckMessages[problem] };
}
