import { data } from "react-router";

export interface NotFoundData {
  backHref: string;
}

/** Where "Back" on the not-found page goes without script: the referring page of this site, else home. */
export function backHref(request: Request): string {
  const referrer = request.headers.get("referer");
  if (!referrer || !URL.canParse(referrer)) return "/";
  const from = new URL(referrer);
  const here = new URL(request.url);
  if (from.origin !== here.origin || from.pathname === here.pathname) return "/";
  return from.pathname + from.search;
}

/** Throw from a loader: the root error boundary renders the not-found page with status 404. */
export function notFound(request: Request): never {
  throw data<NotFoundData>({ backHref: backHref(request) }, { status: 404 });
}

export interface TooManyRequestsData {
  message: string;
}

/** Throw from a loader or action: the root error boundary renders the message with status 429. */
export function tooManyRequests(message: string, retryAfterMinutes: number): never {
  throw data<TooManyRequestsData>({ message }, { status: 429, headers: { "Retry-After": String(retryAfterMinutes * 60) } });
}

/** A positive integer id from a route parameter, or null. */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : null;
}
