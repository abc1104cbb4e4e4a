import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { requestPasswordReset } from "~/auth/accounts.server";
import { readFlowState, writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited } from "~/auth/form-replies.server";
import { isLinkProblemKind, linkProblemText } from "~/auth/link-problems";
import { emailSchema } from "~/auth/schemas";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.reset-password";

/**
 * Asking for a reset link; also where a reset link that no longer works leads (`?link=expired|used|unknown`):
 * the page then says which, with the email filled in when the link told us. Either way the same form, limits
 * and "Check your email" page, so nobody learns whether an account exists.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const kind = new URL(request.url).searchParams.get("link");
  if (!isLinkProblemKind(kind)) return { problem: null, email: "" };
  const { email } = await readFlowState(request);
  return { problem: linkProblemText("reset-password", kind), email: email ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: emailSchema });
  if (submission.status !== "success") return invalid(submission);
  const { email } = submission.value;
  return limited(submission, async () => {
    await requestPasswordReset(email, context.get(clientAddressContext));
    return redirect("/auth/reset-password/check-email", { headers: { "Set-Cookie": await writeFlowState({ email }) } });
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { problem } = loaderData;
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData?.result,
    defaultValue: { email: loaderData.email },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: emailSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors([fields.email, t("auth.field.email")]);
  const heading = t(problem?.heading ?? "auth.resetPassword.title");
  return (
    <div className="page page--narrow">
      <PageTitle title={heading} errors={showsErrors(errors, form.errors)} />
      <h1>{heading}</h1>
      <p>{t(problem?.text ?? "auth.resetPassword.intro")}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.email} label={t("auth.field.email")} type="email" autoComplete="email" />
        <button type="submit" className="button">
          {t(problem ? "auth.linkProblem.newLink" : "auth.resetPassword.submit")}
        </button>
      </Form>
      <p className="form__aside">
        <a href="/auth/sign-in">{t("auth.resetPassword.back")}</a>
      </p>
    </div>
  );
}
