import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { checkLink, type LinkProblem, resetPassword } from "~/auth/accounts.server";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited } from "~/auth/form-replies.server";
import { NewPasswordForm } from "~/auth/new-password-form";
import { setPasswordSchema } from "~/auth/schemas";
import { clientAddressContext } from "~/request-context";
import { useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import { resultShowsErrors } from "~/ui/form";
import type { Route } from "./+types/auth.reset-password.password";

/**
 * A link that no longer works (expired, used, unknown) → the reset request page, which says which and sends a
 * new link to the email it is given (filled in when the link told us).
 */
async function leave(check: LinkProblem): Promise<Response> {
  const headers = "email" in check ? { "Set-Cookie": await writeFlowState({ email: check.email }) } : undefined;
  return redirect(`/auth/reset-password?link=${check.status}`, { headers });
}

export async function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("code") ?? "";
  const check = await checkLink(code, "reset-password");
  if (check.status !== "valid") throw await leave(check);
  return { code };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: setPasswordSchema });
  if (submission.status !== "success") return invalid(submission);
  const { code, password } = submission.value;
  return limited(submission, async () => {
    const result = await resetPassword(code, password, context.get(clientAddressContext));
    if (result.status !== "done") return leave(result);
    return redirect("/auth/reset-password/successful", {
      headers: { "Set-Cookie": await writeFlowState({ passwordReset: true }) },
    });
  });
}

export default function NewPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.newResetPassword.title")} errors={resultShowsErrors(actionData?.result)} />
      <h1>{t("auth.newResetPassword.title")}</h1>
      <NewPasswordForm code={loaderData.code} lastResult={actionData?.result} submitLabel={t("auth.newResetPassword.submit")} />
    </div>
  );
}
