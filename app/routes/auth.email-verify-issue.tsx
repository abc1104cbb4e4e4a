import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { sendNewSignUpLink } from "~/auth/accounts.server";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited } from "~/auth/form-replies.server";
import { linkProblemText } from "~/auth/link-problems";
import { requireFlowState } from "~/auth/resend.server";
import { authMessages, emailSchema } from "~/auth/schemas";
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

function problemText(problem: Route.ComponentProps["loaderData"]["problem"]) {
  if (problem === "not-verified") return { heading: "Please verify your email", text: authMessages.notVerified };
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
  const { heading, text } = problemText(loaderData.problem);
  const errors = summaryErrors([fields.email, "Email"]);
  return (
    <div className="page page--narrow">
      <PageTitle title={heading} errors={showsErrors(errors, form.errors)} />
      <h1>{heading}</h1>
      <p>{text}</p>
      {loaderData.problem === "used" ? (
        <p>
          <a className="button button--secondary" href="/auth/sign-in">
            Sign in
          </a>
        </p>
      ) : null}
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" hint="We will send the new link to this address." />
        <button type="submit" className="button">
          Send a new link
        </button>
      </Form>
    </div>
  );
}
