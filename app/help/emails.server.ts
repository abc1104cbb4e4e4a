import { DEFAULT_LANGUAGE } from "~/i18n/languages";
import { type Translator, translator } from "~/i18n/translator";
import type { MailMessage } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";
import { emailWords } from "./words";

/**
 * A short email with one link: the greeting, what happened, the link, and (for an invitation) how long it works,
 * in the language of `t` (marked with it, and right to left where it is written so).
 */
function oneLinkEmail(
  to: { name: string; email: string },
  t: Translator,
  subject: string,
  text: string,
  action: string,
  url: string,
  validity?: string,
): MailMessage {
  const hello = t.t("email.hello", { name: to.name });
  const dir = t.dir === "rtl" ? ` dir="rtl"` : "";
  return {
    to: to.email,
    subject,
    html: [
      `<div lang="${t.lang}"${dir}>`,
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(text)}</p>`,
      `<p><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p>`,
      ...(validity ? [`<p>${escapeHtml(validity)}</p>`] : []),
      `</div>`,
    ].join("\n"),
    text: [hello, "", text, "", t.t("email.linkLine", { label: action, url }), ...(validity ? ["", validity] : [])].join("\n"),
  };
}

/**
 * That a helper replied, and nothing of what they wrote or what the interview is about: an inbox may be read by
 * others. In the person's language (their account's).
 */
export function replyNoticeEmail(to: { name: string; email: string; language: string | null }, url: string): MailMessage {
  const t = translator(to.language ?? DEFAULT_LANGUAGE);
  return oneLinkEmail(to, t, t.t("account.help.email.subject"), t.t("account.help.email.body"), t.t("account.help.email.action"), url);
}

/** The invitation to a prepared interview: who prepared it, the link, how long it works; not the issue. */
export function invitationEmail(to: { name: string; email: string }, helperName: string, url: string): MailMessage {
  return oneLinkEmail(to, translator(DEFAULT_LANGUAGE), emailWords.invitationSubject, emailWords.invitation(helperName), emailWords.invitationAction, url, emailWords.invitationValidity);
}
