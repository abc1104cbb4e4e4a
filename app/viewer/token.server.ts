import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "~/config.server";

/** How long a viewer token lasts. */
export const TOKEN_TTL_MS = 10 * 60_000;

function sign(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`interview-token:${payload}`).digest("base64url");
}

/**
 * A short-lived token the host page gives the viewer when it asks: it names one interview of one
 * user and expires; it is never the session cookie.
 */
export function createInterviewToken(interviewId: string, userId: string, now = Date.now()): string {
  const payload = `${interviewId}.${userId}.${now + TOKEN_TTL_MS}`;
  return `${Buffer.from(payload).toString("base64url")}.${sign(payload, config().sessionSecrets[0]!)}`;
}

/** The interview and user a token names, if it is genuine and not expired. */
export function verifyInterviewToken(token: string, now = Date.now()): { interviewId: string; userId: string } | null {
  const [encoded, signature] = token.split(".");
  if (!encoded || !signature) return null;
  const payload = Buffer.from(encoded, "base64url").toString("utf8");
  const actual = Buffer.from(signature);
  // Signed with the newest session secret; one signed before a rotation verifies with the older ones.
  const genuine = config().sessionSecrets.some((secret) => {
    const expected = Buffer.from(sign(payload, secret));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  });
  if (!genuine) return null;
  const [interviewId, userId, expires] = payload.split(".");
  if (!interviewId || !userId || !(Number(expires) > now)) return null;
  return { interviewId, userId };
}
