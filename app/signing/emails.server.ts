import { translator } from "~/i18n/translator";
import type { MailMessage } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";

// The signing emails (docs/decisions/0055), in HTML and plain text: to another signer, the link to read and sign
// and then their one-time code; to the person, that everyone signed or that someone declined. Each in the
// language of the person who asked (a signer without an account has no language of their own here).

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
const link = (label: string, url: string) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;

function message(language: string, to: string, subject: string, parts: ({ text: string } | { label: string; url: string })[]): MailMessage {
  const t = translator(language);
  const dir = t.dir === "rtl" ? ` dir="rtl"` : "";
  return {
    to,
    subject,
    html: [`<div lang="${t.lang}"${dir}>`, ...parts.map((part) => ("text" in part ? paragraph(part.text) : link(part.label, part.url))), `</div>`].join("\n"),
    text: parts.map((part) => ("text" in part ? part.text : t.t("email.linkLine", { label: part.label, url: part.url }))).join("\n\n"),
  };
}

/** To another signer: who asks them to sign, and the link (single use, `days` days). */
export function invitationEmail({ to, name, ownerName, language, url, days }: { to: string; name: string; ownerName: string; language: string; url: string; days: number }): MailMessage {
  const t = translator(language);
  return message(language, to, t.t("signing.email.invite.subject", { owner: ownerName }), [
    { text: t.t("email.hello", { name }) },
    { text: t.t("signing.email.invite.intro", { owner: ownerName }) },
    { label: t.t("signing.email.invite.link"), url },
    { text: t.t("signing.email.invite.days", { days }) },
    { text: t.t("signing.email.invite.unexpected") },
  ]);
}

/** To another signer: the one-time code. */
export function codeEmail({ to, name, language, code, minutes }: { to: string; name: string; language: string; code: string; minutes: number }): MailMessage {
  const t = translator(language);
  return message(language, to, t.t("signing.email.code.subject"), [
    { text: t.t("email.hello", { name }) },
    { text: t.t("signing.email.code.body", { code, minutes }) },
    { text: t.t("signing.email.code.unexpected") },
  ]);
}

/** To the person: everyone signed; the link to their signing page, where the signed document is. */
export function completeEmail({ to, name, language, url }: { to: string; name: string; language: string; url: string }): MailMessage {
  const t = translator(language);
  return message(language, to, t.t("signing.email.complete.subject"), [
    { text: t.t("email.hello", { name }) },
    { text: t.t("signing.email.complete.body") },
    { label: t.t("signing.email.complete.link"), url },
  ]);
}

/** To the person: someone declined (their reason is on the page, behind sign-in, not in the email). */
export function declinedEmail({ to, name, language, signer, url }: { to: string; name: string; language: string; signer: string; url: string }): MailMessage {
  const t = translator(language);
  return message(language, to, t.t("signing.email.declined.subject"), [
    { text: t.t("email.hello", { name }) },
    { text: t.t("signing.email.declined.body", { signer }) },
    { label: t.t("signing.email.declined.link"), url },
  ]);
}
