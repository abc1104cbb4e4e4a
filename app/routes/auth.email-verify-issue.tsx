import { Form, redirect } from "react-router";
import { resendVerification } from "~/auth/accounts.server";
import { requireFlowState, resendAndReturn } from "~/auth/resend.server";
import { authMessages } from "~/auth/schemas";
import type { Route } from "./+types/auth.email-verify-issue";

export function meta() {
  return [{ title: "Verify your email | Legal Self-Help" }];
}

// AU02 (not verified) and AU03 (expired link) land here with the email and the kind of problem.
export async function loader({ request }: Route.LoaderArgs) {
  const { email, problem } = await requireFlowState(request, "problem");
  if (!email) throw redirect("/");
  return { email, problem };
}

export function action({ request, context }: Route.ActionArgs) {
  return resendAndReturn(request, context, resendVerification, "Successfully resent.");
}

export default function EmailVerifyIssue({ loaderData }: Route.ComponentProps) {
  const expired = loaderData.problem === "expired";
  return (
    <div className="page page--narrow">
      <h1>{expired ? "This link has expired" : "Please verify your email"}</h1>
      <p>{expired ? authMessages.expiredLink : authMessages.notVerified}</p>
      <p>
        We will send the link to <strong>{loaderData.email}</strong>.
      </p>
      <Form method="post">
        <button type="submit" className="button">
          Send a new link
        </button>
      </Form>
    </div>
  );
}
