import { actorOf } from "~/administration/guard.server";
import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage, When } from "~/help/help-views";
import { findPrepared, sendInvitation } from "~/help/prepared.server";
import { PreparedStatus } from "~/help/prepared-status";
import { preparedWords } from "~/help/words";
import { notFound } from "~/http.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/help.prepared.$interviewId";

// One interview the helper prepared: go on with it, invite the person (again), or cancel it; once the person has
// taken it, only that they did.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = helperAtDesk(context, request);
  const prepared = await findPrepared(user.id, params.interviewId);
  if (!prepared) notFound(request);
  return { prepared };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const helper = helperAtDesk(context, request);
  const prepared = await findPrepared(helper.user.id, params.interviewId);
  if (!prepared || prepared.state === "claimed") notFound(request);
  const sent = await sendInvitation(helper.user, prepared.interviewId, actorOf(helper.user, context));
  if (!sent) notFound(request);
  return redirectWithToast(`/help/prepared/${prepared.interviewId}`, { type: "success", message: preparedWords.invitedToast(prepared.person.email) });
}

export default function PreparedInterview({ loaderData: { prepared } }: Route.ComponentProps) {
  const name = `${prepared.person.firstName} ${prepared.person.lastName}`;
  return (
    <HelpDeskPage title={`Interview for ${name}`} trail={[{ label: preparedWords.listTitle, href: "/help/prepared" }]}>
      <dl className="summary-list">
        <div>
          <dt>Issue</dt>
          <dd>{prepared.issueName}</dd>
        </div>
        <div>
          <dt>For</dt>
          <dd>
            {name}, {prepared.person.email}
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <When at={prepared.createdAt} withTime />
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <PreparedStatus prepared={prepared} />
          </dd>
        </div>
      </dl>
      {prepared.state === "claimed" ? (
        <p>{preparedWords.claimedText}</p>
      ) : (
        <>
          <p>
            <a className="button button--secondary" href={`/issues/${prepared.issueId}/interviews/${prepared.interviewId}`}>
              {preparedWords.continue}
            </a>
          </p>
          <form method="post" className="form">
            <p>{preparedWords.inviteHint}</p>
            <button type="submit" className="button">
              {prepared.state === "not-sent" ? preparedWords.invite : preparedWords.inviteAgain}
            </button>
          </form>
          <p className="link-line">
            <a href={`/help/prepared/${prepared.interviewId}/cancel`}>{preparedWords.cancel}</a>
          </p>
        </>
      )}
    </HelpDeskPage>
  );
}
