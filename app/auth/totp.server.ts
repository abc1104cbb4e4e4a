import * as OTPAuth from "otpauth";
import QRCode from "qrcode";

const PERIOD = 30;
const DIGITS = 6;
const ISSUER = "Legal Self-Help";

function totp(secret: string, label: string) {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** A new shared secret in base32, as authenticator apps take it. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function otpauthUri(secret: string, accountName: string): string {
  return totp(secret, accountName).toString();
}

/** The QR code of the otpauth URI as an SVG data URL, made on the server (no script needed to show it). */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/**
 * Checks a 6-digit code (SHA-1, 30 s, one step either side) and returns the time step it matched, or null.
 * A code whose step is not after `lastStep` is refused, so each code works once only.
 */
export function verifyTotp(secret: string, code: string, lastStep: number | null, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret, "check").validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
