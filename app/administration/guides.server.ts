// Guides as administrators run them (docs/decisions/0029-guide-versions.md): an upload is kept as a pending
// version with its import report, and nothing runs it until it is published. Every change is recorded in the
// audit, in the same transaction as the change.
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { notFound } from "~/http.server";
import { attachGuideToIssue, detachGuideFromIssue, getIssue } from "~/content/content.server";
import { type GuidePin, publishedVersion } from "~/guides/guides.server";
import {
  addGuideVersion,
  checkGuideFiles,
  discardGuideVersion,
  GUIDE_ID,
  GuideImportError,
  type GuideFiles,
  guideIdMessage,
  importGuide,
  publishGuideVersion,
  readGuideUpload,
} from "~/guides/import.server";
import { MAX_FILE_BYTES } from "~/security/request-guard.server";
import { type Actor, commandLineActor, recordAuditEvent } from "~/audit/audit.server";
import { guideUploadMessages } from "./schemas";

export const guideMessages = {
  noFile: guideUploadMessages.noFile,
  tooLarge: `The file is too large: a guide upload must be under ${MAX_FILE_BYTES / 1024 / 1024} MB.`,
  idTaken: "A guide with this id exists already: choose it under “A new version of” to add a version.",
  noGuide: "There is no such guide.",
  noIssue: "There is no such issue.",
  notPublished: "Publish a version of this guide before attaching it to an issue.",
  notAttached: "This issue does not run this guide (any more).",
  noTranslationTarget: "Choose a guide that is in no other guide's place: it cannot be a translation itself, nor this guide.",
  hasTranslations: "Other guides are this guide in other languages: it cannot be a translation of another guide itself.",
} as const;

export type UploadTarget = { kind: "new"; guideId: string } | { kind: "version"; guideId: string };

export type UploadResult =
  | { ok: true; pin: GuidePin }
  | { ok: false; field: "file" | "guideId" | "existing"; message: string };

/**
 * Reads an uploaded guide (a published zip or one guide file), checks it, and keeps it as a pending version of
 * a new guide or of an existing one. A guide that cannot be read is refused with why, and nothing is kept.
 */
export async function uploadGuide(actor: Actor, target: UploadTarget, file: File | null, db: Db = database()): Promise<UploadResult> {
  if (!file || file.size === 0) return { ok: false, field: "file", message: guideMessages.noFile };
  // The request's edge cuts a file at MAX_FILE_BYTES (docs/decisions/0014-request-limits.md): one that long was cut.
  if (file.size >= MAX_FILE_BYTES) return { ok: false, field: "file", message: guideMessages.tooLarge };
  const exists = Boolean(await db.selectFrom("guides").select("id").where("id", "=", target.guideId).executeTakeFirst());
  if (target.kind === "new") {
    if (!GUIDE_ID.test(target.guideId)) return { ok: false, field: "guideId", message: guideIdMessage };
    if (exists) return { ok: false, field: "guideId", message: guideMessages.idTaken };
  } else if (!exists) return { ok: false, field: "existing", message: guideMessages.noGuide };
  let files: GuideFiles;
  let checked: ReturnType<typeof checkGuideFiles>;
  try {
    files = readGuideUpload(file.name, new Uint8Array(await file.arrayBuffer()));
    checked = checkGuideFiles(files);
  } catch (error) {
    if (error instanceof GuideImportError) return { ok: false, field: "file", message: `This guide cannot be read. ${error.message}` };
    throw error;
  }
  const pin = await db.transaction().execute(async (trx) => {
    const added = await addGuideVersion(target.guideId, checked, { origin: "upload", id: actor.id, email: actor.email }, trx);
    await recordAuditEvent(
      actor,
      { action: "guide.uploaded", subject: target.guideId, details: { version: added.version, warnings: checked.report.warnings.length, file: file.name } },
      trx,
    );
    return added;
  });
  return { ok: true, pin: { guideId: pin.guideId, version: pin.version } };
}

/**
 * Publishes a pending version: new interviews run it; those started keep theirs. False: nothing to publish.
 * `details` go into the audit record with the version (the test scenarios that failed and were confirmed).
 */
export async function publishUpload(actor: Actor, pin: GuidePin, db: Db = database(), details: Record<string, unknown> = {}): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await publishGuideVersion(pin, trx))) return false;
    await recordAuditEvent(actor, { action: "guide.published", subject: pin.guideId, details: { version: pin.version, ...details } }, trx);
    return true;
  });
}

/** Throws a pending version away. False: nothing to discard. */
export async function discardUpload(actor: Actor, pin: GuidePin, db: Db = database()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await discardGuideVersion(pin, trx))) return false;
    await recordAuditEvent(actor, { action: "guide.discarded", subject: pin.guideId, details: { version: pin.version } }, trx);
    return true;
  });
}

/** Makes an issue run a published guide. */
export async function attachGuide(actor: Actor, guideId: string, issueId: number, db: Db = database()): Promise<{ ok: true; issueName: string } | { ok: false; message: string }> {
  return db.transaction().execute(async (trx) => {
    const published = await publishedVersion(guideId, trx);
    if (!published) return { ok: false, message: guideMessages.notPublished };
    const issue = await getIssue(issueId, trx);
    if (!issue || !(await attachGuideToIssue(issueId, guideId, trx, actor))) return { ok: false, message: guideMessages.noIssue };
    await recordAuditEvent(actor, { action: "guide.attached", subject: guideId, details: { issue: issueId, issueName: issue.name, version: published.version } }, trx);
    return { ok: true, issueName: issue.name };
  });
}

/**
 * The language a guide is written in, and the guide it is the same interview as in another language (or none):
 * the issues that run that guide then run this one for people who read its language. Recorded in the audit.
 */
export async function setGuideLanguage(
  actor: Actor,
  guideId: string,
  choice: { language: string; translationOf: string | null },
  db: Db = database(),
): Promise<{ ok: true } | { ok: false; field: "translationOf"; message: string }> {
  return db.transaction().execute(async (trx) => {
    const guide = await trx.selectFrom("guides").select(["language", "translation_of"]).where("id", "=", guideId).executeTakeFirst();
    if (!guide) return { ok: false, field: "translationOf", message: guideMessages.noGuide };
    if (choice.translationOf !== null) {
      // One level only: an issue's guide and its translations, never a translation of a translation.
      const target = await trx.selectFrom("guides").select("translation_of").where("id", "=", choice.translationOf).executeTakeFirst();
      if (!target || target.translation_of !== null || choice.translationOf === guideId) return { ok: false, field: "translationOf", message: guideMessages.noTranslationTarget };
      const translations = await trx.selectFrom("guides").select("id").where("translation_of", "=", guideId).executeTakeFirst();
      if (translations) return { ok: false, field: "translationOf", message: guideMessages.hasTranslations };
    }
    await trx.updateTable("guides").set({ language: choice.language, translation_of: choice.translationOf }).where("id", "=", guideId).execute();
    await recordAuditEvent(
      actor,
      { action: "guide.language", subject: guideId, details: { language: choice.language, translationOf: choice.translationOf, was: { language: guide.language, translationOf: guide.translation_of } } },
      trx,
    );
    return { ok: true };
  });
}

/** The issue stops running the guide; recorded in the audit with the change of the issue, in one transaction. */
export async function detachGuide(actor: Actor, guideId: string, issueId: number, db: Db = database()): Promise<{ ok: true; issueName: string } | { ok: false; message: string }> {
  return db.transaction().execute(async (trx) => {
    const issue = await getIssue(issueId, trx);
    if (!issue || !(await detachGuideFromIssue(issueId, guideId, trx, actor))) return { ok: false, message: guideMessages.notAttached };
    await recordAuditEvent(actor, { action: "guide.detached", subject: guideId, details: { issue: issueId, issueName: issue.name } }, trx);
    return { ok: true, issueName: issue.name };
  });
}

/**
 * `guide import` on the server: a new version, published at once, recorded as done from the command line;
 * with an issue, attached to it too. A wrong issue number changes nothing.
 */
export async function importGuideFromCommandLine(guideId: string, files: GuideFiles, issueId: number | null, db: Db = database()) {
  if (issueId !== null && !(await getIssue(issueId, db))) throw new GuideImportError(`There is no issue ${issueId}.`);
  return importGuide(guideId, files, db, { origin: "command line", id: null, email: commandLineActor.email }, async (trx, imported) => {
    const details = { version: imported.version, warnings: imported.report.warnings.length };
    await recordAuditEvent(commandLineActor, { action: "guide.uploaded", subject: guideId, details }, trx);
    await recordAuditEvent(commandLineActor, { action: "guide.published", subject: guideId, details: { version: imported.version } }, trx);
    if (issueId !== null) {
      await attachGuideToIssue(issueId, guideId, trx);
      await recordAuditEvent(commandLineActor, { action: "guide.attached", subject: guideId, details: { issue: issueId, version: imported.version } }, trx);
    }
  });
}

/** The guide (and version) an /admin/guides URL names; anything else is not found. */
export function guideFromParams(request: Request, params: { guideId?: string; version?: string }): { guideId: string; version: number | null } {
  const guideId = params.guideId ?? "";
  if (!GUIDE_ID.test(guideId)) notFound(request);
  if (params.version === undefined) return { guideId, version: null };
  if (!/^[1-9][0-9]{0,5}$/.test(params.version)) notFound(request);
  return { guideId, version: Number(params.version) };
}
