import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { checkLink, createPassword, type LinkProblem } from "~/auth/accounts.server";
import { setCookies, writeFlowState } from "~/auth/flow-state.server";
import { requestedReturn } from "~/auth/return-to";
import { invalid, limited } from "~/auth/form-replies.server";
import { NewPasswordForm } from "~/auth/new-password-form";
import { setPasswordSchema } from "~/auth/schemas";
import { sessionContext } from "~/auth/session.server";
import { clientAddressContext } from "~/request-context";
import { RichText, useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import { resultShowsErrors } from "~/ui/form";
import type { Route } from "./+types/auth.sign-up.password";

/** A link that no longer works (AU03 expired, used, unknown) → the page that says which and sends a new one. */
async function leave(check: LinkProblem): Promise<Response> {
  const email = "email" in check ? check.email : undefined;
  return redirect("/auth/email-verify-issue", {
    headers: { "Set-Cookie": await writeFlowState({ email, problem: check.status }) },
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("code") ?? "";
  const check = await checkLink(code, "verify-email");
  if (check.status !== "valid") throw await leave(check);
  return { code, email: check.user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: setPasswordSchema });
  if (submission.status !== "success") return invalid(submission);
  const { code, password } = submission.value;
  return limited(submission, async () => {
    const result = await createPassword(code, password, context.get(sessionContext), context.get(clientAddressContext));
    if ("status" in result) return leave(result);
    // The emailed link's return address goes on to the two-factor set-up in the signed flow state.
    const returnTo = requestedReturn(request);
    return redirect("/auth/setup-2fa", { headers: setCookies(result.setCookie, returnTo ? await writeFlowState({ returnTo }) : null) });
  });
}

export default function CreatePassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.createPassword.title")} errors={resultShowsErrors(actionData?.result)} />
      <h1>{t("auth.createPassword.title")}</h1>
      <p>
        <RichText id="auth.createPassword.intro" values={{ email: loaderData.email }} tags={{ strong: (words) => <strong translate="no">{words}</strong> }} />
      </p>
      <NewPasswordForm code={loaderData.code} lastResult={actionData?.result} submitLabel={t("auth.createPassword.submit")} />
    </div>
  );
}
