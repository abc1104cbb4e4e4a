/**
 * An assembly endpoint compatible with A2J DAT's `POST /api/assemble` (docs/a2j-formats.md): the body (form or JSON)
 * carries `guideId`, `answers` (the answers as a JSON string, A2J's JSON form), optionally `guideTitle` (the
 * file name) and `templateId` (that template alone, as Author's "test assemble"). The answer is the
 * document with its content type and an inline disposition, or `{ ok: false, error }` with 400 (bad
 * request), 404 (no such guide) or 422 (nothing to assemble, or a template that cannot be).
 * `fileDataUrl` (DAT's guide-by-path) is not supported: guides live in the database.
 */
import type { Db } from "../../db/database";
import { answersFromJSON } from "~/a2j";
import { database } from "~/db.server";
import { getGuide, getGuideFile } from "~/guides/guides.server";
import { assembleDocument } from "./assemble.server";
import { zipFiles } from "./documents.server";
import { logger } from "~/observability/log.server";
import { countDocumentFailed, countDocumentMade } from "~/observability/metrics.server";

const log = logger("documents");

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** DAT's file name: the guide title, kebab-cased and stripped to safe characters; "document" without one. */
export function datFileName(title: string | undefined, ext: string): string {
  const stem = (title ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);
  return `${stem || "document"}.${ext}`;
}

function error(status: 400 | 404 | 422, message: string): Response {
  return Response.json({ ok: false, error: message }, { status });
}

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body: unknown = await request.json();
      return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    }
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      const form = await request.formData();
      return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
    }
  } catch {
    return null;
  }
  return null;
}

/** Handles a DAT-style assembly request. The caller has checked who may ask. */
export async function datAssemble(request: Request, db: Db = database()): Promise<Response> {
  const body = await readBody(request);
  if (!body) return error(400, "Send a form or a JSON object with guideId and answers.");
  const guideId = typeof body.guideId === "string" ? body.guideId.trim() : "";
  if (!guideId) return error(400, "guideId is required (fileDataUrl is not supported).");
  if (typeof body.answers !== "string" || !body.answers.trim()) return error(400, "answers is required: the answers as a JSON string.");
  const guide = await getGuide(guideId, db);
  if (!guide) return error(404, `There is no guide ${guideId}.`);
  const answers = answersFromJSON(body.answers, guide);
  if (!answers.ok) return error(400, `answers: ${answers.error}`);
  let templateId: number | undefined;
  if (body.templateId !== undefined && body.templateId !== "") {
    templateId = Number(body.templateId);
    if (!Number.isInteger(templateId) || templateId < 0) return error(400, "templateId must be a whole number.");
  }
  const title = typeof body.guideTitle === "string" && body.guideTitle.trim() ? body.guideTitle.trim() : undefined;

  const result = await assembleDocument({
    title: title ?? (guide.title || "Document"),
    lang: /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(guide.language) ? guide.language : "en",
    answers: answers.value,
    readFile: async (file) => {
      const f = await getGuideFile(guideId, file, db);
      return f ? new Uint8Array(f.bytes) : null;
    },
    templateId,
  });
  if (!result.ok) {
    countDocumentFailed(result.empty ? "empty" : "error");
    if (!result.empty) log.error(`assemble ${guideId}: ${result.reason}`);
    return error(422, result.empty ? "No template applies to these answers." : `The document could not be assembled: ${result.reason}`);
  }
  const files = [
    ...(result.pdf ? [{ name: datFileName(title, "pdf"), ext: "pdf", contentType: "application/pdf", bytes: result.pdf }] : []),
    ...result.word.map((w) => ({ name: datFileName(w.title || `${title ?? "document"} ${w.templateId}`, "docx"), ext: "docx", contentType: DOCX, bytes: w.bytes })),
  ];
  const single = files.length === 1 ? files[0]! : null;
  const bytes = single ? single.bytes : zipFiles(files);
  countDocumentMade(single ? (single.ext === "pdf" ? "pdf" : "docx") : "zip");
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": single ? single.contentType : "application/zip",
      "Content-Disposition": `inline; filename=${single ? single.name : datFileName(title, "zip")}`,
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "private, no-store",
    },
  });
}
