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
import { messageRef } from "~/i18n/translator";
import { useT } from "~/i18n/react";
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
    return redirectWithToast("/account/dashboard", { type: "success", message: messageRef("account.authenticator.done") });
  });
}

export default function NewAuthenticator({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "new-authenticator",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newAuthenticatorSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors(
    [fields.password, t("account.authenticator.password")],
    [fields.currentCode, t("account.authenticator.currentCode")],
    [fields.code, t("account.authenticator.newCode")],
  );
  return (
    <AccountPage title={t("account.authenticator.title")} errors={showsErrors(errors, form.errors)}>
      <p>{t("account.authenticator.intro")}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <AuthenticatorSteps setup={loaderData} confirmTitle={t("account.authenticator.confirmTitle")}>
        <Form method="post" {...getFormProps(form)} noValidate className="form">
          <TextField field={fields.password} label={t("account.authenticator.password")} type="password" autoComplete="current-password" />
          <TextField
            field={fields.currentCode}
            label={t("account.authenticator.currentCode")}
            hint={t("account.authenticator.currentCodeHint")}
            autoComplete="off"
          />
          <CodeField field={fields.code} label={t("account.authenticator.newCode")} />
          <button type="submit" className="button">
            {t("account.authenticator.submit")}
          </button>
        </Form>
      </AuthenticatorSteps>
    </AccountPage>
  );
}
