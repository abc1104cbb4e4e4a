import { redirect, type RouterContextProvider } from "react-router";
import { withReturn } from "~/auth/return-to";
import { currentUser, expiredUserContext, requireUser, type SessionUser } from "~/auth/session.server";
import { logger } from "~/observability/log.server";
import { formOf, type KeptPurpose, keepPost, takeKeptPost } from "./kept-posts.server";

const log = logger("expiry");

/**
 * A form posted after the session expired is kept and given back after signing in again
 * (docs/decisions/0051-session-expiry-loses-nothing.md): the sign-in returns to the page it was posted to, its
 * address carrying the kept form's id as `?kept=`.
 */
export const KEPT_PARAM = "kept";

/** The page a request was made to, as a kept form is bound to it: its path and query, without `kept`. */
export function keptPath(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(KEPT_PARAM);
  const query = params.toString();
  return url.pathname + (query ? `?${query}` : "");
}

/** The page's address with the kept form's id. */
export function withKept(path: string, id: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}${KEPT_PARAM}=${encodeURIComponent(id)}`;
}

/** Where a person whose form was kept signs in: back to the page, which gives the form back. */
export function keptSignIn(path: string, id: string): string {
  return withReturn("/auth/sign-in", withKept(path, id));
}

/**
 * Keeps a form posted after its account's session expired; returns the sign-in address that brings it back,
 * or null when it could not be kept (too big, another account's interview, a failure: logged; the person then
 * signs in as if nothing had been posted).
 */
export async function keepForSignIn(userId: string, purpose: KeptPurpose, path: string, interviewId: string | null, form: FormData | null): Promise<string | null> {
  if (!form) return null;
  try {
    const id = await keepPost({ userId, purpose, path, interviewId }, form);
    return id ? keptSignIn(path, id) : null;
  } catch (error) {
    log.error("a form posted after its session expired could not be kept", { err: error });
    return null;
  }
}

/**
 * The signed-in person of a request to a page that needs one. When there is none because their session has just
 * expired and the request posts a form, the form is kept for them (`interviewId`: the interview it belongs to,
 * if any) and they are sent to sign in, coming back to this page, which gives it back (takeKept). Otherwise as
 * requireUser.
 */
export async function userOrKeep(
  context: Readonly<RouterContextProvider>,
  request: Request,
  purpose: KeptPurpose,
  interviewId: string | null,
): Promise<SessionUser> {
  const user = currentUser(context);
  if (user) return user;
  const expired = context.get(expiredUserContext);
  if (expired && request.method === "POST") {
    const form = await request.formData().catch(() => null);
    const signIn = await keepForSignIn(expired, purpose, keptPath(new URL(request.url)), interviewId, form);
    if (signIn) throw redirect(signIn);
  }
  return requireUser(context, request);
}

/**
 * The form kept for the signed-in person on this page (the address's `?kept=`), once: null when the address names
 * none, or the form is not theirs, not this page's, used already or past its hour.
 */
export async function takeKept(context: Readonly<RouterContextProvider>, request: Request, purpose: KeptPurpose): Promise<FormData | null> {
  const url = new URL(request.url);
  const id = url.searchParams.get(KEPT_PARAM);
  const user = currentUser(context);
  if (!id || !user) return null;
  const taken = await takeKeptPost(id, { userId: user.id, purpose, path: keptPath(url) });
  return taken ? formOf(taken.fields) : null;
}
