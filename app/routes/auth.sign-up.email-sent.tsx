import { LinkSentPage } from "~/auth/link-sent";
import { resendVerification } from "~/auth/accounts.server";
import { requireFlowState, resendAndReturn } from "~/auth/resend.server";
import type { Route } from "./+types/auth.sign-up.email-sent";

export async function loader({ request }: Route.LoaderArgs) {
  const { email } = await requireFlowState(request, "email");
  return { email };
}

export function action({ request, context }: Route.ActionArgs) {
  return resendAndReturn(request, context, resendVerification, "Successfully resent.");
}

export default function EmailSent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LinkSentPage problem={actionData?.problem}>
      <p>
        We have sent a verification link to <strong>{loaderData.email}</strong>. Open it to choose your password. The
        link will expire in 7 days.
      </p>
    </LinkSentPage>
  );
}
