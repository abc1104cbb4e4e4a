import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { giveAnswersForTesting } from "~/guide-checks/given-answers.server";
import { notFound } from "~/http.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { redirectWithToast } from "~/ui/toast.server";
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

/** "Give a copy of my answers": a copy without who the person is becomes one of the guide's test scenarios. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const given = /^[0-9a-f-]{36}$/.test(params.interviewId) ? await giveAnswersForTesting(user.id, params.interviewId) : null;
  if (!given) notFound(request);
  const message = given === "given" ? "account.answers.give.thanks" : "account.answers.give.already";
  return redirectWithToast(`/account/interview/${params.interviewId}/answers`, { type: "success", message: messageRef(message) });
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
      <section aria-labelledby="give-answers">
        <h2 id="give-answers">{t("account.answers.give.title")}</h2>
        <p>{t("account.answers.give.intro")}</p>
        <form method="post">
          <button type="submit" className="button button--secondary">
            {t("account.answers.give.button")}
          </button>
        </form>
      </section>
    </AccountPage>
  );
}
