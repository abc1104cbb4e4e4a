import { randomUUID } from "node:crypto";
import { deleteInBatches, PURGE_BATCH_SIZE } from "../../db/batches";
import type { Db } from "../../db/database";
import type { UserRow } from "../../db/schema";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { sendMail } from "~/mail/mail.server";
import { hashPassword, hashToken, openTwoFactorValue, randomToken, sealTwoFactorValue, spendPasswordTime, verifyPassword } from "./crypto.server";
import { verificationEmail, resetEmail } from "./emails.server";
import { normalisedPhone, phoneCountry } from "./phone-countries";
import { RETURN_PARAM, safeReturnPath } from "./return-to";
import { replaceRecoveryCodes, sealCodesToShow } from "./recovery-codes.server";
import { clearAttempts, countAttempt, limits } from "./rate-limit.server";
import { authMessages } from "./schemas";
import { endOtherSessions, type Session, setPendingTotpSecret, startSession } from "./session.server";
import { newTotpSecret, otpauthUri, qrCodeDataUrl, verifyTotp } from "./totp.server";

export const VERIFY_EMAIL_TTL_MS = 7 * 24 * 60 * 60_000;
export const RESET_PASSWORD_TTL_MS = 60 * 60_000;
/** Housekeeping keeps a used (or superseded) link this long after its use… */
export const USED_LINK_KEPT_MS = 24 * 60 * 60_000;
/** …and an unused one this long after it expired, so a late click still says "expired" and offers a new link. */
export const EXPIRED_LINK_KEPT_MS = 7 * 24 * 60 * 60_000;

/** A refusal to show on a form field, with the HTTP status of the answer. */
export interface FieldError {
  field: string;
  message: string;
  status: number;
}

type TokenPurpose = "verify-email" | "reset-password";

export const emailKey = (email: string) => email.trim().toLowerCase();
export const nowIso = () => new Date().toISOString();

async function findUserByEmail(email: string, db: Db): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email_key", "=", emailKey(email)).executeTakeFirst();
}

export async function getUserById(id: string, db: Db): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A single-use link token; earlier unused tokens of the same purpose stop working. */
async function issueToken(userId: string, purpose: TokenPurpose, ttlMs: number, db: Db): Promise<string> {
  const token = randomToken();
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("auth_tokens")
      .set({ used_at: now.toISOString() })
      .where("user_id", "=", userId)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .execute();
    await trx
      .insertInto("auth_tokens")
      .values({
        id_hash: hashToken(token),
        user_id: userId,
        purpose,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + ttlMs).toISOString(),
        used_at: null,
      })
      .execute();
  });
  return token;
}

export type LinkCheck =
  | { status: "valid"; user: UserRow; tokenHash: string }
  | { status: "expired"; email: string }
  | { status: "used"; email: string }
  | { status: "unknown" };

/** Why a link no longer works: the page it leads to says which, and offers a new one. */
export type LinkProblem = Exclude<LinkCheck, { status: "valid" }>;

/**
 * What a link's code is worth: valid (with its user), expired, used (or replaced by a newer link), or unknown.
 * A used link is known only while housekeeping keeps its row (a day); later it reads as unknown.
 */
export async function checkLink(code: string, purpose: TokenPurpose, db: Db = database()): Promise<LinkCheck> {
  if (!code) return { status: "unknown" };
  const tokenHash = hashToken(code);
  const token = await db
    .selectFrom("auth_tokens")
    .innerJoin("users", "users.id", "auth_tokens.user_id")
    .select(["auth_tokens.user_id", "auth_tokens.expires_at", "auth_tokens.used_at", "auth_tokens.purpose", "users.email"])
    .where("auth_tokens.id_hash", "=", tokenHash)
    .executeTakeFirst();
  // A code made for the other flow says nothing about this one: unknown here.
  if (!token || token.purpose !== purpose) return { status: "unknown" };
  if (token.used_at) return { status: "used", email: token.email };
  if (token.expires_at <= nowIso()) return { status: "expired", email: token.email };
  const user = await getUserById(token.user_id, db);
  return user ? { status: "valid", user, tokenHash } : { status: "unknown" };
}

/** Marks a token used; false when another request used it first (two clicks, two tabs). */
async function consumeToken(tokenHash: string, db: Db): Promise<boolean> {
  const result = await db
    .updateTable("auth_tokens")
    .set({ used_at: nowIso() })
    .where("id_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Housekeeping: deletes, in batches, the links used (or superseded by a newer one) more than a day ago, and the
 * unused ones expired more than 7 days ago. Neither can be used any more: a used link reads as invalid whether
 * its row is there or not. Returns how many went.
 */
export function purgeSpentLinks(db: Db, now: Date, batchSize = PURGE_BATCH_SIZE): Promise<number> {
  const usedBy = new Date(now.getTime() - USED_LINK_KEPT_MS).toISOString();
  const expiredBy = new Date(now.getTime() - EXPIRED_LINK_KEPT_MS).toISOString();
  return deleteInBatches(async (limit) => {
    const spent = db
      .selectFrom("auth_tokens")
      .select("id_hash")
      .where((eb) => eb.or([eb("used_at", "<=", usedBy), eb("expires_at", "<=", expiredBy)]))
      .limit(limit);
    const result = await db.deleteFrom("auth_tokens").where("id_hash", "in", spent).executeTakeFirst();
    return result.numDeletedRows;
  }, batchSize);
}

function link(path: string, code: string, returnTo: string | null = null): string {
  const url = new URL(path, config().PUBLIC_ORIGIN);
  url.searchParams.set("code", code);
  // Opened on another device too, the link leads back to the page the person signed up from.
  if (returnTo) url.searchParams.set(RETURN_PARAM, returnTo);
  return url.toString();
}

async function sendVerification(user: UserRow, db: Db, returnTo: string | null = null) {
  const token = await issueToken(user.id, "verify-email", VERIFY_EMAIL_TTL_MS, db);
  await sendMail(verificationEmail(user, link("/auth/sign-up/password", token, safeReturnPath(returnTo))), config(), db);
}

export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  phoneCountry: string;
  phoneNumber: string;
  /** The language of the page they signed up on: their emails are written in it. */
  language?: string;
}

/**
 * Creates an unverified account and emails the link that leads to choosing a password (AU01 if it exists); the
 * link carries the return address, so the person ends up where they started.
 */
export async function signUp(input: SignUpInput, address: string, db: Db = database(), returnTo: string | null = null): Promise<FieldError | null> {
  const user = await createUnverifiedAccount(input, address, db);
  if ("field" in user) return user;
  await sendVerification(user, db, returnTo);
  return null;
}

/**
 * An account made through an emailed invitation to a prepared interview (app/help/). The invitation came to this
 * address, so it stands in for the verification email: the person goes straight on to choose a password, with
 * the code returned (the link /auth/sign-up/password?code=… the email would have held). Left there, the account
 * is like any unverified one: signing in offers a new verification email.
 */
export async function signUpThroughInvitation(input: SignUpInput, address: string, db: Db = database()): Promise<{ userId: string; code: string } | FieldError> {
  const user = await createUnverifiedAccount(input, address, db);
  if ("field" in user) return user;
  return { userId: user.id, code: await issueToken(user.id, "verify-email", VERIFY_EMAIL_TTL_MS, db) };
}

/** Whether an account uses this email address. */
export async function accountExists(email: string, db: Db = database()): Promise<boolean> {
  return (await findUserByEmail(email, db)) !== undefined;
}

async function createUnverifiedAccount(input: SignUpInput, address: string, db: Db): Promise<UserRow | FieldError> {
  await countAttempt([[`sign-up:address:${address}`, limits.signUpPerAddress]], db);
  if (await findUserByEmail(input.email, db)) return { field: "email", message: authMessages.accountExists, status: 400 };
  if (!phoneCountry(input.phoneCountry)) return { field: "phoneCountry", message: authMessages.phoneCodeInvalid, status: 400 };
  const phone = normalisedPhone(input.phoneCountry, input.phoneNumber);
  if (!phone) return { field: "phoneNumber", message: authMessages.phoneInvalid, status: 400 };
  const now = nowIso();
  const user: UserRow = {
    id: randomUUID(),
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email.trim(),
    email_key: emailKey(input.email),
    phone_country: phone.country.code,
    phone_code: phone.country.phoneCode,
    phone_number: phone.e164,
    password_hash: null,
    email_verified_at: null,
    totp_secret: null,
    two_factor_enabled: 0,
    role: "person",
    totp_last_step: null,
    language: input.language ?? null,
    offer_reused_answers: 1,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto("users").values(user).execute();
  } catch (error) {
    // Two sign-ups with one email at the same moment: the unique index lets one through.
    if (await findUserByEmail(input.email, db)) return { field: "email", message: authMessages.accountExists, status: 400 };
    throw error;
  }
  return user;
}

/** Every email we send on request (verification again, reset link) counts against one limit. */
function countEmailAttempt(email: string, address: string, db: Db) {
  return countAttempt(
    [
      [`email:account:${emailKey(email)}`, limits.emailPerAccount],
      [`email:address:${address}`, limits.emailPerAddress],
    ],
    db,
  );
}

/** Sends a new verification link to an account that has not verified its email; says nothing either way. */
export async function resendVerification(email: string, address: string, db: Db = database()): Promise<void> {
  await countEmailAttempt(email, address, db);
  const user = await findUserByEmail(email, db);
  if (user && !user.email_verified_at) await sendVerification(user, db);
}

/**
 * "Send a new link" from a sign-up link that no longer works: a verification link while the email is not
 * verified; once it is (the old link was used to choose a password), a reset link, the only way left to set
 * one. Nothing for an unknown email, and the same answer in every case, under the same limits as any email.
 */
export async function sendNewSignUpLink(email: string, address: string, db: Db = database()): Promise<void> {
  await countEmailAttempt(email, address, db);
  const user = await findUserByEmail(email, db);
  if (!user) return;
  if (!user.email_verified_at) await sendVerification(user, db);
  else await sendResetLink(user, db);
}

/**
 * The emailed link's second step: the password is set, the email counts as verified, the link is used up,
 * and the person is half signed in, on to the two-factor setup. Otherwise why the link no longer works.
 */
export async function createPassword(
  code: string,
  password: string,
  session: Session | null,
  address: string,
  db: Db = database(),
): Promise<{ setCookie: string } | LinkProblem> {
  const set = await setPasswordFromLink(code, "verify-email", password, address, db);
  if (set.status !== "done") return set;
  return { setCookie: await startSession({ pendingUserId: set.userId }, session, db) };
}

/**
 * The password chosen through an emailed link (verification or reset): the link is used up and the email
 * counts as verified, since the link proved the person reads this mailbox.
 */
async function setPasswordFromLink(
  code: string,
  purpose: TokenPurpose,
  password: string,
  address: string,
  db: Db,
): Promise<{ status: "done"; userId: string } | LinkProblem> {
  await countAttempt([[`password:address:${address}`, limits.passwordPerAddress]], db);
  const check = await checkLink(code, purpose, db);
  if (check.status !== "valid") return check;
  const passwordHash = await hashPassword(password);
  if (!(await consumeToken(check.tokenHash, db))) return { status: "used", email: check.user.email };
  const now = nowIso();
  await db
    .updateTable("users")
    .set({ password_hash: passwordHash, email_verified_at: check.user.email_verified_at ?? now, updated_at: now })
    .where("id", "=", check.user.id)
    .execute();
  return { status: "done", userId: check.user.id };
}

export type SignInResult =
  | { next: "verify-2fa" | "setup-2fa"; setCookie: string }
  | { next: "not-verified"; email: string }
  | FieldError;

/** The password step. Unknown email and wrong password get the same answer, in the same time. */
export async function signInWithPassword(
  email: string,
  password: string,
  session: Session | null,
  address: string,
  db: Db = database(),
): Promise<SignInResult> {
  const accountBucket = `sign-in:account:${emailKey(email)}`;
  await countAttempt(
    [
      [accountBucket, limits.signInPerAccount],
      [`sign-in:address:${address}`, limits.signInPerAddress],
    ],
    db,
  );
  const wrong: FieldError = { field: "password", message: authMessages.wrongCredentials, status: 400 };
  const user = await findUserByEmail(email, db);
  if (!user) {
    await spendPasswordTime(password);
    return wrong;
  }
  if (!user.email_verified_at) return { next: "not-verified", email: user.email };
  if (!user.password_hash || !(await verifyPassword(password, user.password_hash))) return wrong;
  await clearAttempts(accountBucket, db);
  const setCookie = await startSession({ pendingUserId: user.id }, session, db);
  return { next: user.two_factor_enabled ? "verify-2fa" : "setup-2fa", setCookie };
}

export async function pendingUser(session: Session | null, db: Db): Promise<UserRow | null> {
  if (!session?.pendingUserId) return null;
  return (await getUserById(session.pendingUserId, db)) ?? null;
}

/** Records the step of an accepted code; false if that step (or a later one) was used already. */
export async function acceptStep(userId: string, step: number, db: Db): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ totp_last_step: step, updated_at: nowIso() })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type TwoFactorResult = { setCookie: string } | FieldError | { next: "sign-in" | "setup-2fa" | "verify-2fa" };

/** Every two-factor code tried (sign-in or setup) counts against one limit. */
export function countCodeAttempt(userId: string, address: string, db: Db) {
  return countAttempt(
    [
      [`2fa:account:${userId}`, limits.twoFactorPerAccount],
      [`2fa:address:${address}`, limits.twoFactorPerAddress],
    ],
    db,
  );
}

/** The sign-in code: checked against the user the password step recorded in this session, never the form. */
export async function verifySignInCode(
  session: Session | null,
  code: string,
  address: string,
  db: Db = database(),
): Promise<TwoFactorResult> {
  const user = await pendingUser(session, db);
  if (!user || !session) return { next: "sign-in" };
  if (!user.two_factor_enabled || !user.totp_secret) return { next: "setup-2fa" };
  await countCodeAttempt(user.id, address, db);
  const secret = openTwoFactorValue(user.totp_secret, "users.totp_secret", user.id);
  const step = verifyTotp(secret, code, user.totp_last_step);
  if (step === null || !(await acceptStep(user.id, step, db))) {
    return { field: "code", message: authMessages.codeInvalid, status: 400 };
  }
  await clearAttempts(`2fa:account:${user.id}`, db);
  return { setCookie: await startSession({ userId: user.id }, session, db) };
}

export interface TwoFactorSetup {
  secret: string;
  /** The otpauth:// link that opens an authenticator app on the phone showing the page, which cannot scan it. */
  otpauthUri: string;
  qrCodeDataUrl: string;
}

/** The new secret a session holds until a code from it confirms it; null when it holds none. */
export function pendingTotpSecret(session: Session): string | null {
  return session.pendingTotpSecret && openTwoFactorValue(session.pendingTotpSecret, "sessions.pending_totp_secret", session.idHash);
}

/** The secret kept (sealed) in the session until a code confirms it, made on first use. */
export async function pendingSecretSetup(session: Session, email: string, db: Db): Promise<TwoFactorSetup> {
  let secret = pendingTotpSecret(session);
  if (!secret) {
    secret = newTotpSecret();
    await setPendingTotpSecret(session, sealTwoFactorValue(secret, "sessions.pending_totp_secret", session.idHash), db);
  }
  const uri = otpauthUri(secret, email);
  return { secret, otpauthUri: uri, qrCodeDataUrl: await qrCodeDataUrl(uri) };
}

/** The secret to add to an authenticator app, kept (encrypted) in the session until a code confirms it. */
export async function twoFactorSetup(
  session: Session | null,
  db: Db = database(),
): Promise<TwoFactorSetup | { next: "sign-in" | "verify-2fa" }> {
  const user = await pendingUser(session, db);
  if (!user || !session) return { next: "sign-in" };
  if (user.two_factor_enabled) return { next: "verify-2fa" };
  return pendingSecretSetup(session, user.email, db);
}

/** Confirms the setup with a first code: two-factor is on and the person is signed in. */
export async function confirmTwoFactorSetup(
  session: Session | null,
  code: string,
  address: string,
  db: Db = database(),
): Promise<TwoFactorResult> {
  const user = await pendingUser(session, db);
  if (!user || !session) return { next: "sign-in" };
  if (user.two_factor_enabled) return { next: "verify-2fa" };
  const secret = pendingTotpSecret(session);
  if (!secret) return { next: "setup-2fa" };
  await countCodeAttempt(user.id, address, db);
  const step = verifyTotp(secret, code, null);
  if (step === null) return { field: "code", message: authMessages.codeInvalid, status: 400 };
  const enabled = await db
    .updateTable("users")
    .set({ totp_secret: sealTwoFactorValue(secret, "users.totp_secret", user.id), two_factor_enabled: 1, totp_last_step: step, updated_at: nowIso() })
    .where("id", "=", user.id)
    .where("two_factor_enabled", "=", 0)
    .executeTakeFirst();
  if (Number(enabled.numUpdatedRows) !== 1) return { next: "verify-2fa" };
  await clearAttempts(`2fa:account:${user.id}`, db);
  // Ten recovery codes straight away: a phone lost before they were saved would lock the person out.
  const recoveryCodesToShow = sealCodesToShow(user.id, { codes: await replaceRecoveryCodes(user.id, db), then: "/" });
  return { setCookie: await startSession({ userId: user.id, recoveryCodesToShow }, session, db) };
}

/** Emails a reset link if the account exists; the answer is the same either way. */
export async function requestPasswordReset(email: string, address: string, db: Db = database()): Promise<void> {
  await countEmailAttempt(email, address, db);
  const user = await findUserByEmail(email, db);
  if (user) await sendResetLink(user, db);
}

async function sendResetLink(user: UserRow, db: Db) {
  const token = await issueToken(user.id, "reset-password", RESET_PASSWORD_TTL_MS, db);
  await sendMail(resetEmail(user, link("/auth/reset-password/password", token)), config(), db);
}

/** Sets the new password from a reset link and signs the account out everywhere. */
export async function resetPassword(
  code: string,
  password: string,
  address: string,
  db: Db = database(),
): Promise<{ status: "done" } | LinkProblem> {
  const set = await setPasswordFromLink(code, "reset-password", password, address, db);
  if (set.status !== "done") return set;
  await endOtherSessions(set.userId, null, db);
  return { status: "done" };
}

/** Keeps a person's choice of language in their account: their pages follow it, and their emails are written in it. */
export async function setAccountLanguage(userId: string, language: string, db: Db = database()): Promise<void> {
  await db.updateTable("users").set({ language }).where("id", "=", userId).execute();
}
