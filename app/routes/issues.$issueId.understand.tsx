import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { data, Form } from "react-router";
import { aiAvailable } from "~/ai/chat.server";
import { type Statement, understandSchema } from "~/ai/understand";
import { interviewToOffer, type ShownPassage, understandSituation } from "~/ai/understand-page.server";
import type { Explanation } from "~/ai/understand.server";
import { requireUser } from "~/auth/session.server";
import { config } from "~/config.server";
import { getIssue, issueInLanguage } from "~/content/content.server";
import { notFound, parseId } from "~/http.server";
import { clientAddressContext, languageContext } from "~/request-context";
import { Breadcrumb } from "~/ui/breadcrumb";
import { QuickExit } from "~/ui/quick-exit";
import { issueCrumb, theirs } from "~/content/language";
import { RichText, useT } from "~/i18n/react";
import type { Translator } from "~/i18n/translator";
import { CheckboxField, ErrorSummary, resultShowsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import { takeKept, userOrKeep } from "~/expiry/keep.server";
import { KeptNotice } from "~/ui/kept-notice";
import type { Route } from "./+types/issues.$issueId.understand";

// A small script of its own: a pending state while the AI answers.
export const handle = { scripts: ["/scripts/pending-form.js"], sessionTimeout: true };

async function open(request: Request, params: Route.LoaderArgs["params"], context: Route.LoaderArgs["context"]) {
  const user = requireUser(context, request);
  const id = parseId(params.issueId);
  const issue = id === null ? null : await getIssue(id);
  if (!issue) notFound(request);
  const named = new URL(request.url).searchParams.get("interview");
  const interviewId = await interviewToOffer(user, issue, named);
  const shown = await issueInLanguage(issue, context.get(languageContext));
  const page = {
    issue: { id: issue.id, name: shown.name, country: { id: issue.country.id, name: shown.country.name, lang: shown.country.lang }, sensitive: issue.sensitive, lang: shown.lang },
    interviewId,
    available: aiAvailable(),
    redacts: config().AI_REDACT_PERSONAL_DATA,
    waitSeconds: Math.ceil((config().AI_TIMEOUT_MS * 2) / 1000),
  };
  return { user, issue, page };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { page } = await open(request, params, context);
  // Back from signing in again, after this form was posted when the session had expired (app/expiry/): what was
  // typed is shown again, to send again.
  const kept = await takeKept(context, request, "understand");
  const question = kept?.get("question");
  return { ...page, kept: kept ? { question: typeof question === "string" ? question : "", useAnswers: kept.get("useAnswers") === "on" } : null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // A form posted after the session expired is kept, and the person signs in again (app/expiry/).
  await userOrKeep(context, request, "understand", null);
  const { user, issue, page } = await open(request, params, context);
  const submission = parseWithZod(await request.formData(), { schema: understandSchema });
  if (submission.status !== "success") return data({ ...page, problem: null, reply: submission.reply(), result: null }, { status: 400 });
  const { question, useAnswers } = submission.value;
  const outcome = await understandSituation(user, context.get(clientAddressContext), issue, {
    question,
    interviewId: useAnswers && page.interviewId ? page.interviewId : null,
    language: context.get(languageContext),
  });
  if (!outcome.ok) {
    const reply = submission.reply(outcome.reason === "nothing-to-ask" ? { fieldErrors: { question: [outcome.message] } } : undefined);
    return data({ ...page, problem: outcome.reason === "limited" ? outcome.message : null, reply, result: null }, { status: outcome.reason === "limited" ? 429 : 400 });
  }
  const result = { explanation: outcome.explanation, passages: outcome.passages, usedAnswers: outcome.usedAnswers };
  // The question stays in the form, for another try or a follow-up.
  return { ...page, problem: null, reply: submission.reply(), result };
}

export default function Understand({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? { ...loaderData, problem: null, reply: null, result: null };
  const kept = actionData ? null : loaderData.kept;
  const { issue, result } = view;
  const t = useT();
  const interviewHref = view.interviewId ? `/issues/${issue.id}/interviews/${view.interviewId}` : null;
  // The issue's and the country's names are the organisation's, inside a sentence of ours.
  // (A tag is named apart from its placeholder: a tag of the same name would stand in for the value.)
  const named = {
    issueName: (words: ReactNode[]) => <span {...theirs(t, issue.lang.name)}>{words}</span>,
    countryName: (words: ReactNode[]) => <span {...theirs(t, issue.country.lang.name)}>{words}</span>,
  };
  const intro = issue.sensitive
    ? view.available
      ? "ai.understand.introAiSensitive"
      : "ai.understand.introSearchSensitive"
    : view.available
      ? "ai.understand.introAi"
      : "ai.understand.introSearch";
  return (
    <div className="page page--narrow">
      <PageTitle title={t.t("ai.understand.title")} errors={Boolean(view.problem) || resultShowsErrors(view.reply)} />
      {issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: t.t("public.crumb.home"), href: "/" },
          issueCrumb(issue, t, `/issues/${issue.id}`),
          { label: t.t("ai.understand.title") },
        ]}
      />
      <h1>{t.t("ai.understand.title")}</h1>
      {kept ? <KeptNotice /> : null}
      <p>
        <RichText id={intro} values={{ issue: issue.name, country: issue.country.name }} tags={named} />
      </p>
      <LegalInformationNotice />
      {result ? <Result result={result} t={t} /> : null}
      <AskForm view={view} interviewHref={interviewHref} t={t} kept={kept} />
    </div>
  );
}

function AskForm({
  view,
  interviewHref,
  t,
  kept,
}: {
  view: { issue: { id: number; name: string; sensitive: boolean; lang: { name: string } }; available: boolean; redacts: boolean; waitSeconds: number; interviewId: string | null; problem: string | null; reply: SubmissionResult<string[]> | null; result: unknown };
  interviewHref: string | null;
  t: Translator;
  kept: { question: string; useAnswers: boolean } | null;
}) {
  const [form, fields] = useForm({
    id: "understand",
    lastResult: view.reply,
    defaultValue: kept ? { question: kept.question, useAnswers: kept.useAnswers ? "on" : undefined } : undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: understandSchema }),
  });
  const redaction = t.t("ai.understand.redaction");
  return (
    <>
      <h2 id="ask-title">{view.result ? t.t("ai.understand.askAnother") : t.t("ai.understand.ask")}</h2>
      <ErrorSummary errors={summaryErrors([fields.question, t.t("ai.understand.question")])} formErrors={view.problem ? [view.problem] : form.errors} />
      <Form
        method="post"
        {...getFormProps(form)}
        noValidate
        className="form"
        aria-labelledby="ask-title"
        data-pending={view.available ? t.t("ai.understand.pendingAi", { seconds: view.waitSeconds }) : t.t("ai.understand.pendingSearch")}
      >
        <TextAreaField
          field={fields.question}
          label={t.t("ai.understand.question")}
          required={false}
          rows={5}
          hint={
            <>
              <ExampleQuestion issue={view.issue} t={t} />
              {view.redacts && view.available ? ` ${redaction}` : ""}
            </>
          }
        />
        {view.interviewId ? (
          <CheckboxField
            field={fields.useAnswers}
            label={t.t("ai.understand.useAnswers")}
            hint={
              view.available
                ? `${t.t("ai.understand.useAnswersAi")}${view.redacts ? ` ${redaction}` : ""}`
                : t.t("ai.understand.useAnswersSearch")
            }
          />
        ) : null}
        <div className="button-row">
          <button type="submit" className="button">
            {view.available ? t.t("ai.understand.explain") : t.t("ai.understand.search")}
          </button>
          <a className="button button--secondary" href={interviewHref ?? `/issues/${view.issue.id}`}>
            {interviewHref ? t.t("ai.backToInterview") : t.t("ai.understand.backToIssue")}
          </a>
        </div>
        <p className="pending-status" role="status" data-pending-status="" />
      </Form>
    </>
  );
}

/** The question's example, about the issue the person is on (not another issue's situation). */
function ExampleQuestion({ issue, t }: { issue: { name: string; lang: { name: string } }; t: Translator }) {
  const name = `${issue.name.charAt(0).toLocaleLowerCase(issue.lang.name)}${issue.name.slice(1)}`;
  return <RichText id="ai.understand.example" values={{ issue: name }} tags={{ issueName: (words) => <span {...theirs(t, issue.lang.name)}>{words}</span> }} />;
}

function LegalInformationNotice() {
  return (
    <p className="notice" id="legal-information">
      <RichText
        id="ai.understand.legalInformation"
        tags={{ strong: (words) => <strong>{words}</strong>, link: (words) => <a href="/support/contact-us">{words}</a> }}
      />
    </p>
  );
}

type ResultView = { explanation: Explanation; passages: ShownPassage[]; usedAnswers: boolean };

function Result({ result, t }: { result: ResultView; t: Translator }) {
  const { explanation, passages } = result;
  const cited = explanation.ok ? new Set(explanation.statements.flatMap((statement) => statement.citations)) : null;
  const listed = cited ? passages.filter((passage) => cited.has(passage.number)) : passages;
  return (
    <section className="understand" aria-labelledby="result-title">
      {/* Nothing found and no explanation: the message says so, under no heading that promises passages. */}
      <h2 id="result-title">{explanation.ok ? t.t("ai.understand.sourcesSay") : listed.length ? t.t("ai.understand.passagesFound") : t.t("ai.understand.nothingToShow")}</h2>
      {explanation.ok ? (
        <>
          <Statements title={t.t("ai.understand.situation")} statements={explanation.statements.filter((s) => s.section === "situation")} t={t} />
          <Statements title={t.t("ai.understand.options")} statements={explanation.statements.filter((s) => s.section === "options")} t={t} />
          <p className="muted">{t.t("ai.understand.writtenByAi")}</p>
          {/* The reading-level check (Flesch-Kincaid) is made for English: elsewhere the page says it was not run. */}
          {explanation.readingGrade === null && t.lang !== "en" && t.lang !== "en-XA" ? <p className="muted">{t.t("ai.understand.readingNotChecked")}</p> : null}
        </>
      ) : (
        <div className="notice notice--warning" role="status">
          <p>{t.message(explanation.message)}</p>
        </div>
      )}
      {listed.length ? (
        <>
          <h3>{explanation.ok ? t.t("ai.understand.sources") : t.t("ai.understand.sourcesSay")}</h3>
          <ol className="understand__sources">
            {listed.map((passage) => (
              <li key={passage.passageId} id={`source-${passage.number}`} value={passage.number}>
                <p className="understand__source-title">
                  <a href={passage.sourceUrl} rel="noopener noreferrer external" {...theirs(t, passage.language)}>
                    {passage.sourceTitle}
                  </a>
                  {passage.heading ? (
                    <span className="muted">
                      {" "}
                      — <span {...theirs(t, passage.language)}>{passage.heading}</span>
                    </span>
                  ) : null}
                </p>
                <blockquote className="understand__passage" {...theirs(t, passage.language)}>
                  {passage.text}
                </blockquote>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}

function Statements({ title, statements, t }: { title: string; statements: Statement[]; t: Translator }) {
  if (!statements.length) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul className="understand__statements">
        {statements.map((statement, index) => (
          <li key={index}>
            {/* The AI's words, from the organisation's sources: in the sources' language. */}
            <span {...theirs(t)}>{statement.text}</span>{" "}
            {statement.citations.map((number) => (
              <a key={number} className="citation" href={`#source-${number}`} aria-label={t.t("ai.understand.sourceLabel", { number })}>
                [{number}]
              </a>
            ))}
          </li>
        ))}
      </ul>
    </>
  );
}
