import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { sendNewSignUpLink } from "~/auth/accounts.server";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited } from "~/auth/form-replies.server";
import { linkProblemText } from "~/auth/link-problems";
import { requireFlowState } from "~/auth/resend.server";
import { emailSchema } from "~/auth/schemas";
import { useT } from "~/i18n/react";
import type { MessageKey } from "~/i18n/translator";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.email-verify-issue";

/**
 * AU02 (not verified) and a sign-up link that no longer works (AU03 expired, used, unknown) land here with the
 * kind of problem and, when known, the email. The form sends a new link to the email given, under the same
 * limits as sign-up, and always goes on to "Check your email": nobody learns whether an account exists.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { email, problem } = await requireFlowState(request, "problem");
  return { email: email ?? "", problem };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: emailSchema });
  if (submission.status !== "success") return invalid(submission);
  const { email } = submission.value;
  return limited(submission, async () => {
    await sendNewSignUpLink(email, context.get(clientAddressContext));
    return redirect("/auth/sign-up/email-sent", { headers: { "Set-Cookie": await writeFlowState({ email }) } });
  });
}

function problemText(problem: Route.ComponentProps["loaderData"]["problem"]): { heading: MessageKey; text: MessageKey } {
  if (problem === "not-verified") return { heading: "auth.verifyIssue.notVerifiedTitle", text: "auth.error.notVerified" };
  return linkProblemText("sign-up", problem);
}

export default function EmailVerifyIssue({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "new-link",
    lastResult: actionData?.result,
    defaultValue: { email: loaderData.email },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: emailSchema }),
  });
  const { t } = useT();
  const problem = problemText(loaderData.problem);
  const heading = t(problem.heading);
  const errors = summaryErrors([fields.email, t("auth.field.email")]);
  return (
    <div className="page page--narrow">
      <PageTitle title={heading} errors={showsErrors(errors, form.errors)} />
      <h1>{heading}</h1>
      <p>{t(problem.text)}</p>
      {loaderData.problem === "used" ? (
        <p>
          <a className="button button--secondary" href="/auth/sign-in">
            {t("auth.verifyIssue.signIn")}
          </a>
        </p>
      ) : null}
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.email} label={t("auth.field.email")} type="email" autoComplete="email" hint={t("auth.verifyIssue.emailHint")} />
        <button type="submit" className="button">
          {t("auth.linkProblem.newLink")}
        </button>
      </Form>
    </div>
  );
}
