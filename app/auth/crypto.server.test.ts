import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptionKey, encryptSecret, hashPassword, hashToken, verifyPassword } from "./crypto.server";
import { newTotpSecret, verifyTotp } from "./totp.server";

describe("passwords", () => {
  it("are hashed with scrypt and a salt, and verified", async () => {
    const hash = await hashPassword("correct horse 42");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await hashPassword("correct horse 42")).not.toBe(hash);
    expect(await verifyPassword("correct horse 42", hash)).toBe(true);
    expect(await verifyPassword("correct horse 43", hash)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
  });
});

describe("secrets at rest", () => {
  const key = encryptionKey({ SESSION_SECRET: "s".repeat(40) });
  it("round-trip with AES-GCM and refuse tampering or another key", () => {
    const sealed = encryptSecret("JBSWY3DPEHPK3PXP", key);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(decryptSecret(sealed, key)).toBe("JBSWY3DPEHPK3PXP");
    const [v, iv, tag, body] = sealed.split(":");
    const flipped = `${v}:${iv}:${tag}:${Buffer.from(Buffer.from(body!, "base64").map((b, i) => (i === 0 ? b ^ 1 : b))).toString("base64")}`;
    expect(() => decryptSecret(flipped, key)).toThrow();
    expect(() => decryptSecret(sealed, encryptionKey({ SESSION_SECRET: "t".repeat(40) }))).toThrow();
  });
  it("use TOTP_ENCRYPTION_KEY when it is set", () => {
    const explicit = Buffer.alloc(32, 7).toString("base64");
    expect(encryptionKey({ SESSION_SECRET: "x", TOTP_ENCRYPTION_KEY: explicit }).equals(Buffer.alloc(32, 7))).toBe(true);
  });
  it("store token hashes, not tokens", () => {
    expect(hashToken("abc")).toBe(hashToken("abc"));
    expect(hashToken("abc")).not.toContain("abc");
  });
});

describe("TOTP (SHA-1, 6 digits, 30 s, one step either side, once only)", () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2030, 0, 1, 12, 0, 10);
  const at = (ms: number) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: ms });
  const step = Math.floor(now / 30_000);

  it("accepts the current code and its neighbours, and nothing further", () => {
    expect(verifyTotp(secret, at(now), null, now)).toBe(step);
    expect(verifyTotp(secret, at(now - 30_000), null, now)).toBe(step - 1);
    expect(verifyTotp(secret, at(now + 30_000), null, now)).toBe(step + 1);
    expect(verifyTotp(secret, at(now + 90_000), null, now)).toBeNull();
    expect(verifyTotp(secret, "12345", null, now)).toBeNull();
    expect(verifyTotp(secret, "abcdef", null, now)).toBeNull();
  });

  it("refuses a code whose step was already used", () => {
    expect(verifyTotp(secret, at(now), step, now)).toBeNull();
    expect(verifyTotp(secret, at(now - 30_000), step, now)).toBeNull();
    expect(verifyTotp(secret, at(now + 30_000), step, now)).toBe(step + 1);
  });
});
