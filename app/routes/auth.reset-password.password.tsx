import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { checkLink, resetPassword } from "~/auth/accounts.server";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited } from "~/auth/form-replies.server";
import { NewPasswordForm } from "~/auth/new-password-form";
import { authMessages, setPasswordSchema } from "~/auth/schemas";
import { clientAddressContext } from "~/request-context";
import { redirectWithToast } from "~/ui/toast.server";
import { PageTitle } from "~/ui/page-title";
import { resultShowsErrors } from "~/ui/form";
import type { Route } from "./+types/auth.reset-password.password";

const expiredMessage = "This link has expired. Please ask for a new link.";

// An invalid link shows why and goes to /; an expired one goes back to asking for a new link.
function leave(status: "expired" | "invalid"): Promise<Response> {
  return status === "expired"
    ? redirectWithToast("/auth/reset-password", { type: "error", message: expiredMessage })
    : redirectWithToast("/", { type: "error", message: authMessages.linkInvalid });
}

export async function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("code") ?? "";
  const check = await checkLink(code, "reset-password");
  if (check.status !== "valid") throw await leave(check.status);
  return { code };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: setPasswordSchema });
  if (submission.status !== "success") return invalid(submission);
  const { code, password } = submission.value;
  return limited(submission, async () => {
    const result = await resetPassword(code, password, context.get(clientAddressContext));
    if (result.status !== "done") return leave(result.status === "expired" ? "expired" : "invalid");
    return redirect("/auth/reset-password/successful", {
      headers: { "Set-Cookie": await writeFlowState({ passwordReset: true }) },
    });
  });
}

export default function NewPassword({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="page page--narrow">
      <PageTitle title="Choose a new password" errors={resultShowsErrors(actionData?.result)} />
      <h1>Choose a new password</h1>
      <NewPasswordForm code={loaderData.code} lastResult={actionData?.result} submitLabel="Reset password" />
    </div>
  );
}
