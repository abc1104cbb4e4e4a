import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { askSchema, chooseSchema, formMessages } from "~/ai/rephrase-form";
import { messages, parseRephraseTarget } from "~/ai/rephrase";
import { askForRephrasing, openRephrase, saveRephrasedAnswer } from "~/ai/rephrase-answer.server";
import { aiAvailable } from "~/ai/chat.server";
import { requireUser } from "~/auth/session.server";
import { config } from "~/config.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { Breadcrumb } from "~/ui/breadcrumb";
import { issueLabel, QuickExit } from "~/ui/quick-exit";
import { ErrorSummary, resultShowsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/ai.rephrase.$interviewId";

// A small script of its own: a pending state while the AI answers.
export const handle = { scripts: ["/scripts/pending-form.js"] };

async function open(request: Request, params: Route.LoaderArgs["params"], context: Route.LoaderArgs["context"]) {
  const url = new URL(request.url);
  const user = requireUser(context, request);
  const target = parseRephraseTarget(params.interviewId, url);
  const opened = target ? await openRephrase(user, target) : null;
  if (!opened) notFound(request);
  const page = {
    issue: { id: opened.issue.id, name: opened.issue.name, country: opened.issue.country, sensitive: opened.issue.sensitive },
    question: opened.question,
    interviewHref: opened.interviewHref,
    available: aiAvailable(),
    redacts: config().AI_REDACT_PERSONAL_DATA,
    waitSeconds: Math.ceil(config().AI_TIMEOUT_MS / 1000),
  };
  return { user, opened, page };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { opened, page } = await open(request, params, context);
  return { ...page, text: opened.text };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, opened, page } = await open(request, params, context);
  const form = await request.formData();
  if (form.get("intent") === "save") {
    const submission = parseWithZod(form, { schema: chooseSchema });
    const chosen = submission.status === "success" ? submission.value : null;
    const text = chosen?.choice === "ai" ? chosen.suggestion.trim() : chosen?.text;
    const own = typeof form.get("text") === "string" ? String(form.get("text")) : opened.text;
    const suggestion = typeof form.get("suggestion") === "string" ? String(form.get("suggestion")).trim() : "";
    if (!chosen && suggestion) {
      // Neither text is chosen for the person: both stay side by side until they pick one.
      return data({ ...page, step: "choose" as const, text: own, suggestion, problem: formMessages.choose }, { status: 400 });
    }
    if (!chosen || text === undefined || (chosen.choice === "ai" && !text)) {
      // Nothing to compare any more: back to the answer, as the person last wrote it.
      return data({ ...page, step: "ask" as const, text: own, problem: formMessages.choose, result: null }, { status: 400 });
    }
    await saveRephrasedAnswer(user, opened, text);
    const message = chosen.choice === "ai" ? "Your answer now uses the AI's text." : "Your own text is kept.";
    return redirectWithToast(opened.interviewHref, { type: "success", message });
  }

  const typed = typeof form.get("text") === "string" ? String(form.get("text")) : opened.text;
  if (!page.available) return { ...page, step: "ask" as const, text: typed, problem: null, result: null };
  const submission = parseWithZod(form, { schema: askSchema });
  if (submission.status !== "success") {
    return data({ ...page, step: "ask" as const, text: typed, problem: null, result: submission.reply() }, { status: 400 });
  }
  const answer = await askForRephrasing(user, context.get(clientAddressContext), opened, submission.value.text);
  if (!answer.ok) {
    const status = answer.reason === "limited" ? 429 : 200;
    return data({ ...page, step: "ask" as const, text: typed, problem: answer.message, result: null }, { status });
  }
  return { ...page, step: "choose" as const, text: submission.value.text, suggestion: answer.text, problem: null };
}

export default function Rephrase({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? { ...loaderData, step: "ask" as const, problem: null, result: null };
  const errors = Boolean(view.problem) || ("result" in view && resultShowsErrors(view.result));
  return (
    <div className="page page--narrow">
      <PageTitle title="Rephrase with AI" errors={errors} />
      {view.issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: "Home", href: "/" },
          { label: issueLabel(view.issue), href: `/issues/${view.issue.id}` },
          { label: "Interview", href: view.interviewHref },
          { label: "Rephrase with AI" },
        ]}
      />
      <h1>Rephrase with AI</h1>
      <p className="notice" id="ai-notice">
        <strong>AI-written text can be wrong and is not legal advice.</strong> Read it carefully and keep only what is
        true.
      </p>
      <div className="rephrase__question">
        <h2 className="rephrase__question-title">The question</h2>
        <div className="prose" dangerouslySetInnerHTML={{ __html: view.question }} />
      </div>
      {!view.available ? (
        <Unavailable text={view.text} interviewHref={view.interviewHref} />
      ) : view.step === "choose" ? (
        <Choose own={view.text} suggestion={view.suggestion} problem={view.problem} interviewHref={view.interviewHref} />
      ) : (
        <Ask
          text={view.text}
          problem={view.problem}
          result={view.result}
          redacts={view.redacts}
          waitSeconds={view.waitSeconds}
          interviewHref={view.interviewHref}
        />
      )}
    </div>
  );
}

function Unavailable({ text, interviewHref }: { text: string; interviewHref: string }) {
  return (
    <>
      <div className="notice notice--warning" role="status">
        <p>{messages.unavailable}</p>
      </div>
      {text ? (
        <div className="rephrase__text-block">
          <h2 className="rephrase__label">Your answer</h2>
          <p className="rephrase__text">{text}</p>
        </div>
      ) : null}
      <p className="button-row">
        <a className="button" href={interviewHref}>
          Return to the interview
        </a>
      </p>
    </>
  );
}

function Ask({
  text,
  problem,
  result,
  redacts,
  waitSeconds,
  interviewHref,
}: {
  text: string;
  problem: string | null;
  result: SubmissionResult<string[]> | null;
  redacts: boolean;
  waitSeconds: number;
  interviewHref: string;
}) {
  const [form, fields] = useForm({
    id: "rephrase",
    lastResult: result,
    defaultValue: { text },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: askSchema }),
  });
  return (
    <>
      <ErrorSummary errors={summaryErrors([fields.text, "Your answer"])} formErrors={problem ? [problem] : []} />
      <Form
        method="post"
        {...getFormProps(form)}
        noValidate
        className="form"
        data-pending={`The AI is rephrasing your text. This can take up to ${waitSeconds} seconds.`}
      >
        <TextAreaField
          field={fields.text}
          label="Your answer"
          rows={8}
          hint={
            redacts
              ? "You can change it first. Emails, phone numbers and identity numbers are replaced with placeholders before your text is sent to the AI, and put back in its answer."
              : "You can change it first."
          }
        />
        <Buttons intent="ask" interviewHref={interviewHref} />
        <p className="pending-status" role="status" data-pending-status="" />
      </Form>
    </>
  );
}

function Buttons({ intent, interviewHref }: { intent: "ask" | "save"; interviewHref: string }) {
  return (
    <div className="button-row">
      <button type="submit" name="intent" value={intent} className="button">
        Continue
      </button>
      <a className="button button--secondary" href={interviewHref}>
        Back to the interview
      </a>
    </div>
  );
}

function Choose({
  own,
  suggestion,
  problem,
  interviewHref,
}: {
  own: string;
  suggestion: string;
  problem: string | null;
  interviewHref: string;
}) {
  return (
    <Form method="post" className="form" noValidate>
      <ErrorSummary errors={problem ? [{ fieldId: "choice-ai", label: "Text to keep", message: problem }] : []} />
      <input type="hidden" name="text" value={own} />
      <input type="hidden" name="suggestion" value={suggestion} />
      <fieldset
        className={`fieldset rephrase__choices${problem ? " field--invalid" : ""}`}
        aria-describedby={problem ? "choice-error" : undefined}
      >
        <legend className="fieldset__legend">Which text do you want to keep?</legend>
        {/* Neither option is pre-selected: putting machine text into a legal statement is the person's choice. */}
        <p className="field__error" id="choice-error">
          {problem ?? ""}
        </p>
        <div className="rephrase__compare">
          {[
            { value: "ai", label: "Use the AI's text", text: suggestion },
            { value: "own", label: "Keep my own text", text: own },
          ].map((option) => (
            <div className="rephrase__option" key={option.value}>
              <div className="field--check">
                <input
                  type="radio"
                  id={`choice-${option.value}`}
                  name="choice"
                  value={option.value}
                  required
                  className="check"
                  aria-describedby={`choice-${option.value}-text`}
                />
                <label htmlFor={`choice-${option.value}`} className="check__label">
                  {option.label}
                </label>
              </div>
              <p className="rephrase__text" id={`choice-${option.value}-text`}>
                {option.text}
              </p>
            </div>
          ))}
        </div>
      </fieldset>
      <Buttons intent="save" interviewHref={interviewHref} />
    </Form>
  );
}
