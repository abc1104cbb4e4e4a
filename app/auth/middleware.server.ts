import type { MiddlewareFunction } from "react-router";
import { clearSessionCookie, expiredUserContext, loadSession, sessionContext } from "./session.server";

/**
 * Loads the request's session once, for every loader and action. A session that has expired or was revoked is
 * cleared, and the request goes on signed out: a page that needs a signed-in person sends them to sign in and
 * back (requireUser), a public page is shown (docs/decisions/0040-replay-and-return-address.md; it was a
 * redirect to / in docs/decisions/0004-accounts.md).
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { session, stale, expiredUserId } = await loadSession(request.headers.get("Cookie"));
  context.set(sessionContext, session);
  context.set(expiredUserContext, expiredUserId);
  if (!stale) return next();
  const clear = await clearSessionCookie();
  const response = await next();
  response.headers.append("Set-Cookie", clear);
  return response;
};
