import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { AccountPage } from "~/account/account-page";
import { AuthenticatorSteps } from "~/auth/authenticator-steps";
import { CodeField } from "~/auth/code-field";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { newAuthenticatorSchema } from "~/auth/schemas";
import { requireUser, sessionContext } from "~/auth/session.server";
import { newAuthenticatorSetup, replaceAuthenticator } from "~/auth/two-factor-recovery.server";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/account.authenticator";

export const handle = { scripts: ["/scripts/copy-text.js"] };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return newAuthenticatorSetup(context.get(sessionContext)!, user.email);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const submission = parseWithZod(await request.formData(), { schema: newAuthenticatorSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const result = await replaceAuthenticator(user.id, submission.value, context.get(sessionContext)!, context.get(clientAddressContext));
    if (result && "field" in result) return refuse(submission, result);
    if (result) return redirect("/account/authenticator");
    return redirectWithToast("/account/dashboard", { type: "success", message: "Your new authenticator app is set up." });
  });
}

export default function NewAuthenticator({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "new-authenticator",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newAuthenticatorSchema }),
  });
  const errors = summaryErrors(
    [fields.password, "Password"],
    [fields.currentCode, "Code from your current app, or a recovery code"],
    [fields.code, "Code from the new app"],
  );
  return (
    <AccountPage title="Set up a new authenticator" errors={showsErrors(errors, form.errors)}>
      <p>
        Add your account to the new app, then confirm with your password, a code from your current app or one of your
        recovery codes, and a code from the new app. Your other sign-ins end.
      </p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <AuthenticatorSteps setup={loaderData} confirmTitle="Confirm with your password and two codes">
        <Form method="post" {...getFormProps(form)} noValidate className="form">
          <TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
          <TextField
            field={fields.currentCode}
            label="Code from your current app, or a recovery code"
            hint="6 digits from the app you used until now, or one of your recovery codes if you lost it"
            autoComplete="off"
          />
          <CodeField field={fields.code} label="Code from the new app" />
          <button type="submit" className="button">
            Set up the new authenticator
          </button>
        </Form>
      </AuthenticatorSteps>
    </AccountPage>
  );
}
