import { countAttempt, limits } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { type MailMessage, sendMail } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";
import type { ContactMessage } from "./contact";

/** The email to support built from the form: to, subject, html and text, every value escaped. */
export function buildContactEmail(message: ContactMessage, to: string): MailMessage {
  const name = `${message.firstName} ${message.lastName}`;
  const paragraphs = message.message
    .split(/\r?\n/)
    .map((line) => escapeHtml(line))
    .join("<br>");
  return {
    to,
    replyTo: message.email,
    subject: `Contact form: ${name.replace(/[\r\n\t]+/g, " ")}`,
    html: [
      "<h1>New message from the contact form</h1>",
      `<p><strong>Name:</strong> ${escapeHtml(name)}</p>`,
      `<p><strong>Email:</strong> ${escapeHtml(message.email)}</p>`,
      `<p><strong>Message:</strong></p>`,
      `<p>${paragraphs}</p>`,
    ].join("\n"),
    text: [`New message from the contact form`, ``, `Name: ${name}`, `Email: ${message.email}`, ``, message.message].join("\n"),
  };
}

/** Sends the message to support; throws a RateLimitError past the per-address limit (nothing is sent then). */
export async function sendContactMessage(message: ContactMessage, address: string) {
  await countAttempt([[`contact:address:${address}`, limits.contactPerAddress]]);
  return sendMail(buildContactEmail(message, config().SUPPORT_EMAIL));
}
