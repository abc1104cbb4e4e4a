import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { signInWithPassword } from "~/auth/accounts.server";
import { readFlowState, setCookies, writeFlowState } from "~/auth/flow-state.server";
import { requestedReturn, withReturn } from "~/auth/return-to";
import { savedInterview } from "~/interviews/saved-notice.server";
import { KEPT_PARAM } from "~/expiry/keep.server";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { authPaths } from "~/auth/paths";
import { signInSchema } from "~/auth/schemas";
import { sessionContext } from "~/auth/session.server";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.sign-in";

/**
 * Where the person goes once signed in: the page that sent them here, else the interview they saved and left
 * ("Save and finish later"). Said on the page, so that nobody wonders why they are asked to sign in.
 */
async function returnAddress(request: Request) {
  const requested = requestedReturn(request);
  const saved = await savedInterview(request);
  // A form kept while the person was signed out waits on the page to return to (app/expiry/).
  const kept = requested !== null && new URL(requested, "http://return.invalid").searchParams.has(KEPT_PARAM);
  const reason = kept ? ("kept" as const) : saved && (requested === null || requested === saved) ? ("saved" as const) : requested ? ("page" as const) : null;
  return { returnTo: requested ?? saved, reason };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { returnTo, reason } = await returnAddress(request);
  return { signUp: withReturn("/auth/sign-up", returnTo), reason };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { returnTo } = await returnAddress(request);
  const submission = parseWithZod(await request.formData(), { schema: signInSchema });
  if (submission.status !== "success") return invalid(submission);
  const { email, password } = submission.value;
  return limited(submission, async () => {
    const result = await signInWithPassword(email, password, context.get(sessionContext), context.get(clientAddressContext));
    if ("field" in result) return refuse(submission, result);
    if (result.next === "not-verified") {
      // AU02: the email is not verified yet.
      return redirect("/auth/email-verify-issue", {
        headers: { "Set-Cookie": await writeFlowState({ email: result.email, problem: "not-verified", ...(returnTo ? { returnTo } : {}) }) },
      });
    }
    // The return address goes on with the sign-in, in the signed flow state (the code step reads it); a sign-in
    // without one drops any an earlier, unfinished sign-in left there.
    const { returnTo: _earlier, ...flow } = await readFlowState(request);
    return redirect(authPaths[result.next], { headers: setCookies(result.setCookie, await writeFlowState(returnTo ? { ...flow, returnTo } : flow)) });
  });
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "sign-in",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors([fields.email, t("auth.field.email")], [fields.password, t("auth.field.password")]);
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.signIn.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("auth.signIn.title")}</h1>
      {loaderData.reason ? (
        <div className="notice notice--warning" role="status">
          <p>
            {t(loaderData.reason === "kept" ? "expiry.signIn.kept" : loaderData.reason === "saved" ? "auth.signIn.savedNotice" : "auth.signIn.pageNotice")}
          </p>
        </div>
      ) : null}
      <div className="auth-columns">
        <div className="panel">
          <ErrorSummary errors={errors} formErrors={form.errors} />
          <Form method="post" {...getFormProps(form)} noValidate className="form">
            <TextField field={fields.email} label={t("auth.field.email")} type="email" autoComplete="username" />
            <TextField field={fields.password} label={t("auth.field.password")} type="password" autoComplete="current-password" />
            <p className="form__aside">
              <a href="/auth/reset-password">{t("auth.signIn.forgotten")}</a>
            </p>
            <button type="submit" className="button">
              {t("auth.signIn.submit")}
            </button>
          </Form>
        </div>
        <section aria-labelledby="create-account-title" className="panel panel--muted">
          <h2 id="create-account-title">{t("auth.signIn.createTitle")}</h2>
          <p>{t("auth.signIn.createText")}</p>
          <a className="button button--secondary" href={loaderData.signUp}>
            {t("auth.signIn.createAction")}
          </a>
        </section>
      </div>
    </div>
  );
}
