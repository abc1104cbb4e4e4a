import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { useT } from "~/i18n/react";
import { completedAnswers } from "~/viewer/viewer.server";
import { AnswerSummary } from "~/viewer/viewer-review";
import type { Route } from "./+types/account.interview.$interviewId.answers";

// A completed interview's answers, read-only: the same summary "Check your answers" showed before finishing.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const summary = /^[0-9a-f-]{36}$/.test(params.interviewId) ? await completedAnswers(user, params.interviewId) : null;
  if (!summary) notFound(request);
  return { ...summary, interviewId: params.interviewId };
}

export default function InterviewAnswers({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <AccountPage title={t("account.answers.title")} quickExit={loaderData.sensitive}>
      <p className="lead" translate="no">
        {loaderData.issueName}
      </p>
      <AnswerSummary steps={loaderData.steps} change={false} />
      <p className="button-row">
        <a className="button" href={`/account/interview/${loaderData.interviewId}/download`}>
          {t("account.answers.document")}
        </a>
        <a className="button button--secondary" href="/account/interview">
          {t("account.interviews.back")}
        </a>
      </p>
    </AccountPage>
  );
}
