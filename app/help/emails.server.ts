import type { MailMessage } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";
import { emailWords } from "./words";

/** A short email with one link: the greeting, what happened, the link, and (for an invitation) how long it works. */
function oneLinkEmail(to: { name: string; email: string }, subject: string, text: string, action: string, url: string, validity?: string): MailMessage {
  return {
    to: to.email,
    subject,
    html: [
      `<p>Hello ${escapeHtml(to.name)},</p>`,
      `<p>${escapeHtml(text)}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p>`,
      ...(validity ? [`<p>${escapeHtml(validity)}</p>`] : []),
    ].join("\n"),
    text: [`Hello ${to.name},`, "", text, "", `${action}: ${url}`, ...(validity ? ["", validity] : [])].join("\n"),
  };
}

/** That a helper replied, and nothing of what they wrote or what the interview is about: an inbox may be read by others. */
export function replyNoticeEmail(to: { name: string; email: string }, url: string): MailMessage {
  return oneLinkEmail(to, emailWords.replySubject, emailWords.reply, emailWords.replyAction, url);
}

/** The invitation to a prepared interview: who prepared it, the link, how long it works; not the issue. */
export function invitationEmail(to: { name: string; email: string }, helperName: string, url: string): MailMessage {
  return oneLinkEmail(to, emailWords.invitationSubject, emailWords.invitation(helperName), emailWords.invitationAction, url, emailWords.invitationValidity);
}
