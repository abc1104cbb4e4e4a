import { data, redirect } from "react-router";
import { safeReturnPath, withReturn } from "~/auth/return-to";
import { sessionContext, touchSession } from "~/auth/session.server";
import { notFound } from "~/http.server";
import type { Route } from "./+types/session.stay-signed-in";

/**
 * "Stay signed in" (app/ui/session-timeout.tsx): the session counts as used now. The warning's script posts it
 * with fetch and is told how long the session now has; a plain form comes back to its page (`returnTo`). A
 * session that has ended already: the script is told so (401), a plain form goes to sign in and back.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const returnTo = safeReturnPath(form?.get("returnTo")) ?? "/";
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  const session = context.get(sessionContext);
  if (!session?.user) {
    if (wantsJson) return data({ secondsLeft: 0 }, { status: 401, headers: { "Cache-Control": "no-store" } });
    throw redirect(withReturn("/auth/sign-in", returnTo));
  }
  const endsAt = await touchSession(session);
  if (!wantsJson) throw redirect(returnTo);
  const secondsLeft = Math.max(0, Math.floor((new Date(endsAt).getTime() - Date.now()) / 1000));
  return data({ secondsLeft }, { headers: { "Cache-Control": "no-store" } });
}

export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}
