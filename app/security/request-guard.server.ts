/** Bodies larger than this are refused before they are read (uploads are under 5 MB, plus form overhead). */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a request is refused before it reaches the app, or null. A state-changing request whose Origin is
 * another site is refused (defence in depth beside SameSite=Lax cookies); so is a body over the limit.
 */
export function refusal(request: {
  method: string;
  host: string | undefined;
  protocol: string;
  origin: string | undefined;
  contentLength: string | undefined;
  publicOrigin: string;
}): { status: 403 | 413; message: string } | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  if (request.origin && request.origin !== "null") {
    const own = new Set([request.publicOrigin, request.host ? `${request.protocol}://${request.host}` : ""]);
    if (!own.has(request.origin)) return { status: 403, message: "Forms can only be sent from this site." };
  }
  if (request.contentLength && Number(request.contentLength) > MAX_BODY_BYTES) {
    return { status: 413, message: "What was sent is too large." };
  }
  return null;
}
