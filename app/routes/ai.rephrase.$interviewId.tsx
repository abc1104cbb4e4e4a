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
import { QuickExit } from "~/ui/quick-exit";
import { issueCrumb, theirs } from "~/content/language";
import { RichText, useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { ErrorSummary, resultShowsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import { redirectWithToast } from "~/ui/toast.server";
import { KeptNotice } from "~/ui/kept-notice";
import { takeKept, userOrKeep } from "~/expiry/keep.server";
import type { Route } from "./+types/ai.rephrase.$interviewId";

// A small script of its own: a pending state while the AI answers.
export const handle = { scripts: ["/scripts/pending-form.js"], sessionTimeout: true };

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
  // Back from signing in again, after this form was posted when the session had expired (app/expiry/): what was
  // typed is shown again, to send again.
  const kept = await takeKept(context, request, "rephrase");
  const keptText = kept?.get("text");
  return { ...page, text: typeof keptText === "string" ? keptText : opened.text, kept: kept !== null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // A form posted after the session expired is kept, and the person signs in again (app/expiry/).
  await userOrKeep(context, request, "rephrase", params.interviewId);
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
    const message = messageRef(chosen.choice === "ai" ? "ai.rephrase.savedAi" : "ai.rephrase.savedOwn");
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
  const t = useT();
  return (
    <div className="page page--narrow">
      <PageTitle title={t.t("ai.rephrase.title")} errors={errors} />
      {view.issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: t.t("public.crumb.home"), href: "/" },
          issueCrumb(view.issue, t, `/issues/${view.issue.id}`),
          { label: t.t("public.interview.crumb"), href: view.interviewHref },
          { label: t.t("ai.rephrase.title") },
        ]}
      />
      <h1>{t.t("ai.rephrase.title")}</h1>
      {"kept" in view && view.kept ? <KeptNotice /> : null}
      <p className="notice" id="ai-notice">
        <RichText id="ai.rephrase.notice" tags={{ strong: (words) => <strong>{words}</strong> }} />
      </p>
      <div className="rephrase__question">
        <h2 className="rephrase__question-title">{t.t("ai.rephrase.question")}</h2>
        <div className="prose" {...theirs(t)} dangerouslySetInnerHTML={{ __html: view.question }} />
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
  const t = useT();
  return (
    <>
      <div className="notice notice--warning" role="status">
        <p>{t.message(messages.unavailable)}</p>
      </div>
      {text ? (
        <div className="rephrase__text-block">
          <h2 className="rephrase__label">{t.t("ai.rephrase.yourAnswer")}</h2>
          <p className="rephrase__text" dir="auto">
            {text}
          </p>
        </div>
      ) : null}
      <p className="button-row">
        <a className="button" href={interviewHref}>
          {t.t("ai.rephrase.returnToInterview")}
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
  const t = useT();
  const [form, fields] = useForm({
    id: "rephrase",
    lastResult: result,
    defaultValue: { text },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: askSchema }),
  });
  return (
    <>
      <ErrorSummary errors={summaryErrors([fields.text, t.t("ai.rephrase.yourAnswer")])} formErrors={problem ? [problem] : []} />
      <Form
        method="post"
        {...getFormProps(form)}
        noValidate
        className="form"
        data-pending={t.t("ai.rephrase.pending", { seconds: waitSeconds })}
      >
        <TextAreaField
          field={fields.text}
          label={t.t("ai.rephrase.yourAnswer")}
          rows={8}
          hint={redacts ? t.t("ai.rephrase.hintRedacts") : t.t("ai.rephrase.hint")}
        />
        <Buttons intent="ask" interviewHref={interviewHref} />
        <p className="pending-status" role="status" data-pending-status="" />
      </Form>
    </>
  );
}

function Buttons({ intent, interviewHref }: { intent: "ask" | "save"; interviewHref: string }) {
  const { t } = useT();
  return (
    <div className="button-row">
      <button type="submit" name="intent" value={intent} className="button">
        {t("ai.rephrase.continue")}
      </button>
      <a className="button button--secondary" href={interviewHref}>
        {t("ai.backToInterview")}
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
  const t = useT();
  return (
    <Form method="post" className="form" noValidate>
      <ErrorSummary errors={problem ? [{ fieldId: "choice-ai", label: t.t("ai.rephrase.textToKeep"), message: problem }] : []} />
      <input type="hidden" name="text" value={own} />
      <input type="hidden" name="suggestion" value={suggestion} />
      <fieldset
        className={`fieldset rephrase__choices${problem ? " field--invalid" : ""}`}
        aria-describedby={problem ? "choice-error" : undefined}
      >
        <legend className="fieldset__legend">{t.t("ai.rephrase.whichText")}</legend>
        {/* Neither option is pre-selected: putting machine text into a legal statement is the person's choice. */}
        <p className="field__error" id="choice-error">
          {problem ? t.message(problem) : ""}
        </p>
        <div className="rephrase__compare">
          {[
            { value: "ai", label: t.t("ai.rephrase.useAi"), text: suggestion },
            { value: "own", label: t.t("ai.rephrase.keepOwn"), text: own },
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
              <p className="rephrase__text" id={`choice-${option.value}-text`} dir="auto">
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
