import { data } from "react-router";
import { writeFlowState } from "~/auth/flow-state.server";
import { requireFlowState } from "~/auth/resend.server";
import type { Route } from "./+types/auth.reset-password.successful";

export function meta() {
  return [{ title: "Password reset | Legal Self-Help" }];
}

// Only straight after a reset (spec: "reachable only through a state flag"): the flag is used up here.
export async function loader({ request }: Route.LoaderArgs) {
  await requireFlowState(request, "passwordReset");
  return data(null, { headers: { "Set-Cookie": await writeFlowState({}) } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function ResetSuccessful() {
  return (
    <div className="page page--narrow">
      <h1>Your password has been reset</h1>
      <p>You can now sign in with your new password. For your safety, you have been signed out on every device.</p>
      <p className="button-row">
        <a className="button" href="/auth/sign-in">
          Sign in
        </a>
      </p>
    </div>
  );
}
