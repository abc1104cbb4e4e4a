import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { config } from "~/config.server";
import { dayText, RepliesList, SeenList } from "~/help/help-views";
import { shareSchema } from "~/help/schemas";
import { shareInterview, sharingOfInterview, stopSharing } from "~/help/shares.server";
import { shareMessages, shareWords } from "~/help/words";
import { notFound } from "~/http.server";
import { ErrorSummary, showsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/account.interview.$interviewId.help";

// A person's own interview and help: ask for help (what to share, a message, who sees it and for how long), stop
// sharing, the helpers' replies, and who has seen what. Another person's interview is 404.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const sharing = await sharingOfInterview(user.id, params.interviewId, { markRead: true });
  if (!sharing) notFound(request);
  const days = config().SHARE_DAYS;
  return { ...sharing, days, until: new Date(Date.now() + days * 86_400_000).toISOString() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const here = `/account/interview/${params.interviewId}/help`;
  const form = await request.formData();
  if (form.get("intent") === "stop") {
    if (!(await sharingOfInterview(user.id, params.interviewId))) notFound(request);
    await stopSharing(user.id, params.interviewId);
    return redirectWithToast(here, { type: "success", message: shareWords.stoppedToast });
  }
  const submission = parseWithZod(form, { schema: shareSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { share, message } = submission.value;
  const shared = await shareInterview(user.id, params.interviewId, {
    answers: share.includes("answers"),
    documents: share.includes("documents"),
    files: share.includes("files"),
    message,
  });
  if (!shared) notFound(request);
  if (!shared.created) return data({ result: submission.reply({ formErrors: [shareMessages.alreadyShared] }) }, { status: 409 });
  return redirectWithToast(here, { type: "success", message: shareWords.sharedToast });
}

export default function InterviewHelp({ loaderData, actionData }: Route.ComponentProps) {
  const { interview, share, replies, views, everShared } = loaderData;
  const [form, fields] = useForm<{ share: string[]; message: string }>({
    id: "share",
    lastResult: actionData?.result,
    defaultValue: { share: ["answers"] },
  });
  const errors = summaryErrors([fields.share, shareWords.whatLegend], [fields.message, shareWords.messageLabel]);
  const chosen = new Set(([] as unknown[]).concat(fields.share.initialValue ?? []).map(String));
  const options = [
    { value: "answers", label: shareWords.answers, offered: true },
    { value: "documents", label: shareWords.documents, offered: interview.status === "Completed" },
    { value: "files", label: shareWords.files, offered: interview.hasFiles },
  ].filter((option) => option.offered);
  const shareInvalid = Boolean(fields.share.errors?.length);
  const status = share?.status === "new" ? shareWords.waiting : share?.status === "taken" ? shareWords.helping(share.takenByName ?? "") : shareWords.closedBy(share?.takenByName ?? "");
  return (
    <AccountPage title={shareWords.pageTitle} errors={showsErrors(errors, form.errors)}>
      <p className="lead">{interview.issueName}</p>
      {share ? (
        <section aria-labelledby="sharing-title">
          <h2 id="sharing-title" className="visually-hidden">
            {shareWords.whatShared}
          </h2>
          <p className="notice">{shareWords.shared(dayText(share.expiresAt))}</p>
          <dl className="summary-list">
            <div>
              <dt>{shareWords.whatShared}</dt>
              <dd>
                {[share.answers ? shareWords.answers : null, share.documents ? shareWords.documents : null, share.files ? shareWords.files : null]
                  .filter(Boolean)
                  .join(", ")}
              </dd>
            </div>
            <div>
              <dt>{shareWords.yourMessage}</dt>
              <dd className="help-message">{share.message ?? shareWords.noMessage}</dd>
            </div>
            <div>
              <dt>{shareWords.status}</dt>
              <dd>{status}</dd>
            </div>
          </dl>
          <form method="post" className="form">
            <p>{shareWords.stopHint}</p>
            <button type="submit" name="intent" value="stop" className="button button--secondary">
              {shareWords.stop}
            </button>
          </form>
        </section>
      ) : (
        <section aria-labelledby="ask-title">
          <h2 id="ask-title">{shareWords.askTitle}</h2>
          <p>{shareWords.askIntro}</p>
          <ErrorSummary errors={errors} formErrors={form.errors} />
          <Form method="post" {...getFormProps(form)} noValidate className="form" aria-labelledby="ask-title">
            <input type="hidden" name="intent" value="share" />
            <fieldset className={`fieldset${shareInvalid ? " field--invalid" : ""}`} aria-describedby={shareInvalid ? fields.share.errorId : undefined}>
              <legend className="fieldset__legend">{shareWords.whatLegend}</legend>
              <p className="field__error" id={fields.share.errorId}>
                {fields.share.errors?.[0] ?? ""}
              </p>
              {options.map((option, index) => {
                const id = index === 0 ? fields.share.id : `${fields.share.id}-${option.value}`;
                return (
                  <div key={option.value} className="field field--check">
                    <input id={id} type="checkbox" name="share" value={option.value} defaultChecked={chosen.has(option.value)} className="check" />
                    <label htmlFor={id} className="check__label">
                      {option.label}
                    </label>
                  </div>
                );
              })}
              {interview.status === "Completed" ? null : <p className="field__hint">{shareWords.documentsLater}</p>}
            </fieldset>
            <TextAreaField field={fields.message} label={shareWords.messageLabel} hint={shareWords.messageHint} required={false} rows={5} />
            <h3>{shareWords.whoTitle}</h3>
            <p>{shareWords.who(interview.issueName, interview.countryName)}</p>
            <h3>{shareWords.howLongTitle}</h3>
            <p>{shareWords.howLong(dayText(loaderData.until), loaderData.days)}</p>
            <button type="submit" className="button">
              {shareWords.share}
            </button>
          </Form>
        </section>
      )}
      <RepliesList replies={replies} />
      {everShared ? <SeenList views={views} /> : null}
      <p className="button-row">
        {interview.status === "Completed" ? null : (
          <a className="button button--secondary" href={`/issues/${interview.issueId}/interviews/${interview.id}`}>
            Back to the interview
          </a>
        )}
        <a className="button button--secondary" href="/account/interview">
          {shareWords.back}
        </a>
      </p>
    </AccountPage>
  );
}
