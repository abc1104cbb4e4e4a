import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { migrateToLatest } from "../../db/migrate";
import { confirmTwoFactorSetup, createPassword, signInWithPassword, signUp, twoFactorSetup } from "./accounts.server";
import { RateLimitError } from "./rate-limit.server";
import { codesToShow, forgetCodesToShow, normalizeRecoveryCode, recoveryCodesLeft } from "./recovery-codes.server";
import { loadSession, type Session } from "./session.server";
import { makeNewRecoveryCodes, newAuthenticatorSetup, replaceAuthenticator, signInWithRecoveryCode } from "./two-factor-recovery.server";
import { authMessages } from "~/auth/schemas";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-recovery-"));

let addresses = 0;
const address = () => `198.51.100.${++addresses}`;
const PASSWORD = "correct horse 42";
const INVALID = { field: "code", message: authMessages.codeInvalid, status: 400 };

const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;
function code(secret: string, steps = 0) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

describe("recovery code format", () => {
  it("takes a code as printed, in any case, with spaces or dashes, o for 0 and l or i for 1", () => {
    expect(normalizeRecoveryCode("7g3kq-m2x9d")).toBe("7g3kqm2x9d");
    expect(normalizeRecoveryCode(" 7G3KQ M2X9D ")).toBe("7g3kqm2x9d");
    expect(normalizeRecoveryCode("o1ll0-iiiii")).toBe("0111011111");
    expect(normalizeRecoveryCode("7g3kq-m2x9")).toBeNull();
    expect(normalizeRecoveryCode("7g3kq-m2x9u")).toBeNull();
    expect(normalizeRecoveryCode("123456")).toBeNull();
  });
});

describe.each(dialects)("two-factor recovery on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
  });
  afterAll(() => handle?.drop());
  const db = () => handle.db;

  async function session(setCookie: string): Promise<Session> {
    const { session } = await loadSession(cookieHeader(setCookie), db());
    return session!;
  }

  async function emailedCode(email: string) {
    const row = await db().selectFrom("outbox_messages").select("text").where("to_address", "=", email).executeTakeFirstOrThrow();
    return new URL(row.text.match(/https?:\/\/\S+/)![0]).searchParams.get("code")!;
  }

  /** Sign-up to two-factor set up: the secret, the signed-in cookie and the ten codes the set-up showed. */
  async function account(email: string) {
    expect(await signUp({ firstName: "Ana", lastName: "Lim", email, phoneCountry: "SG", phoneNumber: "91234567" }, address(), db())).toBeNull();
    const created = await createPassword(await emailedCode(email), PASSWORD, null, address(), db());
    if (!("setCookie" in created)) throw new Error("password not created");
    const setup = await twoFactorSetup(await session(created.setCookie), db());
    if (!("secret" in setup)) throw new Error("no setup");
    expect(setup.otpauthUri).toBe(`otpauth://totp/Legal%20Self-Help:${encodeURIComponent(email)}?issuer=Legal%20Self-Help&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`);
    const done = await confirmTwoFactorSetup(await session(created.setCookie), code(setup.secret), address(), db());
    if (!("setCookie" in done)) throw new Error("setup not confirmed");
    const shown = await codesToShow(await session(done.setCookie), db());
    const user = await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    return { secret: setup.secret, setCookie: done.setCookie, codes: shown!.codes, userId: user.id, then: shown!.then };
  }

  async function pendingSignIn(email: string) {
    const step = await signInWithPassword(email, PASSWORD, null, address(), db());
    if (!("setCookie" in step)) throw new Error("password refused");
    return session(step.setCookie);
  }

  function subjects(email: string) {
    return db().selectFrom("outbox_messages").select("subject").where("to_address", "=", email).execute().then((rows) => rows.map((r) => r.subject));
  }

  it("makes ten different codes at set-up, keeps only keyed hashes, and shows them in that session until saved", async () => {
    const a = await account("codes-setup@example.org");
    expect(a.codes).toHaveLength(10);
    expect(new Set(a.codes).size).toBe(10);
    for (const c of a.codes) expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    expect(a.then).toBe("/");
    const rows = await db().selectFrom("recovery_codes").selectAll().where("user_id", "=", a.userId).execute();
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows) + JSON.stringify(await db().selectFrom("sessions").selectAll().execute());
    for (const c of a.codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(normalizeRecoveryCode(c));
    }
    const signedIn = await session(a.setCookie);
    await forgetCodesToShow(signedIn, db());
    expect(await codesToShow(signedIn, db())).toBeNull();
    expect(await recoveryCodesLeft(a.userId, db())).toBe(10);
  });

  it("signs in with a recovery code once, says so by email, and refuses it the second time", async () => {
    const email = "codes-once@example.org";
    const a = await account(email);
    const pending = await pendingSignIn(email);
    const signedIn = await signInWithRecoveryCode(pending, a.codes[3]!.toUpperCase().replace("-", " "), address(), db());
    if (!("setCookie" in signedIn)) throw new Error("recovery code refused");
    expect((await session(signedIn.setCookie)).user?.email).toBe(email);
    expect(await recoveryCodesLeft(a.userId, db())).toBe(9);
    expect(await subjects(email)).toContain("Security notice: A recovery code was used to sign in");

    expect(await signInWithRecoveryCode(await pendingSignIn(email), a.codes[3]!, address(), db())).toEqual(INVALID);
    expect(await recoveryCodesLeft(a.userId, db())).toBe(9);
    // Without the password step there is nobody to sign in.
    expect(await signInWithRecoveryCode(null, a.codes[4]!, address(), db())).toEqual({ next: "sign-in" });
  });

  it("refuses another person's code, a TOTP code and nonsense", async () => {
    const a = await account("codes-mine@example.org");
    const b = await account("codes-theirs@example.org");
    const pending = await pendingSignIn("codes-mine@example.org");
    expect(await signInWithRecoveryCode(pending, b.codes[0]!, address(), db())).toEqual(INVALID);
    expect(await signInWithRecoveryCode(pending, code(a.secret, 1), address(), db())).toEqual(INVALID);
    expect(await signInWithRecoveryCode(pending, "'; drop table users; --", address(), db())).toEqual(INVALID);
    expect(await recoveryCodesLeft(b.userId, db())).toBe(10);
  });

  it("stops guessing after 5 codes on one account, like the code step", async () => {
    const email = "codes-guess@example.org";
    const a = await account(email);
    const pending = await pendingSignIn(email);
    for (let i = 0; i < 5; i++) expect(await signInWithRecoveryCode(pending, `aaaaa-aaaa${i}`, address(), db())).toEqual(INVALID);
    await expect(signInWithRecoveryCode(pending, a.codes[0]!, address(), db())).rejects.toBeInstanceOf(RateLimitError);
    expect(await recoveryCodesLeft(a.userId, db())).toBe(10);
  });

  it("makes new codes after the password: the old ones stop working", async () => {
    const email = "codes-new@example.org";
    const a = await account(email);
    const signedIn = await session(a.setCookie);
    await forgetCodesToShow(signedIn, db());
    expect(await makeNewRecoveryCodes(a.userId, "wrong password 1", signedIn, address(), db())).toEqual({
      field: "password",
      message: authMessages.passwordInvalid,
      status: 400,
    });
    expect(await codesToShow(signedIn, db())).toBeNull();
    expect(await makeNewRecoveryCodes(a.userId, PASSWORD, signedIn, address(), db())).toBeNull();
    const fresh = await codesToShow(signedIn, db());
    expect(fresh?.then).toBe("/account/dashboard");
    expect(fresh?.codes.filter((c) => a.codes.includes(c))).toEqual([]);
    expect(await recoveryCodesLeft(a.userId, db())).toBe(10);
    expect(await subjects(email)).toContain("Security notice: New recovery codes were made for your account");

    expect(await signInWithRecoveryCode(await pendingSignIn(email), a.codes[0]!, address(), db())).toEqual(INVALID);
    const ok = await signInWithRecoveryCode(await pendingSignIn(email), fresh!.codes[0]!, address(), db());
    expect("setCookie" in ok).toBe(true);
  });

  it("moves two-factor to a new authenticator with the password, a recovery code and the new app's code", async () => {
    const email = "codes-phone@example.org";
    const a = await account(email);
    // Another sign-in, on another device, ends when the authenticator changes.
    const other = await signInWithRecoveryCode(await pendingSignIn(email), a.codes[0]!, address(), db());
    if (!("setCookie" in other)) throw new Error("no other session");
    const here = await session(a.setCookie);
    const setup = await newAuthenticatorSetup(here, email, db());
    const fresh = await session(a.setCookie);
    const input = { password: PASSWORD, currentCode: a.codes[1]!, code: code(setup.secret) };

    expect(await replaceAuthenticator(a.userId, { ...input, password: "wrong password 1" }, fresh, address(), db())).toMatchObject({ field: "password" });
    expect(await replaceAuthenticator(a.userId, { ...input, code: code(a.secret, 1) }, fresh, address(), db())).toEqual(INVALID);
    expect(await replaceAuthenticator(a.userId, { ...input, currentCode: a.codes[0]! }, fresh, address(), db())).toEqual({
      ...INVALID,
      field: "currentCode",
    });
    expect(await recoveryCodesLeft(a.userId, db())).toBe(9);
    expect(await replaceAuthenticator(a.userId, input, fresh, address(), db())).toBeNull();
    expect(await recoveryCodesLeft(a.userId, db())).toBe(8);
    expect(await subjects(email)).toContain("Security notice: Your authenticator app was changed");
    expect(await loadSession(cookieHeader(other.setCookie), db())).toEqual({ session: null, stale: true, expiredUserId: null });
    expect((await session(a.setCookie)).pendingTotpSecret).toBeNull();

    // The old app's codes no longer sign in; the new one's do.
    const { verifySignInCode } = await import("./accounts.server");
    expect(await verifySignInCode(await pendingSignIn(email), code(a.secret, 1), address(), db())).toEqual(INVALID);
    expect("setCookie" in (await verifySignInCode(await pendingSignIn(email), code(setup.secret, 1), address(), db()))).toBe(true);
  });

  it("accepts a current authenticator code instead of a recovery code, once", async () => {
    const email = "codes-app@example.org";
    const a = await account(email);
    const setup = await newAuthenticatorSetup(await session(a.setCookie), email, db());
    const here = await session(a.setCookie);
    // The set-up's own code is spent; the next one proves the old app.
    const spent = { password: PASSWORD, currentCode: code(a.secret), code: code(setup.secret) };
    expect(await replaceAuthenticator(a.userId, spent, here, address(), db())).toMatchObject({ field: "currentCode" });
    expect(await replaceAuthenticator(a.userId, { ...spent, currentCode: code(a.secret, 1) }, here, address(), db())).toBeNull();
    expect(await recoveryCodesLeft(a.userId, db())).toBe(10);
  });
});
