import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { flowReturn, setCookies } from "~/auth/flow-state.server";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { withReturn } from "~/auth/return-to";
import { clearSavedNotice } from "~/interviews/saved-notice.server";
import { authPaths } from "~/auth/paths";
import { recoveryCodeSchema } from "~/auth/schemas";
import { sessionContext } from "~/auth/session.server";
import { signInWithRecoveryCode } from "~/auth/two-factor-recovery.server";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.sign-in.recovery-code";

// Like the code step: only straight after the password step, for the person the session names.
export function loader({ context }: Route.LoaderArgs) {
  if (!context.get(sessionContext)?.pendingUserId) throw redirect(authPaths["sign-in"]);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: recoveryCodeSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const result = await signInWithRecoveryCode(context.get(sessionContext), submission.value.code, context.get(clientAddressContext));
    if ("field" in result) return refuse(submission, result);
    if ("next" in result) return redirect(authPaths[result.next]);
    // Signed in: on to how many codes are left, with new ones on offer.
    // The return address goes along: that page leads on to it.
    return redirect(withReturn("/account/recovery-codes?used=1", await flowReturn(request)), { headers: setCookies(result.setCookie, await clearSavedNotice()) });
  });
}

export default function RecoveryCodeSignIn({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "recovery-code",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: recoveryCodeSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors([fields.code, t("auth.recovery.label")]);
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.recovery.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("auth.recovery.title")}</h1>
      <p>{t("auth.recovery.intro")}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.code} label={t("auth.recovery.label")} hint={t("auth.recovery.hint")} autoComplete="off" />
        <button type="submit" className="button">
          {t("auth.recovery.submit")}
        </button>
      </Form>
      <p className="form__aside">
        <a href={authPaths["verify-2fa"]}>{t("auth.recovery.useApp")}</a>
      </p>
    </div>
  );
}
