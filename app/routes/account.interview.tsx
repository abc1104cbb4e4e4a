import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { InterviewNoteText } from "~/help/help-views";
import { interviewNotes } from "~/help/shares.server";
import { RichText, useT } from "~/i18n/react";
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
  const { t } = useT();
  return (
    <AccountPage title={t("account.interviews.title")}>
      {list.total === 0 ? (
        <div className="empty-state">
          <p>{t("account.interviews.none")}</p>
          <p>
            <a className="button" href="/">
              {t("account.interviews.start")}
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
                <RichText
                  id="account.interviews.getHelp"
                  values={{ issue: item.issueName }}
                  tags={{ hidden: (words) => <span className="visually-hidden">{words}</span> }}
                />
              </a>,
            ]),
          )}
        />
      )}
    </AccountPage>
  );
}
