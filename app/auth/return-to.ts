/**
 * Where a person goes back to after signing in or signing up: a path on this site, never an address elsewhere.
 * It travels as `?returnTo=` on the auth pages (and in the emailed verification link), and between the steps
 * of a sign-in in the signed flow state (app/auth/flow-state.server.ts), and is checked again wherever it is
 * read (docs/decisions/0040-replay-and-return-address.md).
 */
export const RETURN_PARAM = "returnTo";

const ORIGIN = "http://return.invalid";
const MAX_LENGTH = 2000;

/**
 * The path, query and fragment of a same-site address, or null: only an absolute path is accepted, never `//`
 * (another host), a scheme, a backslash (browsers read it as `/`), a control character, or the auth pages
 * themselves (signing in would lead back to signing in).
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN || url.pathname === "/auth" || url.pathname.startsWith("/auth/")) return null;
  return url.pathname + url.search + url.hash;
}

/** The return address a request names (`?returnTo=`), checked. */
export function requestedReturn(request: Request): string | null {
  return safeReturnPath(new URL(request.url).searchParams.get(RETURN_PARAM));
}

/** An auth page's address carrying the return address (unchanged without one). */
export function withReturn(path: string, returnTo: string | null | undefined): string {
  if (!returnTo) return path;
  const url = new URL(path, ORIGIN);
  url.searchParams.set(RETURN_PARAM, returnTo);
  return url.pathname + url.search;
}
