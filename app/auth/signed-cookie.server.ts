import { createHmac, timingSafeEqual } from "node:crypto";

// UTF-8 that fails on bad bytes and keeps a byte order mark, like React Router's decodeURIComponent(escape(…)).
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The value of cookie `name` in a Cookie header, read the way the `cookie` package (React Router's) reads it. */
function rawCookie(header: string, name: string): string | undefined {
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1) continue;
    if (trim(pair.slice(0, eq)) !== name) continue;
    const value = trim(pair.slice(eq + 1));
    if (!value.includes("%")) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Trims spaces and tabs only. */
function trim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.slice(start, end);
}

/** `value` if `signed` is `value.signature` with the HMAC-SHA256 of `value` under `secret`, else false. */
function unsign(signed: string, secret: string): string | false {
  const dot = signed.lastIndexOf(".");
  if (dot === -1) return false;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  // React Router writes the signature in base64 without padding; only that exact form is accepted.
  const expected = Buffer.from(createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, ""));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : false;
}

function decode(value: string): unknown {
  try {
    return JSON.parse(utf8.decode(Buffer.from(atob(value), "latin1")));
  } catch {
    return {};
  }
}

/**
 * Reads a cookie written by React Router's `createCookie(name, { secrets })`, synchronously: what its
 * `parse` returns (null when the header has no such cookie, "" when it is empty, null when no secret signed
 * it, otherwise the decoded value), with node:crypto's HMAC instead of WebCrypto (which imports the key and
 * goes through a promise on every request). The signature is compared in constant time. One difference:
 * a signature with base64 padding or stray characters, which React Router never writes but its `atob`
 * tolerates, is refused.
 */
export function readSignedCookie(header: string | null, name: string, secrets: readonly string[]): unknown {
  if (!header) return null;
  const raw = rawCookie(header, name);
  if (raw === undefined) return null;
  if (raw === "") return "";
  for (const secret of secrets) {
    const value = unsign(raw, secret);
    if (value !== false) return decode(value);
  }
  return null;
}
