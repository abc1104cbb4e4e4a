import { aiAvailable } from "~/ai/chat.server";
import { requireUser } from "~/auth/session.server";
import { getIssue } from "~/content/content.server";
import { notFound, parseId } from "~/http.server";
import { findInterview } from "~/interviews/interviews.server";
import { createInterviewToken } from "~/viewer/token.server";
import { viewerUrl } from "~/viewer/viewer.server";
import { hostView } from "~/viewer/viewer-request.server";
import { ViewerPageView } from "~/viewer/viewer-page";
import { ViewerReview } from "~/viewer/viewer-review";
import { Breadcrumb } from "~/ui/breadcrumb";
import { InterviewHelpNotice } from "~/help/help-views";
import { interviewPageHelp } from "~/help/prepared.server";
import { noteWords } from "~/help/words";
import type { Route } from "./+types/issues.$issueId.interviews";

// The host page speaks the message layer with the viewer in its frame (public/scripts/interview-host.js).
export const handle = { scripts: ["/scripts/interview-host.js"] };

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? (data.title ?? `${data.issue.name}: interview | Legal Self-Help`) : "Interview | Legal Self-Help" }];
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, "/auth/sign-in");
  const issueId = parseId(params.issueId);
  if (issueId === null) notFound(request);
  const issue = await getIssue(issueId);
  if (!issue) notFound(request);
  const interview = params.interviewId ? await findInterview(user.id, params.interviewId) : null;
  if (params.interviewId && (!interview || interview.issueId !== issue.id)) notFound(request);
  const help = interview ? await interviewPageHelp(user.id, interview.id) : null;
  const base = { issue: { id: issue.id, name: issue.name, country: issue.country }, title: null as string | null, help };
  if (!issue.guideId) return { ...base, state: "unavailable" as const };
  if (interview?.status === "Completed") return { ...base, state: "completed" as const, interviewId: interview.id };
  const viewerSrc = viewerUrl({ id: issue.id, guideId: issue.guideId }, interview?.id ?? null, user.id);
  const current = await hostView(user, issue.id, interview?.id ?? null, viewerSrc);
  return {
    ...base,
    // The step's page title, as the viewer's (the message layer keeps it up to date as the frame moves on).
    title: current?.title ?? null,
    state: "open" as const,
    viewerSrc,
    inline: current?.view ?? null,
    token: interview ? createInterviewToken(interview.id, user.id) : "",
    interviewId: interview?.id ?? null,
    // "Use a document I have" needs the AI.
    documentsRead: aiAvailable(),
  };
}

export default function InterviewHost({ loaderData }: Route.ComponentProps) {
  const { issue } = loaderData;
  return (
    <div className="page">
      <Breadcrumb
        crumbs={[
          { label: "Home", href: "/" },
          { label: issue.country.name, href: `/?country=${issue.country.id}` },
          { label: issue.name, href: `/issues/${issue.id}` },
          { label: "Interview" },
        ]}
      />
      <h1>{issue.name}</h1>
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
        </section>
      ) : null}
      {loaderData.state === "open" ? (
        <>
          {/* Without script a frame cannot grow to its page: the page is shown here at full size, and its form
              posts to the viewer, which sends the whole window back here. With script the frame takes over
              (public/scripts/interview-host.js sets its src and removes this; CSS hides it before that). */}
          {loaderData.inline ? (
            <div className="viewer-inline">
              {"review" in loaderData.inline ? <ViewerReview {...loaderData.inline} /> : <ViewerPageView {...loaderData.inline} />}
            </div>
          ) : null}
          <iframe
            className="viewer-frame"
            title={`Interview: ${issue.name}`}
            data-src={loaderData.viewerSrc}
            height={300}
            data-token={loaderData.token || undefined}
          />
          <p className="link-line">
            <a href={`/issues/${issue.id}/understand${loaderData.interviewId ? `?interview=${loaderData.interviewId}` : ""}`}>Understand my situation</a>:
            ask about it in your own words and see what our sources say.
          </p>
          {loaderData.interviewId && !loaderData.help?.preparingFor ? (
            <p className="link-line">
              <a href={`/account/interview/${loaderData.interviewId}/help`}>{noteWords.askForHelp}</a>: {noteWords.askForHelpHint}
            </p>
          ) : null}
          {loaderData.interviewId && loaderData.documentsRead ? (
            <p className="link-line">
              <a href={`/ai/document/${loaderData.interviewId}`}>Use a document I have</a>: answer this page's questions from a
              letter or form you received.
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

