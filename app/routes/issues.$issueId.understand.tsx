import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { aiAvailable } from "~/ai/chat.server";
import { type Statement, understandSchema } from "~/ai/understand";
import { interviewToOffer, type ShownPassage, understandSituation } from "~/ai/understand-page.server";
import type { Explanation } from "~/ai/understand.server";
import { requireUser } from "~/auth/session.server";
import { config } from "~/config.server";
import { getIssue } from "~/content/content.server";
import { notFound, parseId } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { Breadcrumb } from "~/ui/breadcrumb";
import { issueLabel, QuickExit } from "~/ui/quick-exit";
import { CheckboxField, ErrorSummary, resultShowsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/issues.$issueId.understand";

// A small script of its own: a pending state while the AI answers.
export const handle = { scripts: ["/scripts/pending-form.js"] };

async function open(request: Request, params: Route.LoaderArgs["params"], context: Route.LoaderArgs["context"]) {
  const user = requireUser(context, request);
  const id = parseId(params.issueId);
  const issue = id === null ? null : await getIssue(id);
  if (!issue) notFound(request);
  const named = new URL(request.url).searchParams.get("interview");
  const interviewId = await interviewToOffer(user, issue, named);
  const page = {
    issue: { id: issue.id, name: issue.name, country: { id: issue.country.id, name: issue.country.name }, sensitive: issue.sensitive },
    interviewId,
    available: aiAvailable(),
    redacts: config().AI_REDACT_PERSONAL_DATA,
    waitSeconds: Math.ceil((config().AI_TIMEOUT_MS * 2) / 1000),
  };
  return { user, issue, page };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return (await open(request, params, context)).page;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, issue, page } = await open(request, params, context);
  const submission = parseWithZod(await request.formData(), { schema: understandSchema });
  if (submission.status !== "success") return data({ ...page, problem: null, reply: submission.reply(), result: null }, { status: 400 });
  const { question, useAnswers } = submission.value;
  const outcome = await understandSituation(user, context.get(clientAddressContext), issue, {
    question,
    interviewId: useAnswers && page.interviewId ? page.interviewId : null,
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
  const { issue, result } = view;
  const interviewHref = view.interviewId ? `/issues/${issue.id}/interviews/${view.interviewId}` : null;
  return (
    <div className="page page--narrow">
      <PageTitle title="Understand my situation" errors={Boolean(view.problem) || resultShowsErrors(view.reply)} />
      {issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: "Home", href: "/" },
          { label: issueLabel(issue), href: `/issues/${issue.id}` },
          { label: "Understand my situation" },
        ]}
      />
      <h1>Understand my situation</h1>
      <p>
        Ask about your situation in your own words. We look in our sources on {issue.sensitive ? "this issue" : issue.name} in {issue.country.name}
        {view.available ? " and an AI explains what they say in plain language, citing each source it uses." : " and show you what they say."}
      </p>
      <LegalInformationNotice />
      {result ? <Result result={result} /> : null}
      <AskForm view={view} interviewHref={interviewHref} />
    </div>
  );
}

function AskForm({
  view,
  interviewHref,
}: {
  view: { issue: { id: number; name: string }; available: boolean; redacts: boolean; waitSeconds: number; interviewId: string | null; problem: string | null; reply: SubmissionResult<string[]> | null; result: unknown };
  interviewHref: string | null;
}) {
  const [form, fields] = useForm({
    id: "understand",
    lastResult: view.reply,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: understandSchema }),
  });
  const redaction = " Emails, phone numbers, identity numbers and your name are replaced with placeholders before anything is sent to the AI.";
  return (
    <>
      <h2 id="ask-title">{view.result ? "Ask another question" : "Ask about your situation"}</h2>
      <ErrorSummary errors={summaryErrors([fields.question, "Your question"])} formErrors={view.problem ? [view.problem] : form.errors} />
      <Form
        method="post"
        {...getFormProps(form)}
        noValidate
        className="form"
        aria-labelledby="ask-title"
        data-pending={
          view.available
            ? `We are looking in our sources and the AI is writing an explanation. This can take up to ${view.waitSeconds} seconds.`
            : "We are looking in our sources."
        }
      >
        <TextAreaField
          field={fields.question}
          label="Your question"
          required={false}
          rows={5}
          hint={`For example: “${exampleQuestion(view.issue.name)}”${view.redacts && view.available ? redaction : ""}`}
        />
        {view.interviewId ? (
          <CheckboxField
            field={fields.useAnswers}
            label="Also use my answers so far from my interview on this issue"
            hint={
              view.available
                ? `Your answers are sent to the AI only if you tick this.${view.redacts ? redaction : ""}`
                : "Your answers are used to search our sources; nothing is sent anywhere."
            }
          />
        ) : null}
        <div className="button-row">
          <button type="submit" className="button">
            {view.available ? "Explain" : "Search our sources"}
          </button>
          <a className="button button--secondary" href={interviewHref ?? `/issues/${view.issue.id}`}>
            {interviewHref ? "Back to the interview" : "Back to the issue"}
          </a>
        </div>
        <p className="pending-status" role="status" data-pending-status="" />
      </Form>
    </>
  );
}

/** The question's example, about the issue the person is on (not another issue's situation). */
function exampleQuestion(issueName: string): string {
  return `What are my options with ${issueName.charAt(0).toLowerCase()}${issueName.slice(1)}, and what should I do first?`;
}

function LegalInformationNotice() {
  return (
    <p className="notice" id="legal-information">
      <strong>This is legal information, not legal advice.</strong> For advice about your own case,{" "}
      <a href="/support/contact-us">contact us</a>.
    </p>
  );
}

type ResultView = { explanation: Explanation; passages: ShownPassage[]; usedAnswers: boolean };

function Result({ result }: { result: ResultView }) {
  const { explanation, passages } = result;
  const cited = explanation.ok ? new Set(explanation.statements.flatMap((statement) => statement.citations)) : null;
  const listed = cited ? passages.filter((passage) => cited.has(passage.number)) : passages;
  return (
    <section className="understand" aria-labelledby="result-title">
      {/* Nothing found and no explanation: the message says so, under no heading that promises passages. */}
      <h2 id="result-title">{explanation.ok ? "What our sources say" : listed.length ? "Passages found" : "Nothing to show"}</h2>
      {explanation.ok ? (
        <>
          <Statements title="Your situation" statements={explanation.statements.filter((s) => s.section === "situation")} />
          <Statements title="Options people in this situation usually have" statements={explanation.statements.filter((s) => s.section === "options")} />
          <p className="muted">Written by an AI from the sources below. It can be wrong: check each statement against its source.</p>
        </>
      ) : (
        <div className="notice notice--warning" role="status">
          <p>{explanation.message}</p>
        </div>
      )}
      {listed.length ? (
        <>
          <h3>{explanation.ok ? "Sources" : "What our sources say"}</h3>
          <ol className="understand__sources">
            {listed.map((passage) => (
              <li key={passage.passageId} id={`source-${passage.number}`} value={passage.number}>
                <p className="understand__source-title">
                  <a href={passage.sourceUrl} rel="noopener noreferrer external">
                    {passage.sourceTitle}
                  </a>
                  {passage.heading ? <span className="muted"> — {passage.heading}</span> : null}
                </p>
                <blockquote className="understand__passage">{passage.text}</blockquote>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}

function Statements({ title, statements }: { title: string; statements: Statement[] }) {
  if (!statements.length) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul className="understand__statements">
        {statements.map((statement, index) => (
          <li key={index}>
            {statement.text}{" "}
            {statement.citations.map((number) => (
              <a key={number} className="citation" href={`#source-${number}`} aria-label={`Source ${number}`}>
                [{number}]
              </a>
            ))}
          </li>
        ))}
      </ul>
    </>
  );
}
