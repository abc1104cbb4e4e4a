import { createHmac } from "node:crypto";
import { A2J_DATES, changeAnswer, confirmFinish, currentPage, goBack, type Guide, type InterviewState, keepPageAnswers, numberAsTyped, readDateBoxes, readTypedNumber, renderPage, reviewAnswers, startInterview, submitPage, validatePage } from "~/a2j";
import type { DateBoxes, DateLocale, FieldError, FieldView, FormValues } from "~/a2j";
import { offersRephrase, rephraseUrl } from "~/ai/rephrase";
import { issueHasSources } from "~/sources/sources.server";
import { loadSession, loadSessionWith, selectSession, type Session, type SessionUser } from "~/auth/session.server";
import { type Issue, issueFromRow, selectIssue } from "~/content/content.server";
import { compiledOnce } from "../../db/compiled-query";
import type { Db } from "../../db/database";
import { config } from "~/config.server";
import { viewerLanguageOf } from "~/i18n/viewer-languages";
import { database } from "~/db.server";
import { sanitizeHtml } from "~/ui/sanitize-html.server";
import { adoptAttachments, attachmentMessages, storeAttachment } from "~/interviews/attachments.server";
import { cachedGuideVersion, getGuide, getGuideVersion, getGuideVersionUploadedAt, type GuidePin } from "~/guides/guides.server";
import { findInterview, interviewState, saveInterview, today } from "~/interviews/interviews.server";
import { queueInterviewCompleted } from "~/webhooks/queue.server";
import { uploadMessage, VIEWER_ERRORS } from "./viewer-messages.server";

/**
 * What the viewer's URL names (the spec's query parameters; the user always comes from the session): an
 * issue's interview, or with preview=1 just a guide, whose state then travels in the form and is never saved.
 */
export type ViewerTarget =
  // guideId: for a new interview, the issue's guide in the person's language that the interview page chose.
  | { preview: false; issueId: number; interviewId: string | null; guideId?: string | null }
  | { preview: true; guideId: string; version: number | null; page?: string | null };

export function parseViewerTarget(url: URL): ViewerTarget | null {
  if (url.searchParams.get("preview") === "1") {
    const guideId = url.searchParams.get("guideId") ?? "";
    const version = url.searchParams.get("version");
    if (version !== null && !/^[1-9][0-9]{0,5}$/.test(version)) return null;
    // `page`: the preview opens at that page (the health check's links), as it is, without its codeBefore.
    const page = url.searchParams.get("page");
    return /^[a-z0-9][a-z0-9-]{0,62}$/.test(guideId)
      ? { preview: true, guideId, version: version === null ? null : Number(version), page: page && page.length <= 500 ? page : null }
      : null;
  }
  const issueId = Number(url.searchParams.get("issueId"));
  if (!Number.isSafeInteger(issueId) || issueId < 1) return null;
  const interviewId = url.searchParams.get("interviewId") || null;
  if (interviewId !== null && !/^[0-9a-f-]{36}$/.test(interviewId)) return null;
  const guideId = url.searchParams.get("guideId") || null;
  return { preview: false, issueId, interviewId, guideId: guideId && /^[a-z0-9][a-z0-9-]{0,62}$/.test(guideId) ? guideId : null };
}

/** The viewer's address for previewing a guide: its published version, or (administrators only) the one named. */
export function previewViewerUrl(guideId: string, version: number | null = null, page: string | null = null): string {
  const params = new URLSearchParams({ guideUrl: `/interview-guides/${guideId}`, guideId, preview: "1" });
  if (version !== null) params.set("version", String(version));
  if (page !== null) params.set("page", page);
  return `/viewer?${params.toString()}`;
}

/**
 * The spec's `userId` viewer parameter as an opaque value for one person's interview (or issue, before the
 * interview exists): the account id itself would land in logs and browser histories. Nothing reads it back;
 * the viewer takes the person from the session.
 */
function opaqueUserParameter(userId: string, scope: string): string {
  return createHmac("sha256", config().sessionSecrets[0]!).update(`viewer-user:${userId}:${scope}`).digest("base64url").slice(0, 22);
}

/** The viewer's address with the spec's query parameters. */
export function viewerUrl(issue: { id: number; guideId: string }, interviewId: string | null, userId: string, preview = false): string {
  const params = new URLSearchParams({
    guideUrl: `/interview-guides/${issue.guideId}`,
    guideId: issue.guideId,
    issueId: String(issue.id),
    interviewId: interviewId ?? "",
    userId: opaqueUserParameter(userId, interviewId ?? `issue-${issue.id}`),
    getDataUrl: interviewId ? `/interviews/${interviewId}/answers` : "",
  });
  if (preview) params.set("preview", "1");
  return `/viewer?${params.toString()}`;
}

export interface OpenViewer {
  /** Null in preview. */
  issue: (Issue & { guideId: string }) | null;
  guide: Guide;
  /** The language the interview runs in (a BCP 47 tag): its guide's when it started, kept from then on. */
  language: string;
  /** The guide version the interview runs (the one it started on); null in preview. */
  pin: GuidePin | null;
  interviewId: string | null;
  status: "Draft" | "Completed";
  state: InterviewState;
}

function previewState(text: string | null): InterviewState | null {
  if (!text) return null;
  try {
    const state = JSON.parse(text) as InterviewState;
    return state && typeof state.answers === "object" && Array.isArray(state.history) ? state : null;
  } catch {
    return null;
  }
}

// One query reads the issue, its guide's published version (number and upload time) and the user's interview
// (when the URL names one) with the version it started on.
const withGuide = (db: Db, issueId: number) =>
  selectIssue(db)
    .leftJoin("guides", "guides.id", "issues.guide_id")
    .leftJoin("guide_versions as published", (join) =>
      join.onRef("published.guide_id", "=", "guides.id").onRef("published.version", "=", "guides.published_version"),
    )
    .select(["guides.published_version as guide_version", "guides.language as guide_language", "published.uploaded_at as guide_uploaded_at"])
    .where("issues.id", "=", issueId);
const issueWithGuide = compiledOnce(withGuide);
const interviewOfIssue = (db: Db, issueId: number, interviewId: string) =>
  withGuide(db, issueId)
    .innerJoin("interviews", "interviews.issue_id", "issues.id")
    .leftJoin("guide_versions as pinned", (join) =>
      join.onRef("pinned.guide_id", "=", "interviews.guide_id").onRef("pinned.version", "=", "interviews.guide_version"),
    )
    .select([
      "interviews.id as interview_id",
      "interviews.user_id as interview_user_id",
      "interviews.status as interview_status",
      "interviews.vars",
      "interviews.engine_state",
      "interviews.language as interview_language",
      "interviews.guide_id as pinned_guide_id",
      "interviews.guide_version as pinned_version",
      "pinned.uploaded_at as pinned_uploaded_at",
    ])
    .where("interviews.id", "=", interviewId);
const issueWithInterview = compiledOnce((db, issueId: number, interviewId: string, userId: string) =>
  interviewOfIssue(db, issueId, interviewId).where("interviews.user_id", "=", userId),
);
// The session and the interview it opens in one round trip: the viewer's every page step starts with both.
const sessionWithInterview = compiledOnce((db, idHash: string, issueId: number, interviewId: string) =>
  selectSession(db, idHash)
    .leftJoin(interviewOfIssue(db, issueId, interviewId).as("opened"), (join) => join.onRef("opened.interview_user_id", "=", "sessions.user_id"))
    .selectAll("opened"),
);

type IssueRow = {
  guide_id: string | null;
  guide_version: number | null;
  guide_language: string | null;
  guide_uploaded_at: string | null;
} & Parameters<typeof issueFromRow>[0];

type InterviewRow = IssueRow & {
  pinned_guide_id: string | null;
  pinned_version: number | null;
  pinned_uploaded_at: string | null;
  interview_id: string;
  interview_status: OpenViewer["status"];
  interview_language: string;
  vars: string;
  engine_state: string;
};

type Found = { pin: GuidePin; guide: Guide } | null;

/**
 * A guide version named by a row with its upload time: the parsed guide from the cache, without an await when it
 * is there (the viewer's every step opens one: each await costs promises, and on Node 20 each promise pays the
 * request scope's AsyncLocalStorage hook, docs/decisions/0035), else read (a promise).
 */
function guideVersionOf(pin: GuidePin, uploadedAt: string, db: Db): Found | Promise<Found> {
  const cached = cachedGuideVersion(pin, uploadedAt);
  if (cached) return { pin, guide: cached };
  return getGuideVersionUploadedAt(pin, uploadedAt, db).then((guide) => (guide ? { pin, guide } : null));
}

/** The issue's published guide version, read with the issue, and parsed; null when it has none. */
function publishedGuideOf(row: Pick<IssueRow, "guide_id" | "guide_version" | "guide_uploaded_at">, db: Db): Found | Promise<Found> {
  if (!row.guide_id || row.guide_version === null || !row.guide_uploaded_at) return null;
  return guideVersionOf({ guideId: row.guide_id, version: row.guide_version }, row.guide_uploaded_at, db);
}

/** The guide version an interview started on (an interview that recorded none runs its issue's published one). */
function interviewGuideOf(row: InterviewRow, db: Db): Found | Promise<Found> {
  if (row.pinned_guide_id === null || row.pinned_version === null) return publishedGuideOf(row, db);
  if (!row.pinned_uploaded_at) return null;
  return guideVersionOf({ guideId: row.pinned_guide_id, version: row.pinned_version }, row.pinned_uploaded_at, db);
}

function openedWith(row: InterviewRow, found: Found): OpenViewer | null {
  if (!row.guide_id || !found) return null;
  const issue = { ...issueFromRow(row), guideId: row.guide_id };
  return {
    issue,
    guide: found.guide,
    language: row.interview_language,
    pin: found.pin,
    interviewId: row.interview_id,
    status: row.interview_status,
    state: interviewState({ id: row.interview_id, vars: row.vars, engine_state: row.engine_state }),
  };
}

/** What an interview's row opens: at once when its guide is cached, else once the guide is read. */
function openedInterview(row: InterviewRow, db: Db): OpenViewer | null | Promise<OpenViewer | null> {
  const found = interviewGuideOf(row, db);
  return found instanceof Promise ? found.then((f) => openedWith(row, f)) : openedWith(row, found);
}

/**
 * The request's session (as loadSession reads it) and, when the URL names an interview, what openViewer
 * would open for its user, read in the same query: `opened` is then set (null when the user has no such
 * interview), otherwise left out for openViewer to read.
 */
export async function loadSessionAndInterview(
  cookie: string | null,
  target: ViewerTarget | null,
  db: Db = database(),
  now = new Date(),
): Promise<{ session: Session | null; stale: boolean; expiredUserId: string | null; opened?: OpenViewer | null }> {
  if (!target || target.preview || !target.interviewId) return loadSession(cookie, db, now);
  const { interviewId, issueId } = target;
  const { session, stale, row, expiredUserId } = await loadSessionWith(cookie, (idHash) => sessionWithInterview(db, idHash, issueId, interviewId), db, now);
  if (!session?.user || !row) return { session, stale, expiredUserId };
  if (!row.interview_id) return { session, stale, expiredUserId, opened: null };
  const opened = openedInterview(row as InterviewRow, db);
  return { session, stale, expiredUserId, opened: opened instanceof Promise ? await opened : opened };
}

/**
 * The issue, its guide and the user's interview (or a fresh one); null when any of them is not there. In
 * preview, the guide alone, at the state the form carried (`_state`) or at its start.
 */
export async function openViewer(
  user: Pick<SessionUser, "id" | "administrator">,
  target: ViewerTarget,
  carried: string | null = null,
  db: Db = database(),
): Promise<OpenViewer | null> {
  if (target.preview) {
    // A version other than the published one may be an upload not yet published: administrators only.
    if (target.version !== null && !user.administrator) return null;
    const guide = target.version === null ? await getGuide(target.guideId, db) : await getGuideVersion({ guideId: target.guideId, version: target.version }, db);
    if (!guide) return null;
    const state = previewState(carried) ?? (() => {
      const started = startInterview(guide, today());
      if (!started.ok) return null;
      const page = target.page && Object.hasOwn(guide.pages, target.page) ? target.page : null;
      // Opened at a page: on top of the first, so Back leads to the start.
      return page && page !== currentPage(started.state)
        ? { answers: started.state.answers, history: [...started.state.history, { interviewPage: page, repeatVarValue: null, outerLoopVarValue: null }] }
        : started.state;
    })();
    const written = await db.selectFrom("guides").select("language").where("id", "=", target.guideId).executeTakeFirst();
    return state ? { issue: null, guide, language: written?.language ?? "en", pin: null, interviewId: null, status: "Draft", state } : null;
  }
  if (target.interviewId) {
    const [row] = (await issueWithInterview(db, target.issueId, target.interviewId, user.id)).rows;
    return row ? openedInterview(row, db) : null;
  }
  const [row] = (await issueWithGuide(db, target.issueId)).rows;
  if (!row?.guide_id) return null;
  const chosen = target.guideId && target.guideId !== row.guide_id ? await translationOf(row.guide_id, target.guideId, db) : row;
  const published = chosen ? await publishedGuideOf(chosen, db) : null;
  if (!chosen?.guide_id || !published) return null;
  const started = startInterview(published.guide, today());
  if (!started.ok) return null;
  const issue = { ...issueFromRow(row), guideId: row.guide_id };
  return { issue, guide: published.guide, language: chosen.guide_language ?? "en", pin: published.pin, interviewId: null, status: "Draft", state: started.state };
}

/** A published guide that is the same interview as the issue's guide, in another language; null for any other. */
async function translationOf(issueGuideId: string, guideId: string, db: Db): Promise<Pick<IssueRow, "guide_id" | "guide_version" | "guide_language" | "guide_uploaded_at"> | null> {
  const row = await db
    .selectFrom("guides")
    .innerJoin("guide_versions as published", (join) => join.onRef("published.guide_id", "=", "guides.id").onRef("published.version", "=", "guides.published_version"))
    .select(["guides.id as guide_id", "guides.published_version as guide_version", "guides.language as guide_language", "published.uploaded_at as guide_uploaded_at"])
    .where("guides.id", "=", guideId)
    .where("guides.translation_of", "=", issueGuideId)
    .executeTakeFirst();
  return row ?? null;
}

function sanitizeView(view: NonNullable<ReturnType<typeof renderPage>>) {
  return {
    ...view,
    text: sanitizeHtml(view.text),
    body: sanitizeHtml(view.body),
    help: sanitizeHtml(view.help),
    learn: sanitizeHtml(view.learn),
    fields: view.fields.map((field) => ({
      ...field,
      label: sanitizeHtml(field.label),
      options: field.options.map((o) => ({ ...o, label: sanitizeHtml(o.label) })),
    })),
    popups: view.popups.map((popup) => ({ ...popup, html: popup.html === null ? null : sanitizeHtml(popup.html) })),
  };
}

/** How the interview's person writes dates: the issue's country's way; A2J's own in preview. */
/** How the interview writes dates: its country's order and style, in its guide's language. */
function datesOf(open: OpenViewer): DateLocale {
  return { ...(open.issue?.country.dates ?? A2J_DATES), language: open.language };
}

/**
 * The current page's render model, safe to show. `typedDates`: the date boxes as they were posted, shown back
 * as typed when the page returns with errors.
 */
export function viewerPage(open: OpenViewer, options: Parameters<typeof renderPage>[3] = {}, typedDates: Record<string, DateBoxes> = {}) {
  // A replay after a change stopped here on answers that no longer pass: the page shows why.
  const stopped = open.state.review?.changing ? open.state.review.stopped : undefined;
  const errors = options.errors ?? (stopped?.reason === "invalid" ? stopped.errors : undefined);
  const view = renderPage(open.guide, open.state, today(), { ...options, errors, dates: datesOf(open) });
  if (!view) return null;
  const fields = view.fields.map((field) => {
    if (field.date && typedDates[field.inputName]) return { ...field, date: typedDates[field.inputName]! };
    // A number answered before shows with the language's decimal sign ("1250,5" in French), as it was typed.
    if (field.type === "number" || field.type === "numberdollar") return { ...field, value: numberAsTyped(field.value, numbersLanguage(open.language)) };
    return field;
  });
  return sanitizeView({ ...view, fields });
}

/** A change made from "Check your answers" stopped on this page: the person is needed here before going back. */
export function changeNeedsPage(open: OpenViewer): boolean {
  return open.state.review?.changing === true && open.state.review.stopped !== undefined;
}

/** "Check your answers" is open (and not one of the pages its Change links open). */
export function reviewing(open: OpenViewer): boolean {
  return open.state.review !== undefined && !open.state.review.changing;
}

/** Every answer of the interview, grouped by step, for "Check your answers" and the read-only summary. */
export function viewerReview(open: OpenViewer) {
  return reviewAnswers(open.guide, open.state, today(), datesOf(open), numbersLanguage(open.language));
}

/**
 * Every answer of an interview as its owner's "Check your answers" shows them, whatever its status, opened from
 * the sealed columns for this request only; with the guide's language and the page of each history entry (the
 * answers' `historyIndex`). Null when the owner has no such interview or its guide is gone.
 */
export async function interviewAnswerSummary(ownerId: string, interviewId: string, db: Db = database()) {
  const found = await findInterview(ownerId, interviewId, db);
  if (!found) return null;
  const opened = await openViewer({ id: ownerId, administrator: false }, { preview: false, issueId: found.issueId, interviewId }, null, db);
  if (!opened) return null;
  const history = opened.state.review?.history ?? opened.state.history;
  return {
    issueName: found.issueName,
    sensitive: opened.issue?.sensitive ?? false,
    status: found.status,
    language: opened.language,
    steps: viewerReview(opened),
    pageNames: history.map((entry) => entry.interviewPage),
  };
}

/** The read-only summary of a person's completed interview (null when there is none to show). */
export async function completedAnswers(user: SessionUser, interviewId: string, db: Db = database()) {
  const summary = await interviewAnswerSummary(user.id, interviewId, db);
  return summary?.status === "Completed" ? { issueName: summary.issueName, sensitive: summary.sensitive, steps: summary.steps } : null;
}

/** The long-text questions of a page that offer "Rephrase with AI" (their input names; none in preview). */
export function rephrasableInputs(open: OpenViewer, page: { fields: FieldView[] }): string[] {
  // Offered only when there is an AI to ask: without one the screen could only say it is unavailable.
  const offered = aiAvailable() ? (open.issue?.rephraseVariables ?? []) : [];
  return page.fields.filter((f) => offersRephrase(offered, { type: f.type, name: f.inputName })).map((f) => f.inputName);
}

/** What was posted for a field that is not a file: one string, or several for multiple choices. */
function postedText(form: FormData, field: FieldView): string | string[] | undefined {
  const strings = form.getAll(field.inputName).filter((v): v is string => typeof v === "string");
  return strings.length > 1 ? strings : strings[0];
}

/**
 * The posted values of a page's fields (files aside), with its dates read from their Day, Month and Year boxes
 * into A2J's MM/DD/YYYY: the engine only ever sees that form. A form without the boxes (an older page, a
 * script) may still post the date whole, as A2J does. Boxes that do not make a date come back as errors naming
 * the box.
 */
/**
 * The language numbers are read and shown in: the viewer's catalogue's, so that its hint ("1250,50" in French) and
 * its reading agree even for a guide in a region that writes otherwise.
 */
const numbersLanguage = (language: string | undefined) => viewerLanguageOf(language).code;

function postedValues(form: FormData, fields: FieldView[], language?: string) {
  const values: FormValues = {};
  const typedDates: Record<string, DateBoxes> = {};
  /** Numbers as typed ("1250,50"), shown back so when the page returns with errors; `values` has them as A2J reads them. */
  const typedNumbers: FormValues = {};
  const dateErrors: FieldError[] = [];
  for (const field of fields) {
    if (field.type === "attachment") continue;
    const box = (name: keyof DateBoxes) => form.get(`${field.inputName}-${name}`);
    if (field.type === "number" || field.type === "numberdollar") {
      const typed = postedText(form, field);
      values[field.inputName] = typeof typed === "string" ? readTypedNumber(typed, numbersLanguage(language)) : typed;
      if (values[field.inputName] !== typed) typedNumbers[field.inputName] = typed;
      continue;
    }
    if (field.type !== "datemdy" || (box("day") === null && box("month") === null && box("year") === null)) {
      values[field.inputName] = postedText(form, field);
      continue;
    }
    const typed = { day: String(box("day") ?? ""), month: String(box("month") ?? ""), year: String(box("year") ?? "") };
    typedDates[field.inputName] = typed;
    const reading = readDateBoxes(typed, language);
    if (reading.kind === "wrong") dateErrors.push({ fieldIndex: field.index, inputName: field.inputName, message: reading.message, says: reading.says, boxes: reading.boxes });
    values[field.inputName] = reading.kind === "date" ? reading.value : "";
  }
  return { values, typedDates, typedNumbers, dateErrors };
}

export type PressResult =
  | { kind: "page"; interviewId: string | null; state: InterviewState; status: OpenViewer["status"] }
  | { kind: "detour"; location: string }
  | { kind: "invalid"; page: NonNullable<ReturnType<typeof viewerPage>> }
  | { kind: "special"; target: string; interviewId: string | null; url?: string; message?: string }
  | { kind: "error"; message: string };

async function save(user: SessionUser, open: OpenViewer, state: InterviewState, status: "Draft" | "Completed", preview: boolean, db: Db) {
  if (preview || !open.issue) return open.interviewId;
  const interview = { id: open.interviewId, userId: user.id, issueId: open.issue.id, status, state, guide: open.pin, language: open.language };
  if (status !== "Completed" || open.status === "Completed" || !open.interviewId) return saveInterview(interview, db);
  // Completing a shared interview queues interview.completed in the same transaction (docs/decisions/0057-webhooks.md).
  return db.transaction().execute(async (trx) => {
    const id = await saveInterview(interview, trx);
    await queueInterviewCompleted(trx, id);
    return id;
  });
}

/**
 * A button press (or Back) on the viewer's form: uploads are kept, the engine runs, the interview is saved
 * (created as Draft on its first save), and the result says where to go. In preview nothing is saved.
 */
export async function pressButton(user: SessionUser, open: OpenViewer, form: FormData, preview: boolean, db: Db = database()): Promise<PressResult> {
  const pageName = String(form.get("_page") ?? "");
  const intent = String(form.get("_intent") ?? "");
  if (intent === "back") {
    const back = goBack(open.guide, open.state, today(), { inPlace: true, dates: datesOf(open) });
    if (!back.ok) return { kind: "error", message: back.error.message };
    return { kind: "page", interviewId: await save(user, open, back.state, open.status, preview, db), state: back.state, status: open.status };
  }
  if (reviewing(open)) return pressOnReview(user, open, intent, pageName, preview, db);
  const buttonIndex = Number(form.get("_button"));
  const view = renderPage(open.guide, open.state, today(), { dates: datesOf(open) });
  if (!view) return { kind: "error", message: VIEWER_ERRORS.page };
  // A form from an older page (a second click, a reload): nothing to do but show the current page.
  if (view.name !== pageName) return { kind: "page", interviewId: open.interviewId, state: open.state, status: open.status };
  if (intent.startsWith("rephrase:") || intent === "understand" || intent === "document") return keepForDetour(user, open, view, form, intent, preview, db);

  const { values, typedDates, typedNumbers, dateErrors } = postedValues(form, view.fields, datesOf(open).language);
  const uploadErrors: FieldError[] = [];
  const uploaded: string[] = [];
  for (const field of view.fields) {
    if (field.type !== "attachment") continue;
    const file = form.getAll(field.inputName).find((v): v is File => typeof v !== "string" && v.size > 0);
    if (file && !preview) {
      const stored = await storeAttachment({ userId: user.id, interviewId: open.interviewId }, file);
      if (stored.ok) {
        values[field.inputName] = stored.path;
        uploaded.push(stored.id);
      } else uploadErrors.push({ fieldIndex: field.index, inputName: field.inputName, message: uploadMessage(stored.message) });
    } else if (field.value) values[field.inputName] = field.value;
    else if (field.required) uploadErrors.push({ fieldIndex: field.index, inputName: field.inputName, message: uploadMessage(attachmentMessages.none) });
  }
  const submitted: FormValues = { ...values, ...typedNumbers };
  const edgeErrors = [...uploadErrors, ...dateErrors];
  if (edgeErrors.length) {
    // The rest of the page is checked too, so that one return lists every problem.
    const page = open.guide.pages[pageName];
    const checked = page ? validatePage(page, values, today(), datesOf(open)).errors : [];
    const errors = [...edgeErrors, ...checked.filter((e) => !edgeErrors.some((x) => x.fieldIndex === e.fieldIndex))].sort((a, b) => a.fieldIndex - b.fieldIndex);
    const shown = viewerPage(open, { submitted, errors }, typedDates);
    return shown ? { kind: "invalid", page: shown } : { kind: "error", message: VIEWER_ERRORS.page };
  }

  const result = submitPage(open.guide, open.state, { pageName, buttonIndex, values }, today(), { inPlace: false, dates: datesOf(open) });
  if (!result.ok) return { kind: "error", message: result.error.message };
  const outcome = result.outcome;
  if (outcome.kind === "invalid") {
    const page = viewerPage(open, { submitted, errors: outcome.errors }, typedDates);
    return page ? { kind: "invalid", page } : { kind: "error", message: VIEWER_ERRORS.page };
  }
  const completes = outcome.kind === "special" && ["SUCCESS", "ASSEMBLE", "ASSEMBLE-SUCCESS"].includes(outcome.target);
  const status = completes ? "Completed" : open.status;
  const interviewId = await save(user, open, result.state, status, preview, db);
  if (interviewId && uploaded.length && !preview) await adoptAttachments(user.id, interviewId, uploaded, db);
  if (outcome.kind === "page" || outcome.kind === "review") return { kind: "page", interviewId, state: result.state, status };
  return { kind: "special", target: outcome.target, interviewId, url: outcome.url, message: outcome.message };
}

/** The review's form: "Confirm and finish" completes the interview; "Change" reopens a page. */
async function pressOnReview(user: SessionUser, open: OpenViewer, intent: string, pageName: string, preview: boolean, db: Db): Promise<PressResult> {
  // A form from an older page (a second click, a reload): show the review.
  if (pageName !== REVIEW_PAGE) return { kind: "page", interviewId: open.interviewId, state: open.state, status: open.status };
  if (intent === "confirm") {
    const finished = confirmFinish(open.state, { inPlace: true });
    if (!finished.ok) return { kind: "error", message: finished.error.message };
    const interviewId = await save(user, open, finished.state, "Completed", preview, db);
    const outcome = finished.outcome;
    if (outcome.kind !== "special") return { kind: "page", interviewId, state: finished.state, status: "Completed" };
    return { kind: "special", target: outcome.target, interviewId, url: outcome.url, message: outcome.message };
  }
  const change = /^change:(\d{1,6})$/.exec(intent);
  if (!change) return { kind: "error", message: VIEWER_ERRORS.review };
  const opened = changeAnswer(open.guide, open.state, Number(change[1]), { inPlace: true });
  if (!opened.ok) return { kind: "error", message: opened.error.message };
  return { kind: "page", interviewId: await save(user, open, opened.state, open.status, preview, db), state: opened.state, status: open.status };
}

/**
 * A page's form kept while its person was signed out (app/expiry/), given back once they signed in again: what
 * was typed is kept on the page without pressing its button (keepPageAnswers, as for a detour), and the
 * interview saved, so the page shows it again. Nothing is done for a form of another page than the one the
 * interview is at, or of "Check your answers". Returns the interview's id (a first page creates it), or null.
 */
export async function keepTypedAnswers(user: SessionUser, open: OpenViewer, form: FormData, db: Db = database()): Promise<string | null> {
  if (!open.issue || reviewing(open)) return open.interviewId;
  const view = renderPage(open.guide, open.state, today(), { dates: datesOf(open) });
  if (!view || view.name !== String(form.get("_page") ?? "")) return open.interviewId;
  const { values, typedDates } = postedValues(form, view.fields, datesOf(open).language);
  // An upload is not kept (its file was not): the field keeps the file it had.
  for (const field of view.fields) if (field.type === "attachment") delete values[field.inputName];
  const kept = keepPageAnswers(open.guide, open.state, { pageName: view.name, values, dates: typedDates }, today());
  if (!kept.ok) return open.interviewId;
  return saveInterview({ id: open.interviewId, userId: user.id, issueId: open.issue.id, status: open.status, state: kept.state, guide: open.pin, language: open.language }, db);
}

/** The `_page` the review's form posts (no A2J page has this name: guide page names are never empty). */
export const REVIEW_PAGE = "";


/** An AI endpoint is configured (app/ai/chat.server.ts says the same; the viewer reads only the rephrase rules of app/ai). */
const aiAvailable = () => Boolean(config().AI_BASE_URL);

/** The AI pages a page of the interview leads to, each only where it can help (docs/decisions/0040). */
export type Detour = "rephrase" | "understand" | "document";

/**
 * A detour from the interview to an AI page ("Rephrase with AI" on a long answer, "Understand my situation",
 * "Use a document I have"): what was typed on the page is kept, as typed (keepPageAnswers), the interview is
 * saved, and the person goes there in the whole window; coming back, the page shows what they had typed.
 */
async function keepForDetour(
  user: SessionUser,
  open: OpenViewer,
  view: NonNullable<ReturnType<typeof renderPage>>,
  form: FormData,
  intent: string,
  preview: boolean,
  db: Db,
): Promise<PressResult> {
  const help = await aiHelp(open, db);
  const variable = intent.startsWith("rephrase:") ? intent.slice("rephrase:".length) : null;
  const allowed = variable !== null ? rephrasableInputs(open, view).includes(variable) : (intent === "understand" && help.understand) || (intent === "document" && help.document);
  if (preview || !open.issue || !allowed) return { kind: "error", message: VIEWER_ERRORS.help };
  const { values, typedDates } = postedValues(form, view.fields, datesOf(open).language);
  const kept = keepPageAnswers(open.guide, open.state, { pageName: view.name, values, dates: typedDates }, today());
  if (!kept.ok) return { kind: "error", message: kept.error.message };
  const interviewId = await saveInterview({ id: open.interviewId, userId: user.id, issueId: open.issue.id, status: open.status, state: kept.state, guide: open.pin, language: open.language }, db);
  const location =
    variable !== null
      ? rephraseUrl({ interviewId, variable, index: view.answerIndex })
      : intent === "understand"
        ? `/issues/${open.issue.id}/understand?${new URLSearchParams({ interview: interviewId }).toString()}`
        : `/ai/document/${interviewId}`;
  return { kind: "detour", location };
}

/**
 * Which AI pages the interview offers: none without an AI endpoint (they would only say it is unavailable);
 * "Understand my situation" only where the organisation has sources for the issue; none in preview.
 */
export async function aiHelp(open: OpenViewer, db: Db = database()): Promise<{ understand: boolean; document: boolean }> {
  return aiHelpAtOnce(open) ?? { understand: await issueHasSources({ id: open.issue!.id, countryId: open.issue!.country.id }, db), document: true };
}

/** aiHelp without a query or an await where it needs none (no AI endpoint, or a preview): else null. */
export function aiHelpAtOnce(open: OpenViewer): { understand: boolean; document: boolean } | null {
  return !aiAvailable() || !open.issue ? { understand: false, document: false } : null;
}
