import { createCookie } from "react-router";
import { config } from "~/config.server";

/** The words the home page shows after "Save and finish later" (A2J's EXIT, the spec's save-logout). */
export const savedNoticeMessage = "Your answers are saved. Sign in to continue your interview.";

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

export function setSavedNotice(): Promise<string> {
  return savedNoticeCookie().serialize(true);
}

export async function hasSavedNotice(request: Request): Promise<boolean> {
  return (await savedNoticeCookie().parse(request.headers.get("Cookie"))) === true;
}

export function clearSavedNotice(): Promise<string> {
  return savedNoticeCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
