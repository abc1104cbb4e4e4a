import { LinkSentPage } from "~/auth/link-sent";
import { resendVerification } from "~/auth/accounts.server";
import { requireFlowState, resendAndReturn } from "~/auth/resend.server";
import { messageRef } from "~/i18n/translator";
import { RichText } from "~/i18n/react";
import type { Route } from "./+types/auth.sign-up.email-sent";

export async function loader({ request }: Route.LoaderArgs) {
  const { email } = await requireFlowState(request, "email");
  return { email };
}

export function action({ request, context }: Route.ActionArgs) {
  return resendAndReturn(request, context, resendVerification, messageRef("auth.emailSent.resent"));
}

export default function EmailSent({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LinkSentPage problem={actionData?.problem}>
      <p>
        <RichText id="auth.emailSent.text" values={{ email: loaderData.email }} tags={{ strong: (words) => <strong translate="no">{words}</strong> }} />
      </p>
    </LinkSentPage>
  );
}
