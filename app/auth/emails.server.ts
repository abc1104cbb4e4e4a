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
