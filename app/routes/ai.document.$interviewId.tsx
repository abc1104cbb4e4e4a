import { data } from "react-router";
import { aiAvailable } from "~/ai/chat.server";
import { normaliseValue, type Proposal, type ProposableField } from "~/ai/document-answers";
import { acceptProposal, openDocumentPage, proposeFromDocument } from "~/ai/document-answers.server";
import { requireUser } from "~/auth/session.server";
import { config } from "~/config.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { Breadcrumb } from "~/ui/breadcrumb";
import { QuickExit } from "~/ui/quick-exit";
import { issueCrumb, theirs } from "~/content/language";
import { RichText, useT } from "~/i18n/react";
import type { Translator } from "~/i18n/translator";
import { ErrorSummary } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/ai.document.$interviewId";

export const handle = { scripts: ["/scripts/pending-form.js"] };

async function open(request: Request, params: Route.LoaderArgs["params"], context: Route.LoaderArgs["context"]) {
  const user = requireUser(context, request);
  const opened = await openDocumentPage(user, params.interviewId ?? "");
  if (!opened) notFound(request);
  const page = {
    interviewId: opened.interviewId,
    issue: { id: opened.issue.id, name: opened.issue.name, sensitive: opened.issue.sensitive },
    interviewHref: opened.interviewHref,
    questions: opened.fields,
    available: aiAvailable(),
    redacts: config().AI_REDACT_PERSONAL_DATA,
    waitSeconds: Math.ceil(config().AI_TIMEOUT_MS / 1000) + 10,
  };
  return { user, opened, page };
}

type Problem = { field: "file" | null; message: string } | null;
type Saved = { label: string; value: string } | null;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { page } = await open(request, params, context);
  return { ...page, proposals: null as Proposal[] | null, problem: null as Problem, saved: null as Saved, rowError: null as { name: string; message: string } | null };
}

/** The proposals still to decide on, carried by each form: checked again against the page's questions. */
function pendingProposals(form: FormData, fields: readonly ProposableField[]): Proposal[] {
  try {
    const raw: unknown = JSON.parse(String(form.get("pending") ?? "[]"));
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((item: { name?: unknown; value?: unknown; quote?: unknown }) => {
      const field = fields.find((f) => f.name === item?.name);
      const value = field && typeof item.value === "string" ? normaliseValue(field, item.value) : null;
      return field && value !== null && typeof item.quote === "string" ? [{ name: field.name, value, quote: item.quote.slice(0, 600) }] : [];
    });
  } catch {
    return [];
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, opened, page } = await open(request, params, context);
  const form = await request.formData();
  const intent = form.get("intent");
  const base = { ...page, proposals: null as Proposal[] | null, problem: null as Problem, saved: null as Saved, rowError: null as { name: string; message: string } | null };
  if (intent === "accept" || intent === "reject") {
    const pending = pendingProposals(form, opened.fields);
    const name = String(form.get("name") ?? "");
    const rest = pending.filter((proposal) => proposal.name !== name);
    if (intent === "reject") return { ...base, proposals: rest };
    const value = String(form.get("value") ?? "");
    const accepted = await acceptProposal(user, opened, name, value);
    if (!accepted.ok) {
      const kept = pending.map((proposal) => (proposal.name === name ? { ...proposal, value } : proposal));
      return data({ ...base, proposals: kept, rowError: { name, message: accepted.message } }, { status: 400 });
    }
    const label = opened.fields.find((f) => f.name === name)?.label ?? name;
    return { ...base, proposals: rest, saved: { label, value } };
  }
  const file = form.get("document");
  const result = await proposeFromDocument(user, context.get(clientAddressContext), opened, file instanceof File ? file : null);
  if (!result.ok) return data({ ...base, problem: { field: result.field, message: result.message } }, { status: result.status });
  return { ...base, proposals: result.proposals };
}

export default function UseDocument({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const { problem, proposals } = view;
  const errors = Boolean(problem) || Boolean(view.rowError);
  const t = useT();
  const labelOf = (name: string) => {
    const question = view.questions.find((q) => q.name === name);
    return question ? questionLabel(question, t) : name;
  };
  return (
    <div className="page page--narrow">
      <PageTitle title={t.t("ai.document.title")} errors={errors} />
      {view.issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: t.t("public.crumb.home"), href: "/" },
          issueCrumb(view.issue, t, `/issues/${view.issue.id}`),
          { label: t.t("public.interview.crumb"), href: view.interviewHref },
          { label: t.t("ai.document.title") },
        ]}
      />
      <h1>{t.t("ai.document.title")}</h1>
      <p className="notice">
        <RichText id="ai.document.notice" tags={{ strong: (words) => <strong>{words}</strong> }} />
      </p>
      {view.saved ? (
        <div className="notice notice--success" role="status">
          <p>
            <RichText
              id="ai.document.saved"
              values={{ question: view.saved.label, answer: view.saved.value }}
              tags={{ questionText: (words) => <span {...theirs(t)}>{words}</span>, answerText: (words) => <span dir="auto">{words}</span> }}
            />
          </p>
        </div>
      ) : null}
      {view.rowError ? (
        <ErrorSummary errors={[{ fieldId: `value-${view.rowError.name.replace(/\W+/g, "-")}`, label: labelOf(view.rowError.name), message: view.rowError.message }]} />
      ) : null}
      {!view.questions.length ? (
        <>
          <p>{t.t("ai.document.nothingToAnswer")}</p>
          <p className="button-row">
            <a className="button" href={view.interviewHref}>
              {t.t("ai.backToInterview")}
            </a>
          </p>
        </>
      ) : proposals ? (
        <Proposals proposals={proposals} questions={view.questions} rowError={view.rowError} interviewHref={view.interviewHref} t={t} />
      ) : (
        <ReadForm view={view} problem={problem} t={t} />
      )}
    </div>
  );
}

/** A question's label: the guide's words, or ours ("Choose one of the options") in the page's language. */
function questionLabel(question: ProposableField, t: Translator): string {
  return question.labelKey ? t.t(question.labelKey) : question.label;
}

function QuestionLabel({ question, t }: { question: ProposableField; t: Translator }) {
  return question.labelKey ? <>{t.t(question.labelKey)}</> : <span {...theirs(t)}>{question.label}</span>;
}

function ReadForm({
  view,
  problem,
  t,
}: {
  view: { available: boolean; redacts: boolean; waitSeconds: number; questions: ProposableField[]; interviewHref: string };
  problem: Problem;
  t: Translator;
}) {
  const fileError = problem?.field === "file" ? problem.message : null;
  return (
    <>
      <ErrorSummary
        errors={fileError ? [{ fieldId: "document", label: t.t("ai.document.yourDocument"), message: fileError }] : []}
        formErrors={problem && !fileError ? [problem.message] : []}
      />
      <p>{t.t("ai.document.uploadIntro")}</p>
      <ul>
        {view.questions.map((question) => (
          <li key={question.name}>
            <QuestionLabel question={question} t={t} />
          </li>
        ))}
      </ul>
      {view.available ? (
        <form
          method="post"
          encType="multipart/form-data"
          className="form"
          data-pending={t.t("ai.document.pending", { seconds: view.waitSeconds })}
        >
          <div className={`field${fileError ? " field--invalid" : ""}`}>
            <label className="field__label" htmlFor="document">
              {t.t("ai.document.yourDocument")}
            </label>
            <p className="field__hint" id="document-hint">
              {t.t("ai.document.fileHint")}
              {view.redacts ? ` ${t.t("ai.document.redaction")}` : ""}
            </p>
            <input
              type="file"
              id="document"
              name="document"
              accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
              className="field__input"
              aria-describedby={fileError ? "document-hint document-error" : "document-hint"}
              aria-invalid={fileError ? true : undefined}
            />
            <p className="field__error" id="document-error">
              {fileError ? t.message(fileError) : ""}
            </p>
          </div>
          <div className="button-row">
            <button type="submit" name="intent" value="read" className="button">
              {t.t("ai.document.read")}
            </button>
            <a className="button button--secondary" href={view.interviewHref}>
              {t.t("ai.backToInterview")}
            </a>
          </div>
          <p className="pending-status" role="status" data-pending-status="" />
        </form>
      ) : (
        <p className="button-row">
          <a className="button" href={view.interviewHref}>
            {t.t("ai.backToInterview")}
          </a>
        </p>
      )}
    </>
  );
}

function Proposals({
  proposals,
  questions,
  rowError,
  interviewHref,
  t,
}: {
  proposals: Proposal[];
  questions: ProposableField[];
  rowError: { name: string; message: string } | null;
  interviewHref: string;
  t: Translator;
}) {
  const pending = JSON.stringify(proposals);
  return (
    <section aria-labelledby="proposals-title">
      <h2 id="proposals-title">{t.t("ai.document.proposed")}</h2>
      {proposals.length ? <p>{t.t("ai.document.acceptEach")}</p> : <p>{t.t("ai.document.noMore")}</p>}
      {proposals.map((proposal) => {
        const question = questions.find((q) => q.name === proposal.name)!;
        const id = `value-${proposal.name.replace(/\W+/g, "-")}`;
        const error = rowError?.name === proposal.name ? rowError.message : null;
        return (
          <form method="post" key={proposal.name} className="proposal">
            <fieldset>
              <legend className="proposal__question">
                <QuestionLabel question={question} t={t} />
              </legend>
              <p className="proposal__quote-label">{t.t("ai.document.fromDocument")}</p>
              <blockquote className="understand__passage" dir="auto">
                {proposal.quote}
              </blockquote>
              <div className={`field${error ? " field--invalid" : ""}`}>
                <label className="field__label" htmlFor={id}>
                  {t.t("ai.document.proposedAnswer")}
                </label>
                {error ? (
                  <p className="field__error" id={`${id}-error`}>
                    {t.message(error)}
                  </p>
                ) : null}
                <ValueInput id={id} question={question} value={proposal.value} invalid={Boolean(error)} t={t} />
              </div>
              <input type="hidden" name="name" value={proposal.name} />
              <input type="hidden" name="pending" value={pending} />
              <div className="button-row">
                <button type="submit" name="intent" value="accept" className="button">
                  <RichText id="ai.document.accept" values={{ question: questionLabel(question, t) }} tags={{ hidden: (words) => <span className="visually-hidden">{words}</span> }} />
                </button>
                <button type="submit" name="intent" value="reject" className="button button--secondary">
                  <RichText id="ai.document.reject" values={{ question: questionLabel(question, t) }} tags={{ hidden: (words) => <span className="visually-hidden">{words}</span> }} />
                </button>
              </div>
            </fieldset>
          </form>
        );
      })}
      <p className="button-row">
        <a className={proposals.length ? "button button--secondary" : "button"} href={interviewHref}>
          {t.t("ai.backToInterview")}
        </a>
      </p>
    </section>
  );
}

function ValueInput({ id, question, value, invalid, t }: { id: string; question: ProposableField; value: string; invalid: boolean; t: Translator }) {
  const common = { id, name: "value", defaultValue: value, className: "field__input", "aria-invalid": invalid || undefined, "aria-describedby": invalid ? `${id}-error` : undefined };
  if (question.kind === "choice") {
    return (
      <select {...common}>
        {question.choices.map((choice) => (
          <option key={choice.value} value={choice.value} {...(choice.labelKey ? {} : theirs(t))}>
            {choice.labelKey ? t.t(choice.labelKey) : choice.label}
          </option>
        ))}
      </select>
    );
  }
  if (question.kind === "yes-no") {
    return (
      <select {...common}>
        <option value="true">{t.t("ai.document.yes")}</option>
        <option value="false">{t.t("ai.document.no")}</option>
      </select>
    );
  }
  if (question.kind === "date") return <input type="date" {...common} />;
  if (question.kind === "number") return <input type="text" inputMode="decimal" {...common} />;
  if (value.length > 80) return <textarea rows={4} {...common} />;
  return <input type="text" {...common} />;
}
