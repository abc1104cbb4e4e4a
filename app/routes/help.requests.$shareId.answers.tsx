import { actorOf } from "~/administration/guard.server";
import { recordAuditEvent } from "~/audit/audit.server";
import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage } from "~/help/help-views";
import { openRequest, recordView } from "~/help/shares.server";
import { notFound } from "~/http.server";
import { interviewAnswerSummary } from "~/viewer/viewer.server";
import { AnswerSummary } from "~/viewer/viewer-review";
import type { Route } from "./+types/help.requests.$shareId.answers";

// The shared answers, as the person's own "Check your answers" shows them (loop entries numbered, dates in the
// country's way), opened from the sealed interview for this request only, for the helper who took the request.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const helper = helperAtDesk(context, request);
  const found = await openRequest(helper.user.id, helper.limits, params.shareId);
  if (!found?.mine || !found.answers) notFound(request);
  const summary = await interviewAnswerSummary(found.ownerId, found.interviewId);
  if (!summary) notFound(request);
  await recordView(found, helper.user, "answers");
  await recordAuditEvent(actorOf(helper.user, context), { action: "help.answers-read", subject: `request ${found.id}`, details: { issue: found.issueName } });
  return { shareId: found.id, issueName: summary.issueName, steps: summary.steps };
}

export default function SharedAnswers({ loaderData }: Route.ComponentProps) {
  const { shareId, issueName, steps } = loaderData;
  return (
    <HelpDeskPage title={`Answers: ${issueName}`} trail={[{ label: `Request: ${issueName}`, href: `/help/requests/${shareId}` }]}>
      <AnswerSummary steps={steps} change={false} />
      <p className="account-back">
        <a href={`/help/requests/${shareId}`}>Back to the request</a>
      </p>
    </HelpDeskPage>
  );
}
