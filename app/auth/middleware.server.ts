import { redirect, type MiddlewareFunction } from "react-router";
import { clearSessionCookie, loadSession, sessionContext } from "./session.server";

/**
 * Loads the request's session once, for every loader and action. A session that has expired or was revoked
 * is cleared and the person is sent to / (docs/decisions/0004-accounts.md).
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { session, stale } = await loadSession(request.headers.get("Cookie"));
  context.set(sessionContext, session);
  if (!stale) return next();
  const clear = await clearSessionCookie();
  if (new URL(request.url).pathname !== "/") throw redirect("/", { headers: { "Set-Cookie": clear } });
  const response = await next();
  response.headers.append("Set-Cookie", clear);
  return response;
};
