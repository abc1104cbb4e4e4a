import { actorOf } from "~/administration/guard.server";
import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage } from "~/help/help-views";
import { cancelPrepared, findPrepared } from "~/help/prepared.server";
import { preparedWords } from "~/help/words";
import { notFound } from "~/http.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/help.prepared.$interviewId.cancel";

// Cancelling a prepared interview the person has not taken: asked once more, since its answers go with it.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = helperAtDesk(context, request);
  const prepared = await findPrepared(user.id, params.interviewId);
  if (!prepared || prepared.state === "claimed") notFound(request);
  return { prepared };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const helper = helperAtDesk(context, request);
  if (!(await cancelPrepared(helper.user, params.interviewId, actorOf(helper.user, context)))) notFound(request);
  return redirectWithToast("/help/prepared", { type: "success", message: preparedWords.cancelledToast });
}

export default function CancelPrepared({ loaderData: { prepared } }: Route.ComponentProps) {
  const name = `${prepared.person.firstName} ${prepared.person.lastName}`;
  return (
    <HelpDeskPage
      title={preparedWords.cancelTitle}
      trail={[
        { label: preparedWords.listTitle, href: "/help/prepared" },
        { label: `Interview for ${name}`, href: `/help/prepared/${prepared.interviewId}` },
      ]}
    >
      <p>
        {prepared.issueName}, for {name}.
      </p>
      <p>{preparedWords.cancelText}</p>
      <form method="post" className="button-row">
        <button type="submit" className="button button--danger">
          {preparedWords.cancelYes}
        </button>
        <a className="button button--secondary" href={`/help/prepared/${prepared.interviewId}`}>
          {preparedWords.cancelNo}
        </a>
      </form>
    </HelpDeskPage>
  );
}
