import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { verifySignInCode } from "~/auth/accounts.server";
import { flowReturn, setCookies } from "~/auth/flow-state.server";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { clearSavedNotice } from "~/interviews/saved-notice.server";
import { authPaths } from "~/auth/paths";
import { codeSchema } from "~/auth/schemas";
import { sessionContext } from "~/auth/session.server";
import { CodeField } from "~/auth/code-field";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors } from "~/ui/form";
import { RichText, useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.sign-in.verify-2fa";

// Only straight after the password step: the session says whose code this is.
export function loader({ context }: Route.LoaderArgs) {
  if (!context.get(sessionContext)?.pendingUserId) throw redirect("/auth/sign-in");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: codeSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const result = await verifySignInCode(context.get(sessionContext), submission.value.code, context.get(clientAddressContext));
    if ("field" in result) return refuse(submission, result);
    if ("next" in result) return redirect(authPaths[result.next]);
    // Back where they were (app/routes/auth.sign-in.tsx); the saved-answers notice has done its work.
    return redirect((await flowReturn(request)) ?? "/", { headers: setCookies(result.setCookie, await clearSavedNotice()) });
  });
}

export default function VerifyTwoFactor({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "verify-2fa",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors([fields.code, t("auth.field.code")]);
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.verify2fa.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("auth.verify2fa.title")}</h1>
      <p>{t("auth.verify2fa.intro")}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <CodeField field={fields.code} />
        <button type="submit" className="button">
          {t("auth.verify2fa.submit")}
        </button>
      </Form>
      <p>
        <RichText id="auth.verify2fa.lost" tags={{ link: (words) => <a href="/auth/sign-in/recovery-code">{words}</a> }} />
      </p>
    </div>
  );
}
