import { data, redirect } from "react-router";
import { currentUser, endSession, sessionContext } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { type OutcomeView, ViewerOutcome } from "~/interviews/viewer-outcome";
import { ViewerPageView } from "~/interviews/viewer-page";
import { rephraseUrl } from "~/ai/rephrase-answer.server";
import { openViewer, parseViewerTarget, type PressResult, pressButton, rephrasableInputs, viewerPage, viewerUrl } from "~/interviews/viewer.server";
import type { Route } from "./+types/viewer";

// The viewer runs in the interview page's frame: no site header or footer, and only its message layer script.
export const handle = { bare: true, scripts: ["/scripts/viewer.js"] };

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data && "title" in data ? `${data.title} | Interview` : "Interview" }];
}

async function open(request: Request, context: Route.LoaderArgs["context"], carried: string | null = null) {
  const user = currentUser(context);
  if (!user) throw data({ outcome: { kind: "signed-out" } satisfies OutcomeView }, { status: 401 });
  const url = new URL(request.url);
  const target = parseViewerTarget(url);
  if (!target) notFound(request);
  const opened = await openViewer(user, target, carried);
  if (!opened) notFound(request);
  return { user, target, opened, action: url.pathname + url.search };
}

function hostUrl(issueId: number, interviewId: string | null) {
  return `/issues/${issueId}/interviews${interviewId ? `/${interviewId}` : ""}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { target, opened, action } = await open(request, context);
  const title = opened.guide.title;
  if (opened.issue && opened.status === "Completed") {
    return { title, outcome: { kind: "complete", href: hostUrl(opened.issue.id, opened.interviewId) } as OutcomeView };
  }
  const page = viewerPage(opened);
  if (!page) return data({ title, outcome: { kind: "error", message: "This interview cannot be shown." } as OutcomeView }, { status: 409 });
  const saved = new URL(request.url).searchParams.get("saved") === "1";
  const rephrasable = rephrasableInputs(opened, page);
  return { title, page, action, preview: target.preview, interviewId: opened.interviewId, saved, previewState: target.preview ? JSON.stringify(opened.state) : null, rephrasable };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const carried = typeof form.get("_state") === "string" ? (form.get("_state") as string) : null;
  const { user, target, opened, action } = await open(request, context, carried);
  const result = await pressButton(user, opened, form, target.preview);
  const title = opened.guide.title;
  const page = (view: Extract<PressResult, { kind: "invalid" }>["page"], status = 200, state = opened.state) =>
    data(
      {
        title,
        page: view,
        action,
        preview: target.preview,
        interviewId: opened.interviewId,
        saved: false,
        previewState: target.preview ? JSON.stringify(state) : null,
        rephrasable: rephrasableInputs(opened, view),
      },
      { status },
    );
  // A form aimed at the whole window (no script) gets a redirect; one posted inside the frame gets a page
  // that says what happened, for the message layer to pass on and with a link for the whole window.
  const inFrame = request.headers.get("Sec-Fetch-Dest") === "iframe";
  switch (result.kind) {
    case "page": {
      if (!opened.issue) {
        // Preview: nothing is stored, so the next page is shown straight away with its state in the form.
        const next = viewerPage({ ...opened, state: result.state });
        return next ? page(next, 200, result.state) : data({ title, outcome: { kind: "error", message: "This page cannot be shown." } as OutcomeView }, { status: 409 });
      }
      if (!inFrame) return redirect(hostUrl(opened.issue.id, result.interviewId));
      return redirect(`${viewerUrl({ id: opened.issue.id, guideId: opened.issue.guideId }, result.interviewId, user.id)}&saved=1`);
    }
    case "rephrase":
      // The rephrase screen takes the whole window (the button targets it), with or without script.
      return redirect(rephraseUrl(result));
    case "invalid":
      return page(result.page, 400);
    case "error":
      console.error(`[viewer] guide ${opened.guide.title}: ${result.message}`);
      return data({ title, outcome: { kind: "error", message: result.message } as OutcomeView }, { status: 409 });
    case "special": {
      const outcome = specialOutcome(result, opened.issue?.id ?? null);
      if (outcome.kind === "save-logout") {
        const headers = { "Set-Cookie": await endSession(context.get(sessionContext)) };
        return inFrame ? data({ title, outcome }, { headers }) : redirect("/", { headers });
      }
      if (!inFrame && "href" in outcome) return redirect(outcome.href);
      return { title, outcome };
    }
  }
}

function specialOutcome(result: { target: string; interviewId: string | null; url?: string; message?: string }, issueId: number | null): OutcomeView {
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

export default function Viewer({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  if ("outcome" in view && view.outcome) return <ViewerOutcome title={view.title} outcome={view.outcome} />;
  if (!("page" in view) || !view.page) return null;
  return (
    <ViewerPageView
      page={view.page}
      title={view.title}
      action={view.action}
      preview={view.preview}
      interviewId={view.interviewId}
      saved={view.saved}
      previewState={view.previewState}
      rephrasable={view.rephrasable}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const outcome = (error as { data?: { outcome?: OutcomeView } })?.data?.outcome;
  return <ViewerOutcome title="Interview" outcome={outcome ?? { kind: "error", message: "This interview cannot be shown." }} />;
}
