// Signing deliveries in the Standard Webhooks form (https://www.standardwebhooks.com/): a secret `whsec_<base64>`,
// an HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the secret's bytes, sent as
// `webhook-signature: v1,<base64>` (several, space-separated, while a rotated secret is still honoured).
import { createHmac, randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

/** A new signing secret: 32 random bytes, in the `whsec_` base64 form receivers' libraries take as it is. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** The `v1,<base64>` signature of one message with one secret. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt: the id (the same on every attempt), the attempt's time in seconds, the signatures. */
export function signedHeaders(secrets: string[], id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signature(secret, id, timestamp, body)).join(" "),
  };
}
