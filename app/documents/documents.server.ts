/**
 * The document of a user's interview: the guide's templates (stored with the guide) assembled with the saved
 * answers, with the PDF attachments the user uploaded appended. Word templates and Word attachments cannot
 * join a PDF: they come as separate files, and several files come as one zip. Only the owner's Completed interviews have a
 * document. A document that cannot be made is a message for the person and a logged reason, never an
 * exception.
 */
import { zipSync } from "fflate";
import type { Db } from "../../db/database";
import { type Answers, A2J_DATES, daysInTimeZone, type DateLocale, formatDaysFor } from "~/a2j";
import { config } from "~/config.server";
import { getIssue } from "~/content/content.server";
import { database } from "~/db.server";
import { findAttachment } from "~/interviews/attachments.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { getGuideFile, getGuideVersion, interviewGuidePin } from "~/guides/guides.server";
import { loadInterview } from "~/interviews/interviews.server";
import { assembleDocument, englishNotIncludedWords, type NotIncludedWords } from "./assemble.server";
import { englishSignatureWords, type PlacedSignature, type SignatureMarker, type SignatureWords, signatureFills, signatureMarkers } from "./signatures";
import { primaryCoverage } from "./fonts.server";
import { findLanguage } from "~/i18n/languages";
import { messageRef, translator } from "~/i18n/translator";
import { logger } from "~/observability/log.server";
import { countDocumentFailed, countDocumentMade } from "~/observability/metrics.server";

export type InterviewDocument =
  /** `issueId` and `language`: the interview's issue and the language it ran in, which the download counts for (app/usage/). */
  | { kind: "file"; bytes: Uint8Array; contentType: string; fileName: string; issueId: number; language: string | null }
  | { kind: "not-found" }
  | { kind: "unavailable"; message: string };

const documentsLog = logger("documents");

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Why there is no document, for the person: references, put into words in the page's language (`t.message`). */
export const documentMessages = {
  empty: messageRef("account.document.empty"),
  failed: messageRef("account.document.failed"),
};

/** "attachments/<uuid>.<ext>" values of the answers' Attachment variables, in answer order. */
export function attachmentIds(answers: Answers): { id: string; ext: string }[] {
  const out: { id: string; ext: string }[] = [];
  for (const v of Object.values(answers)) {
    if (v.type !== "Attachment") continue;
    for (const value of v.values.slice(1)) {
      const m = typeof value === "string" ? /^attachments\/([0-9a-f-]{36})\.([a-z0-9]{1,5})$/i.exec(value) : null;
      if (m && !out.some((a) => a.id === m[1])) out.push({ id: m[1]!, ext: m[2]!.toLowerCase() });
    }
  }
  return out;
}

function log(interviewId: string, reason: string, level: "error" | "warn" = "error") {
  documentsLog[level](`interview ${interviewId}: ${reason}`);
}

/**
 * The last page's words in the document's language (the guide's), from the catalogue when it is one of the
 * product's languages and the document's font draws all of it; else English. Chinese, Tamil and Arabic need the
 * fonts and shaping of issue 27 first.
 */
export function notIncludedWordsIn(lang: string): NotIncludedWords {
  const language = findLanguage(lang);
  if (!language) return englishNotIncludedWords;
  const t = translator(language.code);
  const words = { title: t.t("documents.notIncluded.title"), heading: t.t("documents.notIncluded.heading"), advice: t.t("documents.notIncluded.advice") };
  const drawn = primaryCoverage("sans", "regular");
  const drawable = (text: string) => [...text].every((char) => drawn?.has(char.codePointAt(0)!) ?? false);
  return Object.values(words).every(drawable) ? words : englishNotIncludedWords;
}

/** The words signatures print with in the document's language (catalogue documents.signature.*), else English. */
export function signatureWordsIn(lang: string): SignatureWords {
  const language = findLanguage(lang);
  if (!language) return englishSignatureWords;
  const t = translator(language.code);
  const drawn = primaryCoverage("sans", "regular");
  const drawable = (text: string) => [...text].every((char) => drawn?.has(char.codePointAt(0)!) ?? false);
  const sample = [t.t("documents.signature.signedBy", { name: "", date: "" }), t.t("documents.signature.drawnAlt", { name: "" })];
  if (!sample.every(drawable)) return englishSignatureWords;
  return {
    signedBy: (name, date) => t.t("documents.signature.signedBy", { name, date }),
    drawnAlt: (name) => t.t("documents.signature.drawnAlt", { name }),
  };
}

/**
 * An interview's document in its parts, before they become one file: the PDF (text and PDF templates and the
 * PDF attachments), the filled Word templates, the person's Word attachments, and what names them.
 */
export type InterviewDocumentParts =
  | {
      kind: "parts";
      /** Null when no text or PDF template applies and nothing is attached as PDF. */
      pdf: Uint8Array | null;
      /** The filled Word templates, and the Word files the person attached. */
      files: { name: string; ext: string; contentType: string; bytes: Uint8Array }[];
      /** The file name without its extension ("Letter of demand – Letter – 27 November 2026"). */
      base: string;
      /** The guide's title (the PDF's title). */
      title: string;
      /** The document's language (the guide's). */
      lang: string;
      /** How the document writes dates (the country's order, in the document's language). */
      dates: DateLocale;
      /** The guide's signature places, the person's own first (app/documents/signatures.ts). */
      markers: SignatureMarker[];
      issueId: number;
      language: string | null;
    }
  | { kind: "not-found" }
  | { kind: "unavailable"; message: string };

export interface DocumentOptions {
  db?: Db;
  storage?: AttachmentStorage;
  /**
   * The signatures given (issue 30): each printed in its place, its date in its date's place. Without them
   * every signature place prints a line to sign on.
   */
  signatures?: PlacedSignature[];
  /** The zone a signature's day is read in (TIME_ZONE by default). */
  timeZone?: string;
}

/** The parts of a user's interview's document (its signatures in their places when given). */
export async function interviewDocumentParts(userId: string, interviewId: string, { db = database(), storage = attachmentStorage(), signatures = [], timeZone }: DocumentOptions = {}): Promise<InterviewDocumentParts> {
  const interview = await loadInterview(userId, interviewId, db);
  if (!interview || interview.status !== "Completed") return { kind: "not-found" };
  const issue = await getIssue(interview.issueId, db);
  // The guide version the interview ran: its templates are the ones its answers were given for.
  const pin = await interviewGuidePin(interview.guide, issue?.guideId ?? null, db);
  const guide = pin ? await getGuideVersion(pin, db) : null;
  const guideId = pin?.guideId;
  if (!pin || !guide) {
    countDocumentFailed("error");
    log(interviewId, `the interview's guide ${guideId ?? issue?.guideId ?? "(none)"} is not stored`);
    return { kind: "unavailable", message: documentMessages.failed };
  }

  const attachments: { name: string; bytes: Uint8Array | null }[] = [];
  const wordFiles: { name: string; ext: string; contentType: string; bytes: Uint8Array }[] = [];
  for (const { id, ext } of attachmentIds(interview.state.answers)) {
    const found = await findAttachment(userId, id, db);
    if (!found) {
      log(interviewId, `attachment ${id} is not the user's or no longer exists; left out`);
      continue;
    }
    const bytes = await storage.get(found.storage_key);
    if (!bytes) {
      // Listed on the document's last page as not included, like a file that cannot be read.
      log(interviewId, `attachment ${id} has no stored file`);
      if (found.content_type === "application/pdf") attachments.push({ name: found.file_name, bytes: null });
      continue;
    }
    if (found.content_type === "application/pdf") attachments.push({ name: found.file_name, bytes: new Uint8Array(bytes) });
    else wordFiles.push({ name: found.file_name, ext, contentType: found.content_type, bytes: new Uint8Array(bytes) });
  }

  const lang = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(guide.language) ? guide.language : "en";
  // The country's order and style, in the document's language ("13 janvier 1990" in a French guide's document).
  const dates: DateLocale | undefined = issue?.country.dates ? { ...issue.country.dates, language: lang } : undefined;
  const markers = signatureMarkers(guide);
  const zone = timeZone ?? config().TIME_ZONE;
  const signingDates: DateLocale = { ...(dates ?? A2J_DATES), language: lang, style: "long" };
  const day = (at: Date) => {
    const days = daysInTimeZone(at, zone) ?? daysInTimeZone(at, "UTC")!;
    return formatDaysFor(days, signingDates);
  };
  const result = await assembleDocument({
    title: guide.title || "My Document",
    lang,
    notIncludedWords: notIncludedWordsIn(lang),
    answers: interview.state.answers,
    dates,
    readFile: async (file) => {
      const f = await getGuideFile(pin.guideId, file, db, pin.version);
      return f ? new Uint8Array(f.bytes) : null;
    },
    attachments,
    ...(markers.length ? { signatures: signatureFills(markers, signatures, day, signatureWordsIn(lang)) } : {}),
  });
  const base = documentFileName({
    issue: issue ? { name: issue.name, sensitive: issue.sensitive } : null,
    // One template names the file ("Letter of demand"); several are the guide's "documents".
    what: result.ok && result.pdfTitles.length === 1 ? result.pdfTitles[0]! : "documents",
    madeAt: interview.updatedAt,
    dates: issue?.country.dates ?? A2J_DATES,
  });
  if (!result.ok && !(result.empty && wordFiles.length)) {
    countDocumentFailed(result.empty ? "empty" : "error");
    log(interviewId, `guide ${pin.guideId} version ${pin.version}: ${result.reason}`, result.empty ? "warn" : "error");
    return { kind: "unavailable", message: result.empty ? documentMessages.empty : documentMessages.failed };
  }
  // Names only in the document: a file's name may say what it is about.
  if (result.ok && result.notIncluded.length) log(interviewId, `${result.notIncluded.length} attachment(s) could not be merged; listed on the last page`, "warn");
  return {
    kind: "parts",
    pdf: result.ok ? result.pdf : null,
    files: [...(result.ok ? result.word.map((w) => ({ name: w.title || `${base} ${w.templateId}`, ext: "docx", contentType: DOCX, bytes: w.bytes })) : []), ...wordFiles],
    base,
    title: guide.title || "My Document",
    lang,
    dates: dates ?? A2J_DATES,
    markers,
    issueId: interview.issueId,
    language: interview.language,
  };
}

/**
 * The signature places of a user's Completed interview's guide (the version it ran), the person's own first:
 * what the signing pages ask for. Null when the interview is not the user's, not Completed, or its guide is
 * gone; an empty list when the guide has no signature places.
 */
export async function interviewSignatureMarkers(userId: string, interviewId: string, db: Db = database()): Promise<SignatureMarker[] | null> {
  const interview = await loadInterview(userId, interviewId, db);
  if (!interview || interview.status !== "Completed") return null;
  const issue = await getIssue(interview.issueId, db);
  const pin = await interviewGuidePin(interview.guide, issue?.guideId ?? null, db);
  const guide = pin ? await getGuideVersion(pin, db) : null;
  return guide ? signatureMarkers(guide) : null;
}

/** The file to download for a user's interview. */
export async function interviewDocument(userId: string, interviewId: string, options: DocumentOptions = {}): Promise<InterviewDocument> {
  const parts = await interviewDocumentParts(userId, interviewId, options);
  if (parts.kind !== "parts") return parts;
  const { base } = parts;
  const files = [...(parts.pdf ? [{ name: `${base}.pdf`, ext: "pdf", contentType: "application/pdf", bytes: parts.pdf }] : []), ...parts.files];
  if (files.length === 1) {
    const only = files[0]!;
    countDocumentMade(only.ext === "pdf" ? "pdf" : "docx");
    return { kind: "file", bytes: only.bytes, contentType: only.contentType, fileName: `${base}.${only.ext}`, issueId: parts.issueId, language: parts.language };
  }
  countDocumentMade("zip");
  return { kind: "file", bytes: zipFiles(files), contentType: "application/zip", fileName: `${base}.zip`, issueId: parts.issueId, language: parts.language };
}

/**
 * The name a downloaded document is saved under, without its extension: the issue, what the document is and
 * the day the interview was completed, in the organisation's time zone and the country's way of writing dates
 * ("Divorce and separation – Summary of my situation – 25 November 2026"). A sensitive issue's name is left
 * out: a file name shows in the downloads list (docs/decisions/0041).
 */
export function documentFileName({
  issue,
  what,
  madeAt,
  dates,
  timeZone = config().TIME_ZONE,
}: {
  issue: { name: string; sensitive: boolean } | null;
  what: string;
  madeAt: string;
  dates: DateLocale;
  timeZone?: string;
}): string {
  const day = daysInTimeZone(new Date(madeAt), timeZone);
  const parts = [issue && !issue.sensitive ? issue.name : "", what.trim() || "My document", day === null ? "" : formatDaysFor(day, { ...dates, style: "long" })];
  return parts
    .map((part) => part.replace(/[\x00-\x1f\x7f/\\:*?"<>|]+/g, "-").replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(" – ")
    .slice(0, 150);
}

/** The safe, distinct names files get in a zip ("a.docx", "a (2).docx"), in their order. */
export function zipEntryNames(files: { name: string; ext: string }[]): string[] {
  const names: string[] = [];
  for (const file of files) {
    const stem = file.name.replace(/\.[^.]*$/, "").replace(/[\x00-\x1f/\\:*?"<>|]+/g, "_").trim().slice(0, 120) || "document";
    let name = `${stem}.${file.ext}`;
    for (let n = 2; names.includes(name); n++) name = `${stem} (${n}).${file.ext}`;
    names.push(name);
  }
  return names;
}

/** A zip of files under safe, distinct names ("a.docx", "a (2).docx"). */
export function zipFiles(files: { name: string; ext: string; bytes: Uint8Array }[]): Uint8Array {
  const names = zipEntryNames(files);
  const entries: Record<string, Uint8Array> = {};
  files.forEach((file, i) => {
    entries[names[i]!] = file.bytes;
  });
  // PDFs and Word files are compressed already.
  return zipSync(entries, { level: 0 });
}

/**
 * A Content-Disposition header for a file name (RFC 6266): an ASCII fallback (accents dropped, dashes kept as
 * "-", anything else "_") and the UTF-8 name in RFC 5987's encoding, which leaves only its attr-chars bare
 * (encodeURIComponent also leaves ' ( ) * ! bare; the first four are not attr-chars).
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A file to download: its type, its name (contentDisposition), its length, and kept by no shared cache. `headers`
 * adds to or replaces these (the API's own).
 */
export function downloadResponse(file: { bytes: Uint8Array; contentType: string; fileName: string }, headers: Record<string, string> = {}): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.fileName),
      "Content-Length": String(file.bytes.byteLength),
      "Cache-Control": "private, no-store",
      ...headers,
    },
  });
}
