import { createContext, data, redirect } from "react-router";
import { requireUser, sessionContext } from "~/auth/session.server";
import { getIssue } from "~/content/content.server";
import { notFound, parseId } from "~/http.server";
import { findInterview } from "~/interviews/interviews.server";
import { createInterviewToken } from "~/viewer/token.server";
import { viewerUrl } from "~/viewer/viewer.server";
import { ViewerContent } from "~/viewer/viewer-document";
import { hostView, pressHostForm, type ViewerView } from "~/viewer/viewer-request.server";
import { Breadcrumb } from "~/ui/breadcrumb";
import { issueLabel, QuickExit } from "~/ui/quick-exit";
import { InterviewHelpNotice } from "~/help/help-views";
import { interviewPageHelp } from "~/help/prepared.server";
import { noteWords } from "~/help/words";
import type { Route } from "./+types/issues.$issueId.interviews";

// The host page speaks the message layer with the viewer in its frame (public/scripts/interview-host.js).
export const handle = { scripts: ["/scripts/interview-host.js"] };

export function meta({ data }: Route.MetaArgs) {
  // A sensitive issue's name stays out of the tab and the browser's history list (docs/decisions/0041).
  const named = data && !data.issue.sensitive ? `${data.issue.name}: interview | Legal Self-Help` : "Interview | Legal Self-Help";
  return [{ title: data?.title ?? named }];
}

/** What a button pressed on this page's copy of the viewer brought back to show here (a page with its errors…). */
const pressedContext = createContext<{ title: string | null; view: ViewerView } | null>(null);

/** The issue and the person's interview the URL names; 404 for anything else. */
async function hostTarget(request: Request, params: Route.LoaderArgs["params"], userId: string) {
  const issueId = parseId(params.issueId);
  if (issueId === null) notFound(request);
  const issue = await getIssue(issueId);
  if (!issue) notFound(request);
  const interview = params.interviewId ? await findInterview(userId, params.interviewId) : null;
  if (params.interviewId && (!interview || interview.issueId !== issue.id)) notFound(request);
  return { issue, interview };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { issue, interview } = await hostTarget(request, params, user.id);
  const help = interview ? await interviewPageHelp(user.id, interview.id) : null;
  const base = { issue: { id: issue.id, name: issue.name, country: issue.country, sensitive: issue.sensitive }, title: null as string | null, help };
  if (!issue.guideId) return { ...base, state: "unavailable" as const };
  if (interview?.status === "Completed") return { ...base, state: "completed" as const, interviewId: interview.id };
  const viewerSrc = viewerUrl({ id: issue.id, guideId: issue.guideId }, interview?.id ?? null, user.id);
  const current = context.get(pressedContext) ?? (await hostView(user, issue.id, interview?.id ?? null));
  return {
    ...base,
    // The step's page title, as the viewer's (the message layer keeps it up to date as the frame moves on).
    title: current?.title ?? null,
    state: "open" as const,
    viewerSrc,
    inline: current ? inPlace(current.view) : null,
    token: interview ? createInterviewToken(interview.id, user.id) : "",
    interviewId: interview?.id ?? null,
  };
}

/**
 * A button pressed on this page's copy of the viewer (without script, or before the frame has taken over): the
 * viewer's own press. Where the viewer redirects, so does this page; what it shows instead (the page with its
 * errors, an ending) is shown here, under the site's header and breadcrumb, by the loader that runs next.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { issue, interview } = await hostTarget(request, params, user.id);
  const here = `/issues/${issue.id}/interviews${interview ? `/${interview.id}` : ""}`;
  if (!issue.guideId || interview?.status === "Completed") throw redirect(here);
  const reply = await pressHostForm(context.get(sessionContext)!, issue.id, interview?.id ?? null, await request.formData());
  const headers = new Headers();
  for (const cookie of reply.setCookie ?? []) headers.append("Set-Cookie", cookie);
  if ("location" in reply) throw redirect(reply.location, { headers });
  context.set(pressedContext, { title: "documentTitle" in reply.view ? reply.view.documentTitle : null, view: reply.view });
  return data(null, { status: reply.status, headers });
}

/** The viewer's page as this page shows it: under the page's own h1 (the issue's name). */
function inPlace(view: ViewerView): ViewerView {
  return { ...view, headingLevel: 2 };
}

export default function InterviewHost({ loaderData }: Route.ComponentProps) {
  const { issue } = loaderData;
  return (
    <div className="page">
      {issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        collapse
        crumbs={[
          { label: "Home", href: "/" },
          { label: issue.country.name, href: `/?country=${issue.country.id}` },
          { label: issueLabel(issue), href: `/issues/${issue.id}` },
          { label: "Interview" },
        ]}
      />
      <h1 className="interview-host__title">{issue.sensitive ? "Your interview" : issue.name}</h1>
      {loaderData.help && "interviewId" in loaderData && loaderData.interviewId ? <InterviewHelpNotice help={loaderData.help} interviewId={loaderData.interviewId} /> : null}
      {loaderData.state === "unavailable" ? <p>The interview for this issue is not available yet. Please come back later.</p> : null}
      {loaderData.state === "completed" ? (
        <section className="congratulations" aria-labelledby="congratulations-title">
          <h2 id="congratulations-title">Congratulations</h2>
          <p>You have finished the interview. Your document is ready.</p>
          <p className="button-row">
            <a className="button" href={`/account/interview/${loaderData.interviewId}/download`}>
              Get My Document
            </a>
            <a className="button button--secondary" href="/account/dashboard">
              Go to My Account
            </a>
          </p>
          <form method="post" action={`/account/interview/${loaderData.interviewId}/correct`}>
            <p>
              Need to correct something? Your document stays as it is; a copy of your answers opens for you to change.{" "}
              <button type="submit" className="link-button">
                Change answers
              </button>
            </p>
          </form>
        </section>
      ) : null}
      {loaderData.state === "open" ? (
        <>
          {/* The page is shown here, at full size, as soon as this page arrives: without script for good (a
              frame cannot grow to its page), its form posting to this page. With script the frame loads
              it unseen and takes over at the first step, which then takes one round trip
              (public/scripts/interview-host.js; docs/decisions/0036-one-round-trip-per-step.md). */}
          {loaderData.inline ? (
            <div className="viewer-inline">
              <ViewerContent view={loaderData.inline} />
            </div>
          ) : null}
          <iframe
            className={loaderData.inline ? "viewer-frame viewer-frame--waiting" : "viewer-frame"}
            title={issue.sensitive ? "Interview" : `Interview: ${issue.name}`}
            data-src={loaderData.viewerSrc}
            height={300}
            data-token={loaderData.token || undefined}
            inert={loaderData.inline ? true : undefined}
          />
          {loaderData.interviewId && !loaderData.help?.preparingFor ? (
            <p className="link-line">
              <a href={`/account/interview/${loaderData.interviewId}/help`}>{noteWords.askForHelp}</a>: {noteWords.askForHelpHint}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

