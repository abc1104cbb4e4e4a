import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { InterviewNoteText } from "~/help/help-views";
import { interviewNotes } from "~/help/shares.server";
import { RichText, useT } from "~/i18n/react";
import { InterviewTable } from "~/interviews/interview-table";
import { listInterviews } from "~/interviews/interviews.server";
import { parseListQuery } from "~/interviews/list";
import { signingSummaries } from "~/signing/requests.server";
import type { Route } from "./+types/account.interview";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const list = await listInterviews(user.id, parseListQuery(new URL(request.url)));
  const [notes, signing] = await Promise.all([interviewNotes(user.id, list.items.map((item) => item.id)), signingSummaries(user.id)]);
  // Who has signed, who is waiting, who declined (issue 30): a line under the issue, to the signing page.
  return { list, notes, signing: Object.fromEntries(list.items.flatMap((item) => (signing.has(item.id) ? [[item.id, signing.get(item.id)!]] : []))) };
}

export default function MyInterviews({ loaderData: { list, notes, signing } }: Route.ComponentProps) {
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
          notes={Object.fromEntries(
            list.items.map((item) => {
              const signed = signing[item.id];
              return [
                item.id,
                <span key={item.id}>
                  <InterviewNoteText note={notes[item.id]} interviewId={item.id} />
                  {signed ? (
                    <a className="interviews__note" href={`/account/interview/${item.id}/sign`}>
                      {signed.complete
                        ? t("signing.list.complete")
                        : signed.declined
                          ? t("signing.list.declined")
                          : t("signing.list.progress", { signed: signed.signed, total: signed.signed + signed.waiting + signed.declined })}
                    </a>
                  ) : null}
                </span>,
              ];
            }),
          )}
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
