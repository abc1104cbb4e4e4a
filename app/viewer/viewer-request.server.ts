import { endSession, type Session, type SessionUser } from "~/auth/session.server";
import { database } from "~/db.server";
import { setSavedNotice } from "~/interviews/saved-notice.server";
import type { Db } from "../../db/database";
import { headersLanguage } from "~/i18n/language.server";
import { viewerLanguageOf } from "~/i18n/viewer-languages";
import { messageRef, translator } from "~/i18n/translator";
import type { OutcomeView } from "./viewer-outcome";
import type { ViewerPageProps } from "./viewer-page";
import type { ViewerReviewProps } from "./viewer-review";
import { type InterviewSubject, interviewPageTitle, reviewTitle } from "./titles";
import {
  aiHelp,
  aiHelpAtOnce,
  changeNeedsPage,
  keepTypedAnswers,
  loadSessionAndInterview,
  type OpenViewer,
  openViewer,
  parseViewerTarget,
  type PressResult,
  pressButton,
  rephrasableInputs,
  reviewing,
  type ViewerTarget,
  viewerPage,
  viewerReview,
  viewerUrl,
} from "./viewer.server";
import { logger } from "~/observability/log.server";
import { countInterviewStep, type InterviewStepOutcome } from "~/observability/metrics.server";

const log = logger("viewer");

/**
 * What the viewer shows: a page of the interview, or what happened instead (ended, saved and signed out, an
 * error…), under the guide's title when the interview could be opened.
 */
export type ViewerView = { title: string | null; outcome: OutcomeView; headingLevel?: 1 | 2; language?: string } | ViewerPageProps | ViewerReviewProps;

/** The viewer's answer to a request: a page to render with its status, or a redirect. */
export type ViewerReply =
  | { status: number; view: ViewerView; setCookie?: string[] }
  | { status: 302; location: string; setCookie?: string[] };

/** What the viewer needs of an HTTP request, whatever serves it. */
export interface ViewerRequest {
  /** The address the request was made to (the form posts back to it). */
  url: URL;
  /** The request's session (null when it has none). */
  session: Session | null;
  /** Whether the answer is shown in the interview frame (Sec-Fetch-Dest: iframe, or the frame's script fetched it). */
  inFrame: boolean;
  /**
   * The frame's script asked (with fetch) and swaps the page that comes back into the frame: a step is answered
   * with the next page itself instead of a redirect to it, so that it takes one round trip.
   */
  fetched?: boolean;
  /** Where the page's form posts when not back to the request's own address: the interview page's copy posts there. */
  formAction?: string;
  /** What the URL opens, when it was read with the session (loadViewerRequest); else it is read here. */
  opened?: OpenViewer | null;
  /**
   * The person's language (their choice, account or browser): the words of a reply that opens no interview. Read
   * only for such a reply, off the path of every step.
   */
  personLanguage?: () => Promise<string>;
}

/**
 * The session of a request to the viewer, with the interview its URL names read in the same query (the
 * viewer's every page step needs both): `stale` as loadSession says; `request` is ready for showViewer and
 * pressViewerButton.
 */
export async function loadViewerRequest(
  headers: { cookie: string | null; acceptLanguage: string | null },
  url: URL,
  inFrame: boolean,
  fetched = false,
): Promise<{ stale: boolean; expiredUserId: string | null; request: ViewerRequest }> {
  const { session, stale, expiredUserId, opened } = await loadSessionAndInterview(headers.cookie, parseViewerTarget(url));
  const personLanguage = async () =>
    (await headersLanguage({ cookieHeader: headers.cookie, account: session?.user?.language, acceptLanguage: headers.acceptLanguage })).language;
  return { stale, expiredUserId, request: { url, session, inFrame, fetched, opened, personLanguage } };
}

/** An outcome, its words in the guide's language (`language`, a catalogue's tag: English when the guide is unknown). */
const outcome = (status: number, title: string | null, view: OutcomeView, language?: string): ViewerReply => ({
  status,
  view: language ? { title, outcome: view, language } : { title, outcome: view },
});
/**
 * "Please sign in to continue your interview.", in the person's language. `href`: the sign-in's address, when it
 * leads somewhere (a kept form).
 */
export const signedOut = (language?: string, href?: string) => outcome(401, null, href ? { kind: "signed-out", href } : { kind: "signed-out" }, language);
/** `message`: a message reference (the viewer's own words) or the engine's account of what failed. */
export const viewerError = (status: number, title: string | null = null, message: string = messageRef("viewer.error.interview"), language?: string) =>
  outcome(status, title, { kind: "error", message }, language);

function hostUrl(issueId: number, interviewId: string | null) {
  return `/issues/${issueId}/interviews${interviewId ? `/${interviewId}` : ""}`;
}

type Opened = {
  user: SessionUser;
  target: ViewerTarget;
  opened: OpenViewer;
  help: { understand: boolean; document: boolean };
  /** The catalogue of the viewer's own words: the guide's language (app/i18n/viewer-languages.ts). */
  language: string;
};

async function open(request: ViewerRequest, carried: string | null, db: Db): Promise<Opened | ViewerReply> {
  const user = request.session?.user ?? null;
  if (!user) return signedOut(await request.personLanguage?.());
  const target = parseViewerTarget(request.url);
  const opened = target && (request.opened !== undefined ? request.opened : await openViewer(user, target, carried, db));
  if (!target || !opened) return viewerError(404, null, undefined, await request.personLanguage?.());
  return { user, target, opened, help: aiHelpAtOnce(opened) ?? (await aiHelp(opened)), language: viewerLanguageOf(opened.language).code };
}

/** What the titles name the interview by: its issue (a sensitive one by no name), or in preview its guide. */
function interviewSubject(opened: OpenViewer): InterviewSubject {
  return opened.issue ? { name: opened.issue.name, sensitive: opened.issue.sensitive } : { name: opened.guide.title, sensitive: false };
}

function pageView(request: ViewerRequest, { target, opened, help, language }: Opened, page: NonNullable<ReturnType<typeof viewerPage>>, saved: boolean, state = opened.state): ViewerPageProps {
  return {
    title: opened.guide.title,
    language,
    documentTitle: interviewPageTitle(page, interviewSubject(opened), translator(language)),
    page,
    action: request.formAction ?? request.url.pathname + request.url.search,
    preview: target.preview,
    interviewId: opened.interviewId,
    saved,
    previewState: target.preview ? JSON.stringify(state) : null,
    rephrasable: rephrasableInputs(opened, page),
    changeNeedsPage: changeNeedsPage({ ...opened, state }),
    help,
    sensitive: opened.issue?.sensitive ?? false,
  };
}

function reviewView(request: ViewerRequest, { target, opened, language }: Opened, saved: boolean): ViewerReviewProps {
  return {
    review: viewerReview(opened),
    title: opened.guide.title,
    language,
    documentTitle: reviewTitle(interviewSubject(opened), translator(language)),
    action: request.formAction ?? request.url.pathname + request.url.search,
    preview: target.preview,
    interviewId: opened.interviewId,
    saved,
    previewState: target.preview ? JSON.stringify(opened.state) : null,
    sensitive: opened.issue?.sensitive ?? false,
  };
}

/** The page the interview is at: "Check your answers" while it is open, else the current page. */
function currentView(request: ViewerRequest, found: Opened, saved: boolean): ViewerView | null {
  if (reviewing(found.opened)) return reviewView(request, found, saved);
  const page = viewerPage(found.opened);
  return page ? pageView(request, found, page, saved) : null;
}

/**
 * A request of the interview page for its own copy of the viewer's page: the viewer's target (the user comes
 * from the session), and a form that posts to the interview page.
 */
function hostRequest(issueId: number, interviewId: string | null, session: Session | null, guideId: string | null = null): ViewerRequest {
  const url = new URL(`/viewer?${new URLSearchParams({ issueId: String(issueId), interviewId: interviewId ?? "", guideId: guideId ?? "" })}`, "http://viewer");
  return { url, session, inFrame: false, formAction: hostUrl(issueId, interviewId) };
}

/**
 * The page the interview is at, for the interview page: its title (which must name the step without script too)
 * and the page itself, shown in place until the frame takes over (with script, at the first step) or for good
 * (without script: no frame to scroll inside). Its form posts to the interview page (pressHostForm). Null when
 * the interview cannot be opened.
 */
export async function hostView(user: SessionUser, issueId: number, interviewId: string | null, guideId: string | null = null, db: Db = database()) {
  const target: ViewerTarget = { preview: false, issueId, interviewId, guideId };
  const opened = await openViewer(user, target, null, db);
  if (!opened) return null;
  const language = viewerLanguageOf(opened.language).code;
  const view = currentView(hostRequest(issueId, interviewId, null, guideId), { user, target, opened, help: await aiHelp(opened), language }, false);
  return view && !("outcome" in view) ? { title: view.documentTitle, view } : null;
}

/**
 * A button pressed on the interview page's own copy of the viewer's page (without script, and with script before
 * the frame has taken over). It does what a press in the frame does; a page that comes back (with its errors)
 * is shown in the interview page, under the site's header and breadcrumb, and posts there again. `guideId`: for
 * a new interview, the issue's guide in the person's language.
 */
export function pressHostForm(session: Session, issueId: number, interviewId: string | null, form: FormData, guideId: string | null = null, db: Db = database()): Promise<ViewerReply> {
  return pressViewerButton(hostRequest(issueId, interviewId, session, guideId), form, db);
}

/**
 * A page's form kept while its person was signed out, given back now they are signed in (app/expiry/): what was
 * typed is saved on the page it was typed on. Returns the interview's id (a first page creates it), or null
 * when the interview cannot be opened.
 */
export async function keepHostAnswers(user: SessionUser, issueId: number, interviewId: string | null, form: FormData, guideId: string | null = null, db: Db = database()): Promise<string | null> {
  const opened = await openViewer(user, { preview: false, issueId, interviewId, guideId }, null, db);
  return opened ? keepTypedAnswers(user, opened, form, db) : null;
}

/** The viewer address's issue and interview, for a form kept from the frame: null for a preview or a bad address. */
export function viewerInterviewOf(url: URL): { issueId: number; interviewId: string | null; hostPath: string } | null {
  const target = parseViewerTarget(url);
  if (!target || target.preview) return null;
  return { issueId: target.issueId, interviewId: target.interviewId, hostPath: hostUrl(target.issueId, target.interviewId) };
}

/** GET: the interview's current page (or its congratulations once it is completed). */
export async function showViewer(request: ViewerRequest, db: Db = database()): Promise<ViewerReply> {
  const found = await open(request, null, db);
  if ("status" in found) return found;
  const { opened, language } = found;
  const title = opened.guide.title;
  if (opened.issue && opened.status === "Completed") return outcome(200, title, { kind: "complete", href: hostUrl(opened.issue.id, opened.interviewId) }, language);
  const view = currentView(request, found, request.url.searchParams.get("saved") === "1");
  return view ? { status: 200, view } : viewerError(409, title, undefined, language);
}

/** POST: a button pressed on the viewer's form. */
export async function pressViewerButton(request: ViewerRequest, form: FormData, db: Db = database()): Promise<ViewerReply> {
  const carried = form.get("_state");
  const found = await open(request, typeof carried === "string" ? carried : null, db);
  if ("status" in found) return found;
  const { user, opened, language } = found;
  const title = opened.guide.title;
  const result = await pressButton(user, opened, form, found.target.preview, db);
  countInterviewStep(stepOutcome(result));
  switch (result.kind) {
    case "page": {
      if (!opened.issue) {
        // Preview: nothing is stored, so the next page is shown straight away with its state in the form.
        const next = currentView(request, { ...found, opened: { ...opened, state: result.state } }, true);
        return next ? { status: 200, view: next } : viewerError(409, title, undefined, language);
      }
      // A form aimed at the whole window (no script) gets a redirect to the interview page; one posted inside
      // the frame gets the next page, marked as following a save for the message layer.
      // The fragment moves focus to the new page's heading, as the message layer does in the frame.
      if (!request.inFrame) return { status: 302, location: `${hostUrl(opened.issue.id, result.interviewId)}#viewer-heading` };
      const next = `${viewerUrl({ id: opened.issue.id, guideId: opened.pin?.guideId ?? opened.issue.guideId }, result.interviewId, user.id)}&saved=1`;
      if (!request.fetched) return { status: 302, location: next };
      // The frame's script gets that page at once, as the GET after the redirect would show it (the interview
      // as just saved; its form posts to the next page's address, which names the interview once created).
      const saved = { ...opened, interviewId: result.interviewId, state: result.state, status: result.status };
      return showViewer({ ...request, url: new URL(next, request.url), opened: saved }, db);
    }
    case "detour":
      // An AI page takes the whole window (the button targets it), with or without script.
      return { status: 302, location: result.location };
    case "invalid":
      return { status: 400, view: pageView(request, found, result.page, false) };
    case "error":
      log.error(`the guide failed: ${result.message}`, { guide: title });
      return viewerError(409, title, result.message, language);
    case "special": {
      const special = specialOutcome(result, opened.issue?.id ?? null);
      if (special.kind === "save-logout") {
        const setCookie = [await endSession(request.session, db), await setSavedNotice(hostUrl(opened.issue!.id, result.interviewId))];
        return request.inFrame ? { ...outcome(200, title, special, language), setCookie } : { status: 302, location: "/", setCookie };
      }
      if (!request.inFrame && "href" in special && special.href) return { status: 302, location: special.href };
      return outcome(200, title, special, language);
    }
  }
}

/** What a press did, as the interview_steps_total metric counts it. */
function stepOutcome(result: PressResult): InterviewStepOutcome {
  if (result.kind === "page") return "next";
  if (result.kind !== "special") return result.kind;
  return result.target === "EXIT" ? "exit" : "finish";
}

function specialOutcome(result: Extract<PressResult, { kind: "special" }>, issueId: number | null): OutcomeView {
  if (issueId === null) return { kind: "preview", target: result.target, message: result.message, url: result.url };
  switch (result.target) {
    case "EXIT":
      return { kind: "save-logout" };
    case "SUCCESS":
      return { kind: "success", href: hostUrl(issueId, result.interviewId) };
    case "ASSEMBLE":
      return { kind: "assemble", href: hostUrl(issueId, result.interviewId) };
    case "ASSEMBLE-SUCCESS":
      return { kind: "assemble-success", href: hostUrl(issueId, result.interviewId) };
    case "FAIL":
      return { kind: "fail", url: result.url };
    default:
      return { kind: "message", message: result.message ?? "" };
  }
}
