import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { config } from "~/config.server";
import { dayText, RepliesList, SeenList, shareList } from "~/help/help-views";
import { shareSchema } from "~/help/schemas";
import { shareInterview, sharingOfInterview, stopSharing } from "~/help/shares.server";
import { shareMessages } from "~/help/words";
import { notFound } from "~/http.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
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
    return redirectWithToast(here, { type: "success", message: messageRef("account.help.stoppedToast") });
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
  return redirectWithToast(here, { type: "success", message: messageRef("account.help.sharedToast") });
}

export default function InterviewHelp({ loaderData, actionData }: Route.ComponentProps) {
  const { interview, share, replies, views, everShared } = loaderData;
  const [form, fields] = useForm<{ share: string[]; message: string }>({
    id: "share",
    lastResult: actionData?.result,
    defaultValue: { share: ["answers"] },
  });
  const t = useT();
  const errors = summaryErrors([fields.share, t.t("account.help.whatLegend")], [fields.message, t.t("account.help.messageLabel")]);
  const chosen = new Set(([] as unknown[]).concat(fields.share.initialValue ?? []).map(String));
  const options = [
    { value: "answers", label: t.t("account.help.answers"), offered: true },
    { value: "documents", label: t.t("account.help.documents"), offered: interview.status === "Completed" },
    { value: "files", label: t.t("account.help.files"), offered: interview.hasFiles },
  ].filter((option) => option.offered);
  const shareInvalid = Boolean(fields.share.errors?.length);
  const helper = share?.takenByName ?? "";
  const status =
    share?.status === "new" ? t.t("account.help.waiting") : share?.status === "taken" ? t.t("account.help.helping", { name: helper }) : t.t("account.help.closedBy", { name: helper });
  return (
    <AccountPage title={t.t("account.help.title")} errors={showsErrors(errors, form.errors)}>
      <p className="lead" translate="no">
        {interview.issueName}
      </p>
      {share ? (
        <section aria-labelledby="sharing-title">
          <h2 id="sharing-title" className="visually-hidden">
            {t.t("account.help.whatShared")}
          </h2>
          <p className="notice">{t.t("account.help.shared", { until: dayText(share.expiresAt, t) })}</p>
          <dl className="summary-list">
            <div>
              <dt>{t.t("account.help.whatShared")}</dt>
              <dd>
                {shareList(
                  [
                    share.answers ? t.t("account.help.answers") : null,
                    share.documents ? t.t("account.help.documents") : null,
                    share.files ? t.t("account.help.files") : null,
                  ].filter((item): item is string => item !== null),
                  t,
                )}
              </dd>
            </div>
            <div>
              <dt>{t.t("account.help.yourMessage")}</dt>
              {/* The person's own words, as written. */}
              {share.message ? (
                <dd className="help-message" dir="auto">
                  {share.message}
                </dd>
              ) : (
                <dd className="help-message">{t.t("account.help.noMessage")}</dd>
              )}
            </div>
            <div>
              <dt>{t.t("account.help.status")}</dt>
              <dd>{status}</dd>
            </div>
          </dl>
          <form method="post" className="form">
            <p>{t.t("account.help.stopHint")}</p>
            <button type="submit" name="intent" value="stop" className="button button--secondary">
              {t.t("account.help.stop")}
            </button>
          </form>
        </section>
      ) : (
        <section aria-labelledby="ask-title">
          <h2 id="ask-title">{t.t("account.help.askTitle")}</h2>
          <p>{t.t("account.help.askIntro")}</p>
          <ErrorSummary errors={errors} formErrors={form.errors} />
          <Form method="post" {...getFormProps(form)} noValidate className="form" aria-labelledby="ask-title">
            <input type="hidden" name="intent" value="share" />
            <fieldset className={`fieldset${shareInvalid ? " field--invalid" : ""}`} aria-describedby={shareInvalid ? fields.share.errorId : undefined}>
              <legend className="fieldset__legend">{t.t("account.help.whatLegend")}</legend>
              <p className="field__error" id={fields.share.errorId}>
                {fields.share.errors?.[0] ? t.message(fields.share.errors[0]) : ""}
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
              {interview.status === "Completed" ? null : <p className="field__hint">{t.t("account.help.documentsLater")}</p>}
            </fieldset>
            <TextAreaField field={fields.message} label={t.t("account.help.messageLabel")} hint={t.t("account.help.messageHint")} required={false} rows={5} />
            <h3>{t.t("account.help.whoTitle")}</h3>
            <p>{t.t("account.help.who", { issue: interview.issueName, country: interview.countryName })}</p>
            <h3>{t.t("account.help.howLongTitle")}</h3>
            <p>{t.t("account.help.howLong", { until: dayText(loaderData.until, t), days: loaderData.days })}</p>
            <button type="submit" className="button">
              {t.t("account.help.share")}
            </button>
          </Form>
        </section>
      )}
      <RepliesList replies={replies} />
      {everShared ? <SeenList views={views} /> : null}
      <p className="button-row">
        {interview.status === "Completed" ? null : (
          <a className="button button--secondary" href={`/issues/${interview.issueId}/interviews/${interview.id}`}>
            {t.t("account.help.backToInterview")}
          </a>
        )}
        <a className="button button--secondary" href="/account/interview">
          {t.t("account.interviews.back")}
        </a>
      </p>
    </AccountPage>
  );
}
