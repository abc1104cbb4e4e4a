import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { dataKeyring, DataDecryptionError } from "~/security/data-encryption.server";
import { hashPassword, hashToken, openTwoFactorValue, sealTwoFactorValue, verifyPassword } from "./crypto.server";
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
  const keys = dataKeyring(Buffer.alloc(32, 5));
  it("are sealed with the data keyring, bound to their row, and refuse tampering or another key", () => {
    const sealed = sealTwoFactorValue("JBSWY3DPEHPK3PXP", "users.totp_secret", "user-1", keys);
    expect(sealed.startsWith(`enc1:${keys.current.id}:`)).toBe(true);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(openTwoFactorValue(sealed, "users.totp_secret", "user-1", keys)).toBe("JBSWY3DPEHPK3PXP");
    // Moved to another person, or to a session's pending set-up: it does not open.
    expect(() => openTwoFactorValue(sealed, "users.totp_secret", "user-2", keys)).toThrow(DataDecryptionError);
    expect(() => openTwoFactorValue(sealed, "sessions.pending_totp_secret", "user-1", keys)).toThrow(DataDecryptionError);
    const packed = Buffer.from(sealed.split(":")[2]!, "base64");
    packed[packed.length - 1]! ^= 1;
    const flipped = `enc1:${keys.current.id}:${packed.toString("base64")}`;
    expect(() => openTwoFactorValue(flipped, "users.totp_secret", "user-1", keys)).toThrow(DataDecryptionError);
    expect(() => openTwoFactorValue(sealed, "users.totp_secret", "user-1", dataKeyring(Buffer.alloc(32, 6)))).toThrow(DataDecryptionError);
    // After a rotation, the old key still opens it while it is among the old keys.
    expect(openTwoFactorValue(sealed, "users.totp_secret", "user-1", dataKeyring(Buffer.alloc(32, 6), [Buffer.alloc(32, 5)]))).toBe("JBSWY3DPEHPK3PXP");
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
