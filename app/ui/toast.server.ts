import { createCookie, redirect } from "react-router";
import { config } from "~/config.server";
import type { Toast } from "./toast";

const FLASH_COOKIE = "__flash";

function flashCookie() {
  return createCookie(FLASH_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config().isHttps,
    secrets: config().sessionSecrets,
    maxAge: 60,
  });
}

/**
 * Redirects (post/redirect/get) and says something on the next page, rendered by the server: a success in a
 * toast that fades, an error in a message at the top of the page that stays (app/root.tsx).
 */
export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookie().serialize(toast));
  return redirect(url, { ...init, headers });
}

function isToast(value: unknown): value is Toast {
  if (!value || typeof value !== "object") return false;
  const { type, message } = value as Record<string, unknown>;
  return (type === "success" || type === "error") && (message === undefined || typeof message === "string");
}

/** The toast waiting in this request's flash cookie, if any. */
export async function readToast(request: Request): Promise<Toast | null> {
  const value: unknown = await flashCookie().parse(request.headers.get("Cookie"));
  return isToast(value) ? value : null;
}

export function hasFlash(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "").includes(`${FLASH_COOKIE}=`);
}

/** The header that removes the flash cookie once its toast has been shown. */
export async function clearFlashHeader(): Promise<string> {
  return flashCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
