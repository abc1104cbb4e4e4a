import { data } from "react-router";
import { writeFlowState } from "~/auth/flow-state.server";
import { requireFlowState } from "~/auth/resend.server";
import type { Route } from "./+types/auth.account-deleted";

export function meta() {
  return [{ title: "Your account was deleted | Legal Self-Help" }];
}

// Only straight after a deletion, in the browser that did it: the flag is used up here.
export async function loader({ request }: Route.LoaderArgs) {
  await requireFlowState(request, "accountDeleted");
  return data(null, { headers: { "Set-Cookie": await writeFlowState({}) } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function AccountDeleted() {
  return (
    <div className="page page--narrow">
      <h1>Your account was deleted</h1>
      <p>
        Your profile, interviews, answers and uploaded files are deleted, and you are signed out. We sent a last
        email to tell you so.
      </p>
      <p className="button-row">
        <a className="button" href="/">
          Go to the home page
        </a>
      </p>
    </div>
  );
}
