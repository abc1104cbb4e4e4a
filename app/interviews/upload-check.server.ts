/**
 * An upload is read whole before it is kept (issue 16): a PDF must open and its pages copy into a new
 * document exactly as assembly will copy them, a Word file must be a document Word can open. What fails is
 * refused at once with what to do, instead of breaking the person's download later.
 *
 * The reading (app/interviews/read-upload.server.ts) runs in a worker thread that is ended after UPLOAD_CHECK_MS:
 * pdf-lib's parser has no limits of its own, and a hostile file (millions of tiny objects, a deflate bomb in a
 * docx) must not hold the server's event loop. At most CONCURRENT_CHECKS workers run at once; other uploads wait
 * their turn.
 */
import { Worker } from "node:worker_threads";
import type { UploadKind, UploadProblem } from "./read-upload.server";

export const uploadCheckMessages: Record<UploadProblem, string> = {
  pdfProtected: "This PDF is password-protected. Please upload a copy without a password.",
  pdfIncomplete: "This PDF is incomplete: it may not have finished downloading or saving. Please get the file again and upload the new copy.",
  pdfUnreadable: "This PDF is damaged and cannot be opened. Please save or print it to PDF again and upload the new copy.",
  wordProtected: "This Word file is password-protected. Please upload a copy without a password.",
  wordUnreadable: "This Word file is damaged and cannot be opened. Please open it in Word, save it again and upload the new copy.",
  tooComplex: "This file took too long to read. Please save or print it to PDF again and upload the new copy.",
};

export type UploadCheck = { ok: true } | { ok: false; message: string };

/** How long one file may take to read. */
export const UPLOAD_CHECK_MS = 10_000;
const CONCURRENT_CHECKS = 2;

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
 * Runs a worker module on one file, in turn with the other readings: it answers with one message, or is ended
 * after timeoutMs (`timeout`); a crash or running out of memory gives `crash`. Also used to extract a file's text
 * (app/sources/extract.server.ts). The module is given as `new URL("./name.worker.ts", import.meta.url)` written
 * out where it is called: the build turns that into the emitted JavaScript's address (vite.workers.ts).
 */
export async function readInWorker<T>(
  module: URL,
  workerData: Record<string, unknown>,
  outcomes: { timeout: T; crash: T },
  timeoutMs = UPLOAD_CHECK_MS,
): Promise<T> {
  const release = await turn();
  try {
    return await new Promise<T>((resolve) => {
      const worker = new Worker(module, { workerData, resourceLimits: { maxOldGenerationSizeMb: 256 } });
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
export async function checkUpload(kind: UploadKind, bytes: Uint8Array, timeoutMs = UPLOAD_CHECK_MS): Promise<UploadCheck> {
  // Out of memory or a crash while reading: the file is what cannot be read.
  const unreadable = kind === "pdf" ? "pdfUnreadable" : "wordUnreadable";
  const problem = await readInWorker<UploadProblem | null>(
    new URL("./upload-check.worker.ts", import.meta.url),
    { kind, bytes },
    { timeout: "tooComplex", crash: unreadable },
    timeoutMs,
  );
  return problem === null ? { ok: true } : { ok: false, message: uploadCheckMessages[problem] };
}
