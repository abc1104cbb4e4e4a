import { data, redirect } from "react-router";
import { A2J_DATES, questionLabel } from "~/a2j";
import { requireUser } from "~/auth/session.server";
import { getIssue, issueInLanguage } from "~/content/content.server";
import { countryCrumb, issueCrumb } from "~/content/language";
import { guideForPerson } from "~/guides/guides.server";
import { notFound, parseId } from "~/http.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { languageContext } from "~/request-context";
import { readAnswerFile } from "~/reuse/answer-file.server";
import { AnswerFileSummary, ANSWER_FILE_FIELD, OfferedAnswers, type OfferItem, problemMessage } from "~/reuse/reuse-views";
import { answersFromCarried, carriedAnswer, type OfferedAnswer, reusableAnswers } from "~/reuse/reuse.server";
import { addAnswersTo, draftInterviewOf, newInterviewOf, startInterviewWith, stillFitting } from "~/reuse/start.server";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";
import { QuickExit } from "~/ui/quick-exit";
import type { OpenViewer } from "~/viewer/viewer.server";
import type { Route } from "./+types/issues.$issueId.interviews.start";

// Starting an interview with answers from before (the person's other interviews, their profile) or from an answer
// file, each reviewed and ticked before use (issue 29); with an interview in the URL, answers from a file put
// into that interview. Without script: plain forms, the review carried in the ticked checkboxes.

/** The issue, and the new interview it would start (or the person's Draft interview the URL names); 404 otherwise. */
async function target(request: Request, params: Route.LoaderArgs["params"], user: { id: string; administrator: boolean }, language: string) {
  const issueId = parseId(params.issueId);
  if (issueId === null) notFound(request);
  const issue = await getIssue(issueId);
  if (!issue?.guideId) notFound(request);
  let opened: OpenViewer | null;
  if (params.interviewId) {
    if (!/^[0-9a-f-]{36}$/.test(params.interviewId)) notFound(request);
    opened = await draftInterviewOf(user, issue.id, params.interviewId);
  } else {
    const chosen = await guideForPerson(issue.guideId, language);
    opened = await newInterviewOf(user, issue.id, chosen?.guideId ?? null);
  }
  if (!opened) notFound(request);
  return { issue, opened };
}

function itemsOf(opened: OpenViewer, answers: OfferedAnswer[]): OfferItem[] {
  return answers.map((answer) => ({ carried: carriedAnswer(answer), question: questionLabel(opened.guide, answer.key), type: answer.type, values: answer.values, source: answer.source }));
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const language = context.get(languageContext);
  const { issue, opened } = await target(request, params, user, language);
  const named = await issueInLanguage(issue, language);
  const offered = params.interviewId ? [] : await reusableAnswers(user.id, opened.guide);
  return {
    issue: { id: issue.id, name: named.name, country: named.country, sensitive: issue.sensitive, lang: named.lang },
    continuing: Boolean(params.interviewId),
    interviewId: params.interviewId ?? null,
    dates: { ...(opened.issue?.country.dates ?? A2J_DATES), language: opened.language },
    offered: itemsOf(opened, offered),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { issue, opened } = await target(request, params, user, context.get(languageContext));
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "file") {
    const reading = await readAnswerFile(form.get("answerFile"), opened.guide);
    if (reading.ok) {
      return { review: itemsOf(opened, reading.fitting.map((answer) => ({ ...answer, source: { kind: "file" as const } }))) };
    }
    const messages = "refusal" in reading ? [messageRef(`reuse.file.${reading.refusal}`)] : reading.problems.map(problemMessage);
    return data({ refused: { messages, problems: !("refusal" in reading) } }, { status: 400 });
  }
  // "use" (the ticked answers) or "fresh" (none): checked again against the guide, whatever the form carried.
  const carried = intent === "use" ? form.getAll("use").filter((value): value is string => typeof value === "string") : [];
  const chosen = stillFitting(opened, answersFromCarried(carried));
  const interviewId = params.interviewId ? await addAnswersTo(user, opened, chosen) : await startInterviewWith(user, opened, chosen);
  throw redirect(`/issues/${issue.id}/interviews/${interviewId}`);
}

export default function StartInterview({ loaderData, actionData }: Route.ComponentProps) {
  const { issue, continuing, interviewId, dates, offered } = loaderData;
  const t = useT();
  const review = actionData && "review" in actionData ? actionData.review : null;
  const refused = actionData && "refused" in actionData ? actionData.refused : null;
  const here = `/issues/${issue.id}/interviews`;
  const title = review ? t.t("reuse.file.reviewTitle") : continuing ? t.t("reuse.continue.title") : t.t("reuse.title");
  return (
    <div className="page reuse">
      {issue.sensitive ? <QuickExit /> : null}
      <PageTitle title={title} errors={Boolean(refused)} />
      <Breadcrumb
        collapse
        crumbs={[
          { label: t.t("public.crumb.home"), href: "/" },
          countryCrumb(issue.country, t),
          issueCrumb(issue, t, `/issues/${issue.id}`),
          { label: continuing ? t.t("reuse.continue.title") : t.t("reuse.crumb") },
        ]}
      />
      {refused ? <AnswerFileSummary messages={refused.messages} problems={refused.problems} /> : null}
      <h1>{title}</h1>
      {review ? (
        <form method="post" className="form">
          <p>{t.t("reuse.file.reviewHint")}</p>
          <OfferedAnswers items={review} dates={dates} idPrefix="file-answer" />
          <p className="button-row">
            <button type="submit" name="intent" value="use" className="button">
              {t.t("reuse.use")}
            </button>
            <a className="button button--secondary" href={interviewId ? `${here}/${interviewId}/answer-file` : `${here}/start`}>
              {t.t("reuse.file.cancel")}
            </a>
          </p>
        </form>
      ) : (
        <>
          <p>{continuing ? t.t("reuse.continue.intro") : t.t("reuse.intro")}</p>
          {offered.length > 0 ? (
            <section aria-labelledby="offer-title">
              <h2 id="offer-title">{t.t("reuse.offer.title")}</h2>
              <form method="post" className="form">
                <OfferedAnswers items={offered} dates={dates} idPrefix="answer" />
                <p className="button-row">
                  <button type="submit" name="intent" value="use" className="button">
                    {t.t("reuse.use")}
                  </button>
                  <button type="submit" name="intent" value="fresh" className="button button--secondary">
                    {t.t("reuse.startFresh")}
                  </button>
                </p>
              </form>
            </section>
          ) : null}
          <section aria-labelledby="file-title">
            <h2 id="file-title">{t.t("reuse.file.title")}</h2>
            <form method="post" encType="multipart/form-data" className="form">
              <div className={`field${refused ? " field--invalid" : ""}`}>
                <label className="field__label" htmlFor={ANSWER_FILE_FIELD}>
                  {t.t("reuse.file.label")}
                </label>
                <p className="field__hint" id={`${ANSWER_FILE_FIELD}-hint`}>
                  {t.t("reuse.file.hint")}
                </p>
                {refused ? (
                  <p className="field__error" id={`${ANSWER_FILE_FIELD}-error`}>
                    {refused.problems ? t.t("reuse.file.refused", { count: refused.messages.length }) : t.message(refused.messages[0] ?? "")}
                  </p>
                ) : null}
                <input
                  id={ANSWER_FILE_FIELD}
                  type="file"
                  name="answerFile"
                  accept=".anx,.xml,.json,application/xml,text/xml,application/json"
                  className="field__input field__input--file"
                  aria-describedby={refused ? `${ANSWER_FILE_FIELD}-hint ${ANSWER_FILE_FIELD}-error` : `${ANSWER_FILE_FIELD}-hint`}
                  aria-invalid={refused ? true : undefined}
                />
              </div>
              <button type="submit" name="intent" value="file" className="button button--secondary">
                {t.t("reuse.file.check")}
              </button>
            </form>
          </section>
        </>
      )}
    </div>
  );
}
