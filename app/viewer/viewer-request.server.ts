import { rephraseUrl } from "~/ai/rephrase";
import { endSession, type Session, type SessionUser } from "~/auth/session.server";
import { setSavedNotice } from "~/interviews/saved-notice.server";
import type { OutcomeView } from "./viewer-outcome";
import type { ViewerPageProps } from "./viewer-page";
import type { ViewerReviewProps } from "./viewer-review";
import { type InterviewSubject, interviewPageTitle, reviewTitle } from "./titles";
import {
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

/**
 * What the viewer shows: a page of the interview, or what happened instead (ended, saved and signed out, an
 * error…), under the guide's title when the interview could be opened.
 */
export type ViewerView = { title: string | null; outcome: OutcomeView } | ViewerPageProps | ViewerReviewProps;

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
  /** Whether the browser loads the answer into the interview frame (Sec-Fetch-Dest: iframe). */
  inFrame: boolean;
  /** What the URL opens, when it was read with the session (loadViewerRequest); else it is read here. */
  opened?: OpenViewer | null;
}

/**
 * The session of a request to the viewer, with the interview its URL names read in the same query (the
 * viewer's every page step needs both): `stale` as loadSession says; `request` is ready for showViewer and
 * pressViewerButton.
 */
export async function loadViewerRequest(cookie: string | null, url: URL, inFrame: boolean): Promise<{ stale: boolean; request: ViewerRequest }> {
  const { session, stale, opened } = await loadSessionAndInterview(cookie, parseViewerTarget(url));
  return { stale, request: { url, session, inFrame, opened } };
}

const outcome = (status: number, title: string | null, view: OutcomeView): ViewerReply => ({ status, view: { title, outcome: view } });
export const viewerError = (status: number, title: string | null = null, message = "This interview cannot be shown.") =>
  outcome(status, title, { kind: "error", message });

function hostUrl(issueId: number, interviewId: string | null) {
  return `/issues/${issueId}/interviews${interviewId ? `/${interviewId}` : ""}`;
}

type Opened = { user: SessionUser; target: ViewerTarget; opened: OpenViewer };

async function open(request: ViewerRequest, carried: string | null = null): Promise<Opened | ViewerReply> {
  const user = request.session?.user ?? null;
  if (!user) return outcome(401, null, { kind: "signed-out" });
  const target = parseViewerTarget(request.url);
  const opened = target && (request.opened !== undefined ? request.opened : await openViewer(user, target, carried));
  if (!target || !opened) return viewerError(404);
  return { user, target, opened };
}

/** What the titles name the interview by: its issue (a sensitive one by no name), or in preview its guide. */
function interviewSubject(opened: OpenViewer): InterviewSubject {
  return opened.issue ? { name: opened.issue.name, sensitive: opened.issue.sensitive } : { name: opened.guide.title, sensitive: false };
}

function pageView(request: ViewerRequest, { target, opened }: Opened, page: NonNullable<ReturnType<typeof viewerPage>>, saved: boolean, state = opened.state): ViewerPageProps {
  return {
    title: opened.guide.title,
    documentTitle: interviewPageTitle(page, interviewSubject(opened)),
    page,
    action: request.url.pathname + request.url.search,
    preview: target.preview,
    interviewId: opened.interviewId,
    saved,
    previewState: target.preview ? JSON.stringify(state) : null,
    rephrasable: rephrasableInputs(opened, page),
    sensitive: opened.issue?.sensitive ?? false,
  };
}

function reviewView(request: ViewerRequest, { target, opened }: Opened, saved: boolean): ViewerReviewProps {
  return {
    review: viewerReview(opened),
    title: opened.guide.title,
    documentTitle: reviewTitle(interviewSubject(opened)),
    action: request.url.pathname + request.url.search,
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
 * The page the interview is at, for the host page: its title (which must name the step without script too)
 * and the page itself, which the host shows at full size when scripts are off (no frame to scroll inside).
 * Null when the interview cannot be opened.
 */
export async function hostView(user: SessionUser, issueId: number, interviewId: string | null, viewerSrc: string) {
  const target: ViewerTarget = { preview: false, issueId, interviewId };
  const opened = await openViewer(user, target);
  if (!opened) return null;
  const view = currentView({ url: new URL(viewerSrc, "http://viewer"), session: null, inFrame: false }, { user, target, opened }, false);
  return view && !("outcome" in view) ? { title: view.documentTitle, view: { ...view, headingLevel: 2 as const } } : null;
}

/** GET: the interview's current page (or its congratulations once it is completed). */
export async function showViewer(request: ViewerRequest): Promise<ViewerReply> {
  const found = await open(request);
  if ("status" in found) return found;
  const { opened } = found;
  const title = opened.guide.title;
  if (opened.issue && opened.status === "Completed") return outcome(200, title, { kind: "complete", href: hostUrl(opened.issue.id, opened.interviewId) });
  const view = currentView(request, found, request.url.searchParams.get("saved") === "1");
  return view ? { status: 200, view } : viewerError(409, title);
}

/** POST: a button pressed on the viewer's form. */
export async function pressViewerButton(request: ViewerRequest, form: FormData): Promise<ViewerReply> {
  const carried = form.get("_state");
  const found = await open(request, typeof carried === "string" ? carried : null);
  if ("status" in found) return found;
  const { user, opened } = found;
  const title = opened.guide.title;
  const result = await pressButton(user, opened, form, found.target.preview);
  switch (result.kind) {
    case "page": {
      if (!opened.issue) {
        // Preview: nothing is stored, so the next page is shown straight away with its state in the form.
        const next = currentView(request, { ...found, opened: { ...opened, state: result.state } }, true);
        return next ? { status: 200, view: next } : viewerError(409, title);
      }
      // A form aimed at the whole window (no script) gets a redirect to the interview page; one posted inside
      // the frame gets the next page, marked as following a save for the message layer.
      // The fragment moves focus to the new page's heading, as the message layer does in the frame.
      if (!request.inFrame) return { status: 302, location: `${hostUrl(opened.issue.id, result.interviewId)}#viewer-heading` };
      return { status: 302, location: `${viewerUrl({ id: opened.issue.id, guideId: opened.issue.guideId }, result.interviewId, user.id)}&saved=1` };
    }
    case "rephrase":
      // The rephrase screen takes the whole window (the button targets it), with or without script.
      return { status: 302, location: rephraseUrl(result) };
    case "invalid":
      return { status: 400, view: pageView(request, found, result.page, false) };
    case "error":
      console.error(`[viewer] guide ${title}: ${result.message}`);
      return viewerError(409, title, result.message);
    case "special": {
      const special = specialOutcome(result, opened.issue?.id ?? null);
      if (special.kind === "save-logout") {
        const setCookie = [await endSession(request.session), await setSavedNotice()];
        return request.inFrame ? { ...outcome(200, title, special), setCookie } : { status: 302, location: "/", setCookie };
      }
      if (!request.inFrame && "href" in special) return { status: 302, location: special.href };
      return outcome(200, title, special);
    }
  }
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
