import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { confirmTwoFactorSetup, twoFactorSetup } from "~/auth/accounts.server";
import { AuthenticatorSteps } from "~/auth/authenticator-steps";
import { CodeField } from "~/auth/code-field";
import { flowReturn } from "~/auth/flow-state.server";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { withReturn } from "~/auth/return-to";
import { authPaths } from "~/auth/paths";
import { codeSchema } from "~/auth/schemas";
import { sessionContext } from "~/auth/session.server";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors } from "~/ui/form";
import { useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.setup-2fa";

export const handle = { scripts: ["/scripts/copy-text.js"] };

// Only after a password step: the session says whose setup this is (spec: "needs email and password").
export async function loader({ context }: Route.LoaderArgs) {
  const setup = await twoFactorSetup(context.get(sessionContext));
  if ("next" in setup) throw redirect(authPaths[setup.next]);
  return setup;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: codeSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const result = await confirmTwoFactorSetup(context.get(sessionContext), submission.value.code, context.get(clientAddressContext));
    if ("field" in result) return refuse(submission, result);
    if ("next" in result) return redirect(authPaths[result.next]);
    // On to the ten recovery codes made with the setup (app/routes/account.recovery-codes.tsx).
    return redirect(withReturn("/account/recovery-codes", await flowReturn(request)), { headers: { "Set-Cookie": result.setCookie } });
  });
}

export default function SetupTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "setup-2fa",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors([fields.code, t("auth.field.code")]);
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.setup2fa.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("auth.setup2fa.title")}</h1>
      <p>{t("auth.setup2fa.intro")}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <AuthenticatorSteps setup={loaderData}>
        <Form method="post" {...getFormProps(form)} noValidate className="form">
          <CodeField field={fields.code} />
          <button type="submit" className="button">
            {t("auth.setup2fa.submit")}
          </button>
        </Form>
      </AuthenticatorSteps>
    </div>
  );
}
