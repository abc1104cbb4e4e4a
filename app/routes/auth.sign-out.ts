import { redirect } from "react-router";
import { endSession, sessionContext } from "~/auth/session.server";
import { notFound } from "~/http.server";
import type { Route } from "./+types/auth.sign-out";

/** Sign out is a POST (a plain form, no script): the session ends and the person goes to /. */
export async function action({ context }: Route.ActionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await endSession(context.get(sessionContext)) } });
}

export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}
