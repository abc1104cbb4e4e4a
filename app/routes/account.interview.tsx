import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { InterviewNoteText } from "~/help/help-views";
import { interviewNotes } from "~/help/shares.server";
import { noteWords } from "~/help/words";
import { InterviewTable } from "~/interviews/interview-table";
import { listInterviews } from "~/interviews/interviews.server";
import { parseListQuery } from "~/interviews/list";
import type { Route } from "./+types/account.interview";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const list = await listInterviews(user.id, parseListQuery(new URL(request.url)));
  return { list, notes: await interviewNotes(user.id, list.items.map((item) => item.id)) };
}

export default function MyInterviews({ loaderData: { list, notes } }: Route.ComponentProps) {
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
        <InterviewTable
          list={list}
          notes={Object.fromEntries(list.items.map((item) => [item.id, <InterviewNoteText key={item.id} note={notes[item.id]} interviewId={item.id} />]))}
          actions={Object.fromEntries(
            list.items.map((item) => [
              item.id,
              <a key={item.id} className="action-link" href={`/account/interview/${item.id}/help`}>
                {noteWords.getHelp}
                <span className="visually-hidden"> with {item.issueName}</span>
              </a>,
            ]),
          )}
        />
      )}
    </AccountPage>
  );
}
