import { LinkSentPage } from "~/auth/link-sent";
import { requestPasswordReset } from "~/auth/accounts.server";
import { requireFlowState, resendAndReturn } from "~/auth/resend.server";
import { messageRef } from "~/i18n/translator";
import { RichText } from "~/i18n/react";
import type { Route } from "./+types/auth.reset-password.check-email";

export async function loader({ request }: Route.LoaderArgs) {
  const { email } = await requireFlowState(request, "email");
  return { email };
}

export function action({ request, context }: Route.ActionArgs) {
  return resendAndReturn(request, context, requestPasswordReset, messageRef("auth.checkEmail.resent"));
}

// The same page whether or not an account has this email: nobody learns who has an account here.
export default function CheckEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LinkSentPage problem={actionData?.problem}>
      <p>
        <RichText id="auth.checkEmail.text" values={{ email: loaderData.email }} tags={{ strong: (words) => <strong translate="no">{words}</strong> }} />
      </p>
    </LinkSentPage>
  );
}
