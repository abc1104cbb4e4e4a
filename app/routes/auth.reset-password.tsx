import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { requestPasswordReset } from "~/auth/accounts.server";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited } from "~/auth/form-replies.server";
import { emailSchema } from "~/auth/schemas";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, summaryErrors, TextField } from "~/ui/form";
import type { Route } from "./+types/auth.reset-password";

export function meta() {
  return [{ title: "Reset your password | Legal Self-Help" }];
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

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: emailSchema }),
  });
  return (
    <div className="page page--narrow">
      <h1>Reset your password</h1>
      <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
      <ErrorSummary errors={summaryErrors([fields.email])} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
        <button type="submit" className="button">
          Send reset link
        </button>
      </Form>
      <p className="form__aside">
        <a href="/auth/sign-in">Back to Sign In</a>
      </p>
    </div>
  );
}
