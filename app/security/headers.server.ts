import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
/** Random bytes for 256 nonces, drawn at once (node:crypto's randomUUID keeps such a pool too). */
const pool = Buffer.alloc(NONCE_BYTES * 256);
let next = pool.length;

/**
 * A fresh, unguessable nonce for one response's inline scripts: 16 bytes of the CSPRNG, each used once. They
 * come from a pool refilled every 256 responses: a call of randomBytes per response cost more than the rest of
 * the security headers (on Node 20 each one is an async resource that AsyncLocalStorage's hook sees).
 */
export function createNonce(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const nonce = pool.toString("base64", next, next + NONCE_BYTES);
  next += NONCE_BYTES;
  return nonce;
}

/**
 * The security headers of every response. Scripts run only from our origin or with this response's
 * nonce; nothing may frame us but ourselves (the interview viewer is an iframe of this application).
 */
export function securityHeaders({
  nonce,
  production,
  https,
  development = false,
}: {
  nonce: string;
  production: boolean;
  /** Whether the public origin is https: only then are plain-http subresources upgraded. */
  https: boolean;
  /** Vite's dev server talks to the page over a websocket for hot reload. */
  development?: boolean;
}): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    development ? "connect-src 'self' ws://localhost:* ws://127.0.0.1:*" : "connect-src 'self'",
    "frame-src 'self'",
    "frame-ancestors 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",
    ...(production ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}
