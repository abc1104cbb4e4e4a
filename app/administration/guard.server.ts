import type { RouterContextProvider } from "react-router";
import { currentUser, type SessionUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import type { Actor } from "~/audit/audit.server";

/**
 * For every /admin page and form: anyone who is not a signed-in administrator gets the not-found page, the
 * same as for a path that does not exist, so the area's existence is no hint to anyone.
 */
export function requireAdministrator(context: Readonly<RouterContextProvider>, request: Request): SessionUser {
  const user = currentUser(context);
  if (!user?.administrator) notFound(request);
  return user;
}

/** The administrator behind a request, as the audit records them. */
export function actorOf(user: SessionUser, context: Readonly<RouterContextProvider>): Actor {
  return { id: user.id, email: user.email, address: context.get(clientAddressContext) };
}
