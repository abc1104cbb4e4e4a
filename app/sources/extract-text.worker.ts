/**
 * The text extraction's worker thread (app/sources/extract.server.ts starts it): reads one PDF's or Word file's
 * text. A module of its own so that the build emits it beside the server (vite.workers.ts); it only wires the
 * thread to app/sources/document-text.server.ts, which the tests call directly.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readDocumentText } from "./document-text.server";

const { kind, bytes } = workerData as { kind: "pdf" | "docx"; bytes: Uint8Array };
parentPort!.postMessage(await readDocumentText(kind, bytes));
