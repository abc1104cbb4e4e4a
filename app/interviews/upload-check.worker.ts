/**
 * The upload check's worker thread (app/interviews/upload-check.server.ts starts it): reads one file whole and
 * answers with its problem, or null. A module of its own so that the build emits it beside the server
 * (vite.workers.ts); it only wires the thread to app/interviews/read-upload.server.ts, which the tests call directly.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readUpload, type UploadKind } from "./read-upload.server";

const { kind, bytes } = workerData as { kind: UploadKind; bytes: Uint8Array };
parentPort!.postMessage(await readUpload(kind, bytes));
