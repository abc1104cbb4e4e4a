/**
 * The request limits, applied at the edge to every route, the viewer included (server/body-policy.ts;
 * docs/decisions/0014-request-limits.md). These are the pure rules: the server reads and counts.
 */

/** A body (any kind, chunked or not) is refused with 413 as soon as it passes this many bytes. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;
/**
 * An uploaded file is cut at this many bytes while it streams: one byte more than an attachment may have
 * (`MAX_ATTACHMENT_BYTES`, under 5 MB), so the viewer's own check refuses a longer file with its message.
 */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Files in one multipart body (the viewer's upload page sends one). */
export const MAX_FILES = 10;
/** Fields in one multipart body (a viewer page with a long repeating list sends a few hundred at most). */
export const MAX_FIELDS = 1_000;
/** Bytes of one multipart text field (answers are far shorter: the AI rephrase caps them at 4,000 characters). */
export const MAX_FIELD_BYTES = 100 * 1024;
/** Bytes of one multipart field name. */
export const MAX_FIELD_NAME_BYTES = 200;
/** A body that sends nothing for this long is refused (408) and its connection closed. */
export const BODY_IDLE_TIMEOUT_MS = 15_000;

/** The methods every address takes (the `Allow` header of a 405); anything else is refused at the edge. */
export const ALLOWED_METHODS = "GET, HEAD, POST";
const ALLOWED = new Set(ALLOWED_METHODS.split(", "));

export const messages = {
  unreadable: "What was sent could not be read.",
  tooLarge: "What was sent is too large.",
  method: "This address does not accept that method.",
  host: "The request has no host.",
  origin: "Forms can only be sent from this site.",
  timeout: "What was sent took too long to arrive.",
} as const;

export type Refusal = { status: 400 | 403 | 405 | 408 | 413; message: string; reason: string };

/**
 * Why a request is refused before it reaches the app, or null: a method other than GET, HEAD and POST; an
 * empty or missing Host; a POST whose Origin is another site (defence in depth beside SameSite=Lax cookies);
 * a declared body over the limit (a chunked body is counted as it arrives, by the server).
 */
export function refusal(request: {
  method: string;
  /** The path: the organisation's API (/api/…) takes DELETE too (bearer tokens, no body, no cookie). */
  path?: string;
  /** The Host header. */
  host: string | undefined;
  /** The host the app builds its URLs from: X-Forwarded-Host from the trusted proxy, else the Host header. */
  urlHost?: string | undefined;
  protocol: string;
  origin: string | undefined;
  contentLength: string | undefined;
  publicOrigin: string;
}): Refusal | null {
  const apiDelete = request.method === "DELETE" && (request.path ?? "").startsWith("/api/");
  if (!ALLOWED.has(request.method) && !apiDelete) return { status: 405, message: messages.method, reason: "method not allowed" };
  if (!request.host?.trim()) return { status: 400, message: messages.host, reason: "no host" };
  if (request.method !== "POST") return null;
  if (request.origin && request.origin !== "null") {
    const own = new Set([request.publicOrigin, `${request.protocol}://${request.urlHost ?? request.host}`]);
    if (!own.has(request.origin)) return { status: 403, message: messages.origin, reason: "origin of another site" };
  }
  if (request.contentLength && Number(request.contentLength) > MAX_BODY_BYTES) return tooLarge("declared body over the limit");
  return null;
}

export type BodyKind = "urlencoded" | "multipart" | "json";

/**
 * How a POST body is read, from its Content-Type, or why it is refused unread: every route takes a form
 * (URL-encoded, or multipart with a boundary); `POST /assemble` takes JSON too (app/documents/dat.server.ts), and so
 * does the organisation's API (/api/…, app/api/).
 */
export function bodyKind(path: string, contentType: string | undefined): BodyKind | Refusal {
  const [type = "", ...params] = (contentType ?? "").split(";");
  switch (type.trim().toLowerCase()) {
    case "application/x-www-form-urlencoded":
      return "urlencoded";
    case "multipart/form-data":
      return params.some((param) => /^\s*boundary\s*=\s*\S/i.test(param)) ? "multipart" : unreadable("multipart without a boundary");
    case "application/json":
      return path === "/assemble" || path.startsWith("/api/") ? "json" : unreadable("not a form");
    case "":
      // A POST of the API with nothing to send (rotate a secret, send again) has no body and no type: passed on as
      // bytes, which the API reads only where an endpoint takes a body, as JSON (app/api/dispatch.server.ts).
      return path.startsWith("/api/") ? "urlencoded" : unreadable("no content type");
    default:
      return unreadable("not a form");
  }
}

export function unreadable(reason: string): Refusal {
  return { status: 400, message: messages.unreadable, reason };
}

export function tooLarge(reason: string): Refusal {
  return { status: 413, message: messages.tooLarge, reason };
}

/**
 * The one log line of an expected refusal: method, path (never the query, which may hold a token), status,
 * reason. Control characters are escaped and the parts cut short, so a request cannot write lines of its own.
 */
export function refusalLine(request: { method: string; path: string }, status: number, reason: string): string {
  const clean = (text: string, max: number) => {
    const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
  };
  const path = request.path.split("?")[0] ?? "";
  return `refused ${clean(request.method, 20)} ${clean(path, 200)} ${status}: ${clean(reason, 200)}`;
}
