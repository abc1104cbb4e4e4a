import { createCookie } from "react-router";
import { config } from "~/config.server";
import { messageRef } from "~/i18n/translator";

/**
 * The words the home page shows after "Save and finish later" (A2J's EXIT, the spec's save-logout): "You are
 * signed out. Your answers are saved: sign in to continue your interview."
 */
export const savedNoticeMessage = messageRef("public.home.savedNotice");

/**
 * Set when an interview is saved and the person signed out, so the home page can say so. It stays until the
 * person dismisses it or signs in again: a message that vanished on the next page would be missed, and the
 * signed-out home page has no session to keep it in.
 */
function savedNoticeCookie() {
  return createCookie("__answers_saved", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config().isHttps,
    secrets: config().sessionSecrets,
    maxAge: 30 * 24 * 60 * 60,
  });
}

/** Set with the interview's address, where signing in again leads. */
export function setSavedNotice(interviewPath: string): Promise<string> {
  return savedNoticeCookie().serialize(interviewPath);
}

/** The saved interview's address while the notice stands (a notice set before it named one leads to My interviews). */
export async function savedInterview(request: Request): Promise<string | null> {
  const value: unknown = await savedNoticeCookie().parse(request.headers.get("Cookie"));
  if (value === true) return "/account/interview";
  return typeof value === "string" && /^\/issues\/\d+\/interviews(\/[0-9a-f-]{36})?$/.test(value) ? value : null;
}

export function clearSavedNotice(): Promise<string> {
  return savedNoticeCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
