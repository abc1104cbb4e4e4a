import type { UserRow } from "../../db/schema";
import type { MailMessage } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";

function linkEmail(user: UserRow, subject: string, intro: string, action: string, url: string, validity: string): MailMessage {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return {
    to: user.email,
    subject,
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p>`,
      `<p>${escapeHtml(validity)} If you did not ask for this, you can ignore this email.</p>`,
    ].join("\n"),
    text: [`Hello ${name},`, "", intro, "", `${action}: ${url}`, "", `${validity} If you did not ask for this, you can ignore this email.`].join(
      "\n",
    ),
  };
}

export function verificationEmail(user: UserRow, url: string): MailMessage {
  return linkEmail(
    user,
    "Verify your email address",
    "Thank you for creating an account. Please confirm your email address and choose a password.",
    "Verify my email and choose a password",
    url,
    "This link will expire in 7 days and works once.",
  );
}

export function resetEmail(user: UserRow, url: string): MailMessage {
  return linkEmail(
    user,
    "Reset your password",
    "We received a request to reset the password of your account.",
    "Choose a new password",
    url,
    "This link will expire in 1 hour and works once.",
  );
}

/**
 * A change to how the account is protected (a recovery code used, new codes, a new authenticator): the owner
 * hears of it, so someone else's doing is noticed.
 */
export function securityNoticeEmail(user: UserRow, what: string, origin: string): MailMessage {
  const name = `${user.first_name} ${user.last_name}`.trim();
  const when = new Date().toUTCString();
  const advice =
    "If this was you, there is nothing to do. If it was not, reset your password now and set up a new authenticator from your account.";
  const resetUrl = new URL("/auth/reset-password", origin).toString();
  return {
    to: user.email,
    subject: `Security notice: ${what}`,
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>${escapeHtml(what)} (${escapeHtml(when)}).</p>`,
      `<p>${escapeHtml(advice)}</p>`,
      `<p><a href="${escapeHtml(resetUrl)}">Reset my password</a></p>`,
    ].join("\n"),
    text: [`Hello ${name},`, "", `${what} (${when}).`, "", advice, "", `Reset my password: ${resetUrl}`].join("\n"),
  };
}

/** Sent just before an account is deleted, so that a deletion by someone else does not go unnoticed. */
export function accountDeletedEmail(user: UserRow, origin: string): MailMessage {
  const name = `${user.first_name} ${user.last_name}`.trim();
  const when = new Date().toUTCString();
  const what = `Your Legal Self-Help account, its interviews and uploaded files were deleted (${when}).`;
  const advice = "If this was you, there is nothing to do. If it was not, please contact us.";
  const contactUrl = new URL("/support/contact-us", origin).toString();
  return {
    to: user.email,
    subject: "Security notice: Your account was deleted",
    html: [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>${escapeHtml(what)}</p>`,
      `<p>${escapeHtml(advice)}</p>`,
      `<p><a href="${escapeHtml(contactUrl)}">Contact us</a></p>`,
    ].join("\n"),
    text: [`Hello ${name},`, "", what, "", advice, "", `Contact us: ${contactUrl}`].join("\n"),
  };
}
