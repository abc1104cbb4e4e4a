import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { InterviewTable } from "~/interviews/interview-table";
import { listInterviews } from "~/interviews/interviews.server";
import { parseListQuery } from "~/interviews/list";
import type { Route } from "./+types/account.interview";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { list: await listInterviews(user.id, parseListQuery(new URL(request.url))) };
}

export default function MyInterviews({ loaderData: { list } }: Route.ComponentProps) {
  return (
    <AccountPage title="My interviews">
      {list.total === 0 ? (
        <div className="empty-state">
          <p>You have no interviews yet.</p>
          <p>
            <a className="button" href="/">
              Choose an issue to start an interview
            </a>
          </p>
        </div>
      ) : (
        <InterviewTable list={list} />
      )}
    </AccountPage>
  );
}
