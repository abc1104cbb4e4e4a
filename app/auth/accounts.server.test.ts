import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { migrateToLatest } from "../../db/migrate";
import {
  checkLink,
  confirmTwoFactorSetup,
  createPassword,
  requestPasswordReset,
  resetPassword,
  sendNewSignUpLink,
  signInWithPassword,
  signUp,
  twoFactorSetup,
  verifySignInCode,
} from "./accounts.server";
import { countAttempt, limits, RateLimitError } from "./rate-limit.server";
import { loadSession, type Session, SESSION_IDLE_MS, startSession } from "./session.server";
import { authMessages } from "~/auth/schemas";

// The outbox files of these tests go to a scratch folder.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-accounts-"));

// A fresh client address for every call: the per-address limits are tested on their own below.
let addresses = 0;
const address = () => `203.0.113.${++addresses}`;
const PASSWORD = "correct horse 42";

const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;
function code(secret: string, steps = 0) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

describe.each(dialects)("accounts on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
  });
  afterAll(() => handle?.drop());

  const db = () => handle.db;
  const person = (email: string) => ({ firstName: "Ana", lastName: "Lim", email, phoneCountry: "SG", phoneNumber: "91234567" });

  async function emailedCode(email: string, pathPrefix: string) {
    const rows = await db()
      .selectFrom("outbox_messages")
      .select(["text", "created_at"])
      .where("to_address", "=", email)
      .orderBy("created_at", "desc")
      .execute();
    const url = rows.map((r) => r.text.match(/https?:\/\/\S+/)?.[0]).find((u) => u?.includes(pathPrefix));
    return new URL(url!).searchParams.get("code")!;
  }

  async function session(setCookie: string): Promise<Session> {
    const { session } = await loadSession(cookieHeader(setCookie), db());
    return session!;
  }

  /** Sign-up, link, password, two-factor setup: returns the secret and the signed-in cookie. */
  async function account(email: string) {
    expect(await signUp(person(email), address(), db())).toBeNull();
    const created = await createPassword(await emailedCode(email, "/auth/sign-up/password"), PASSWORD, null, address(), db());
    if (!("setCookie" in created)) throw new Error("password not created");
    const pending = await session(created.setCookie);
    const setup = await twoFactorSetup(pending, db());
    if (!("secret" in setup)) throw new Error("no setup");
    const done = await confirmTwoFactorSetup(await session(created.setCookie), code(setup.secret), address(), db());
    if (!("setCookie" in done)) throw new Error("setup not confirmed");
    return { secret: setup.secret, setCookie: done.setCookie };
  }

  it("creates one account per email whatever its case (AU01), unverified, and emails a link", async () => {
    expect(await signUp(person("Case@Example.org"), address(), db())).toBeNull();
    expect(await signUp(person("case@EXAMPLE.org"), address(), db())).toEqual({
      field: "email",
      message: authMessages.accountExists,
      status: 400,
    });
    const user = await db().selectFrom("users").selectAll().where("email_key", "=", "case@example.org").executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: "Case@Example.org", phone_code: "+65", password_hash: null, email_verified_at: null });
    expect(await emailedCode("Case@Example.org", "/auth/sign-up/password")).toMatch(/^[\w-]{43}$/);
  });

  it("keeps only hashes of link tokens and sessions, and the TOTP secret sealed with the data keyring", async () => {
    const { secret, setCookie } = await account("hashes@example.org");
    const user = await db().selectFrom("users").selectAll().where("email_key", "=", "hashes@example.org").executeTakeFirstOrThrow();
    expect(user.totp_secret).toMatch(/^enc1:[0-9a-f]{8}:/);
    expect(user.totp_secret).not.toContain(secret);
    expect(user.password_hash).toMatch(/^scrypt\$/);
    const cookieId = decodeURIComponent(cookieHeader(setCookie).split("=")[1]!);
    const sessions = await db().selectFrom("sessions").select("id_hash").execute();
    expect(sessions.some((s) => cookieId.includes(s.id_hash))).toBe(false);
  });

  it("uses a link once, and says whether one is used, unknown or expired (AU03)", async () => {
    await signUp(person("link@example.org"), address(), db());
    const token = await emailedCode("link@example.org", "/auth/sign-up/password");
    expect((await checkLink(token, "verify-email", db())).status).toBe("valid");
    // A code of the other flow, a made-up one and none at all are unknown here.
    expect(await checkLink(token, "reset-password", db())).toEqual({ status: "unknown" });
    expect(await checkLink("nonsense", "verify-email", db())).toEqual({ status: "unknown" });
    expect(await checkLink("", "verify-email", db())).toEqual({ status: "unknown" });
    expect("setCookie" in (await createPassword(token, PASSWORD, null, address(), db()))).toBe(true);
    expect(await createPassword(token, PASSWORD, null, address(), db())).toEqual({ status: "used", email: "link@example.org" });
    expect(await checkLink(token, "verify-email", db())).toEqual({ status: "used", email: "link@example.org" });

    await signUp(person("late@example.org"), address(), db());
    const late = await emailedCode("late@example.org", "/auth/sign-up/password");
    await db().updateTable("auth_tokens").set({ expires_at: "2000-01-01T00:00:00.000Z" }).execute();
    expect(await checkLink(late, "verify-email", db())).toEqual({ status: "expired", email: "late@example.org" });
  });

  it("answers a wrong password and an unknown email alike, and sends unverified accounts to verify (AU02)", async () => {
    await account("signin@example.org");
    const wrong = { field: "password", message: authMessages.wrongCredentials, status: 400 };
    expect(await signInWithPassword("signin@example.org", "nope-1234", null, address(), db())).toEqual(wrong);
    expect(await signInWithPassword("nobody@example.org", "nope-1234", null, address(), db())).toEqual(wrong);
    await signUp(person("unverified@example.org"), address(), db());
    expect(await signInWithPassword("UNVERIFIED@example.org", "x", null, address(), db())).toEqual({
      next: "not-verified",
      email: "unverified@example.org",
    });
    const ok = await signInWithPassword("SignIn@example.org", PASSWORD, null, address(), db());
    expect(ok).toMatchObject({ next: "verify-2fa" });
  });

  it("accepts each sign-in code once, only for the user whose password was checked, and rotates the session", async () => {
    const a = await account("codes-a@example.org");
    const b = await account("codes-b@example.org");
    const step = await signInWithPassword("codes-a@example.org", PASSWORD, null, address(), db());
    if (!("setCookie" in step)) throw new Error("password refused");
    const pending = await session(step.setCookie);
    expect(pending.user).toBeNull();

    // The code that confirmed the setup a moment ago is spent; B's code is not A's.
    expect(await verifySignInCode(pending, code(a.secret), address(), db())).toMatchObject({ message: authMessages.codeInvalid });
    expect(await verifySignInCode(pending, code(b.secret, 1), address(), db())).toMatchObject({ message: authMessages.codeInvalid });
    const signedIn = await verifySignInCode(pending, code(a.secret, 1), address(), db());
    if (!("setCookie" in signedIn)) throw new Error("code refused");
    expect(cookieHeader(signedIn.setCookie)).not.toBe(cookieHeader(step.setCookie));
    expect((await session(signedIn.setCookie)).user?.email).toBe("codes-a@example.org");
    // The pending session is gone: it cannot be used again.
    expect(await loadSession(cookieHeader(step.setCookie), db())).toEqual({ session: null, stale: true, expiredUserId: null });
    expect(await verifySignInCode(null, code(a.secret, 1), address(), db())).toEqual({ next: "sign-in" });
  });

  it("ends sessions after the idle time and at the absolute expiry", async () => {
    const { setCookie } = await account("expiry@example.org");
    const user = await db().selectFrom("users").select("id").where("email_key", "=", "expiry@example.org").executeTakeFirstOrThrow();
    const live = (await loadSession(cookieHeader(setCookie), db())).session;
    expect(live?.user).not.toBeNull();
    // When it ends without another request: the idle time from now (it was just used).
    expect(Math.abs(new Date(live!.endsAt).getTime() - (Date.now() + SESSION_IDLE_MS))).toBeLessThan(10_000);
    const later = new Date(Date.now() + SESSION_IDLE_MS + 60_000);
    // Ended by time: whose it was is known, for a form it posted to be kept for them (app/expiry/).
    expect(await loadSession(cookieHeader(setCookie), db(), later)).toEqual({ session: null, stale: true, expiredUserId: user.id });
    const fresh = await startSession({ userId: user.id }, null, db());
    const muchLater = new Date(Date.now() + 8 * 24 * 60 * 60_000);
    expect((await loadSession(cookieHeader(fresh), db(), muchLater)).stale).toBe(true);
  });

  it("accepts a session cookie only as it was signed, however often it was seen before", async () => {
    const { setCookie } = await account("signed@example.org");
    const header = cookieHeader(setCookie);
    expect((await loadSession(header, db())).session?.user?.email).toBe("signed@example.org");
    expect((await loadSession(`${header}; theme=dark`, db())).session?.user?.email).toBe("signed@example.org");
    // The same id with another signature, and the signature with another id: refused, and the cookie cleared.
    const [name, value] = header.split("=") as [string, string];
    const [id, signature] = decodeURIComponent(value).split(/\.(?=[^.]*$)/) as [string, string];
    const forgedSignature = `${name}=${encodeURIComponent(`${id}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`)}`;
    const forgedId = `${name}=${encodeURIComponent(`${id.slice(0, -2)}${id.endsWith("AA") ? "BB" : "AA"}.${signature}`)}`;
    expect(await loadSession(forgedSignature, db())).toEqual({ session: null, stale: true, expiredUserId: null });
    expect(await loadSession(forgedId, db())).toEqual({ session: null, stale: true, expiredUserId: null });
    expect((await loadSession(header, db())).session?.user?.email).toBe("signed@example.org");
  });

  it("resets a password from a one-hour link and signs the account out everywhere", async () => {
    const { setCookie } = await account("reset@example.org");
    await requestPasswordReset("RESET@example.org", address(), db());
    const token = await emailedCode("reset@example.org", "/auth/reset-password/password");
    expect(await resetPassword(token, "a new password 7", address(), db())).toEqual({ status: "done" });
    expect(await resetPassword(token, "a new password 8", address(), db())).toEqual({ status: "used", email: "reset@example.org" });
    expect((await loadSession(cookieHeader(setCookie), db())).stale).toBe(true);
    expect(await signInWithPassword("reset@example.org", "a new password 7", null, address(), db())).toMatchObject({ next: "verify-2fa" });
    // Nobody learns whether an account exists: an unknown email is accepted silently.
    await expect(requestPasswordReset("ghost@example.org", address(), db())).resolves.toBeUndefined();
  });

  it("sends a new sign-up link: verification while unverified, a reset link once verified, nothing to nobody, under the email limit", async () => {
    const mails = async (email: string) =>
      (await db().selectFrom("outbox_messages").select("subject").where("to_address", "=", email).orderBy("created_at").execute()).map((m) => m.subject);
    await signUp(person("fresh@example.org"), address(), db());
    await sendNewSignUpLink("FRESH@example.org", address(), db());
    expect(await mails("fresh@example.org")).toEqual(["Verify your email address", "Verify your email address"]);

    await account("done@example.org");
    await sendNewSignUpLink("done@example.org", address(), db());
    expect(await mails("done@example.org")).toEqual(["Verify your email address", "Reset your password"]);
    const reset = await emailedCode("done@example.org", "/auth/reset-password/password");
    expect((await checkLink(reset, "reset-password", db())).status).toBe("valid");

    await expect(sendNewSignUpLink("ghost-link@example.org", address(), db())).resolves.toBeUndefined();
    expect(await mails("ghost-link@example.org")).toEqual([]);

    // The same per-account limit as every email we send on request (3 an hour).
    await sendNewSignUpLink("done@example.org", address(), db());
    await sendNewSignUpLink("done@example.org", address(), db());
    await expect(sendNewSignUpLink("done@example.org", address(), db())).rejects.toThrow(RateLimitError);
  });

  it("counts attempts per bucket in the database and restarts after the window", async () => {
    const limit = { max: 3, minutes: 15 };
    const start = new Date("2030-01-01T00:00:00Z");
    for (let i = 0; i < 3; i++) await countAttempt([["test:bucket", limit]], db(), start, 1);
    await expect(countAttempt([["test:bucket", limit]], db(), start, 1)).rejects.toThrow(RateLimitError);
    await expect(countAttempt([["test:bucket", limit]], db(), start, 1)).rejects.toThrow(
      "Too many attempts. Please wait 15 minutes and try again.",
    );
    await expect(countAttempt([["test:bucket", limit]], db(), new Date("2030-01-01T00:16:00Z"), 1)).resolves.toBeUndefined();
    // Per-address limits scale with RATE_LIMIT_address()_FACTOR; per-account ones do not.
    for (let i = 0; i < 20; i++) await countAttempt([["test:address", limits.signUpPerAddress]], db(), start, 2);
    await expect(countAttempt([["test:address", limits.signUpPerAddress]], db(), start, 2)).rejects.toThrow(RateLimitError);
  });

  it("stops password guessing on one account after 10 tries", async () => {
    await account("guess@example.org");
    for (let i = 0; i < 10; i++) await signInWithPassword("guess@example.org", `wrong-${i}`, null, "198.51.100.1", db());
    await expect(signInWithPassword("guess@example.org", PASSWORD, null, "198.51.100.2", db())).rejects.toThrow(RateLimitError);
  });
});
