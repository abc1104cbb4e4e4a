import { LinkSentPage } from "~/auth/link-sent";
import { requestPasswordReset } from "~/auth/accounts.server";
import { requireFlowState, resendAndReturn } from "~/auth/resend.server";
import type { Route } from "./+types/auth.reset-password.check-email";

export async function loader({ request }: Route.LoaderArgs) {
  const { email } = await requireFlowState(request, "email");
  return { email };
}

export function action({ request, context }: Route.ActionArgs) {
  return resendAndReturn(request, context, requestPasswordReset, "Password resent.");
}

// The same page whether or not an account has this email: nobody learns who has an account here.
export default function CheckEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LinkSentPage problem={actionData?.problem}>
      <p>
        If an account exists for <strong>{loaderData.email}</strong>, we have sent it a link to choose a new password.
        The link will expire in 1 hour.
      </p>
    </LinkSentPage>
  );
}
