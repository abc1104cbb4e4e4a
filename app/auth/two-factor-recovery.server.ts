import type { Db } from "../../db/database";
import type { UserRow } from "../../db/schema";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { sendMail } from "~/mail/mail.server";
import {
  acceptStep,
  countCodeAttempt,
  type FieldError,
  getUserById,
  nowIso,
  pendingSecretSetup,
  pendingTotpSecret,
  pendingUser,
  type TwoFactorSetup,
} from "./accounts.server";
import { openTwoFactorValue, sealTwoFactorValue, verifyPassword } from "./crypto.server";
import { type SecurityChange, securityNoticeEmail } from "./emails.server";
import { clearAttempts } from "./rate-limit.server";
import { consumeRecoveryCode, keepCodesToShow, recoveryCodesLeft, replaceRecoveryCodes } from "./recovery-codes.server";
import { authMessages } from "./schemas";
import { endOtherSessions, type Session, setPendingTotpSecret, startSession } from "./session.server";
import { verifyTotp } from "./totp.server";

/** Sign-in with a recovery code instead of the authenticator: the code is used up and the person told by email. */
export async function signInWithRecoveryCode(
  session: Session | null,
  code: string,
  address: string,
  db: Db = database(),
): Promise<{ setCookie: string } | FieldError | { next: "sign-in" | "setup-2fa" }> {
  const user = await pendingUser(session, db);
  if (!user || !session) return { next: "sign-in" };
  if (!user.two_factor_enabled) return { next: "setup-2fa" };
  await countCodeAttempt(user.id, address, db);
  if (!(await consumeRecoveryCode(user.id, code, db))) return { field: "code", message: authMessages.codeInvalid, status: 400 };
  await clearAttempts(`2fa:account:${user.id}`, db);
  const setCookie = await startSession({ userId: user.id }, session, db);
  await notify(user, "email.security.recoveryCodeUsed", db);
  return { setCookie };
}

async function notify(user: UserRow, change: SecurityChange, db: Db) {
  await sendMail(securityNoticeEmail(user, change, config().PUBLIC_ORIGIN), config(), db);
}

/** The password, the attempt counted against the two-factor limits first (so guessing it is limited too). */
async function checkPassword(user: UserRow, password: string, address: string, db: Db): Promise<FieldError | null> {
  await countCodeAttempt(user.id, address, db);
  if (user.password_hash && (await verifyPassword(password, user.password_hash))) return null;
  return { field: "password", message: authMessages.passwordInvalid, status: 400 };
}

/**
 * New recovery codes from the account area, after the password: every earlier code stops working, and the new
 * ones are kept in this session until the person says they saved them.
 */
export async function makeNewRecoveryCodes(
  userId: string,
  password: string,
  session: Session,
  address: string,
  db: Db = database(),
): Promise<FieldError | null> {
  const user = await getUserById(userId, db);
  if (!user) return { field: "password", message: authMessages.passwordInvalid, status: 400 };
  const refused = await checkPassword(user, password, address, db);
  if (refused) return refused;
  await keepCodesToShow(session, user.id, { codes: await replaceRecoveryCodes(user.id, db), then: "/account/dashboard" }, db);
  await notify(user, "email.security.newRecoveryCodes", db);
  return null;
}

/** A current code from the person's authenticator (used up, as at sign-in) or one of their recovery codes (used up). */
async function proveSecondFactor(user: UserRow, code: string, db: Db): Promise<boolean> {
  // As people type it: "123 456" and "123-456" are the code 123456.
  const digits = code.replace(/[\s-]/g, "");
  const step =
    user.totp_secret && /^\d{6}$/.test(digits)
      ? verifyTotp(openTwoFactorValue(user.totp_secret, "users.totp_secret", user.id), digits, user.totp_last_step)
      : null;
  return step !== null ? acceptStep(user.id, step, db) : consumeRecoveryCode(user.id, code, db);
}

/**
 * For what cannot be undone (deleting the account): the password and a current authenticator code or a
 * recovery code, counted against the two-factor limits. The person's row, or the refusal at its field.
 */
export async function confirmPasswordAndCode(
  userId: string,
  input: { password: string; code: string },
  address: string,
  db: Db = database(),
): Promise<UserRow | FieldError> {
  const user = await getUserById(userId, db);
  if (!user) return { field: "password", message: authMessages.passwordInvalid, status: 400 };
  const refused = await checkPassword(user, input.password, address, db);
  if (refused) return refused;
  if (!(await proveSecondFactor(user, input.code, db))) return { field: "code", message: authMessages.codeInvalid, status: 400 };
  return user;
}

/** The new authenticator's secret for a signed-in person, kept in the session until a code from it confirms it. */
export function newAuthenticatorSetup(session: Session, email: string, db: Db = database()): Promise<TwoFactorSetup> {
  return pendingSecretSetup(session, email, db);
}

export interface NewAuthenticatorInput {
  password: string;
  /** A code from the authenticator in use now, or one of the recovery codes. */
  currentCode: string;
  /** A code from the new authenticator. */
  code: string;
}

/**
 * Moves two-factor to a new authenticator: the password, proof of the old factor (a current code or a recovery
 * code) and a first code from the new app are all needed. The person's other sessions end, as after a
 * password change, and they are told by email.
 */
export async function replaceAuthenticator(
  userId: string,
  input: NewAuthenticatorInput,
  session: Session,
  address: string,
  db: Db = database(),
): Promise<FieldError | { next: "new-authenticator" } | null> {
  const user = await getUserById(userId, db);
  const secret = pendingTotpSecret(session);
  if (!user?.totp_secret || !secret) return { next: "new-authenticator" };
  const refused = await checkPassword(user, input.password, address, db);
  if (refused) return refused;
  const newStep = verifyTotp(secret, input.code, null);
  if (newStep === null) return { field: "code", message: authMessages.codeInvalid, status: 400 };
  if (!(await proveSecondFactor(user, input.currentCode, db))) return { field: "currentCode", message: authMessages.codeInvalid, status: 400 };
  await db
    .updateTable("users")
    .set({ totp_secret: sealTwoFactorValue(secret, "users.totp_secret", user.id), two_factor_enabled: 1, totp_last_step: newStep, updated_at: nowIso() })
    .where("id", "=", user.id)
    .execute();
  await setPendingTotpSecret(session, null, db);
  await endOtherSessions(user.id, session, db);
  await clearAttempts(`2fa:account:${user.id}`, db);
  await notify(user, "email.security.newAuthenticator", db);
  return null;
}

export { recoveryCodesLeft };
