import type { UserRow } from "../../db/schema";
import { DEFAULT_LANGUAGE } from "~/i18n/languages";
import { type MessageKey, type Translator, translator } from "~/i18n/translator";
import type { MailMessage } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";

/** An account's emails are written in the language the person chose (or signed up in). */
export function accountTranslator(user: Pick<UserRow, "language">): Translator {
  return translator(user.language ?? DEFAULT_LANGUAGE);
}

function fullName(user: UserRow): string {
  return `${user.first_name} ${user.last_name}`.trim();
}

/** A time as the person reads it, with its zone said (the server's clock is UTC). */
function when(t: Translator): string {
  return t.date(new Date(), { day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });
}

/**
 * An email of a greeting, paragraphs, one link and paragraphs after it, in HTML and in plain text, in the language
 * of `t` (marked with it, and right to left where it is written so).
 */
function email(
  user: UserRow,
  t: Translator,
  subject: string,
  { before, link, after = [] }: { before: string[]; link: { label: string; url: string }; after?: string[] },
): MailMessage {
  const hello = t.t("email.hello", { name: fullName(user) });
  const dir = t.dir === "rtl" ? ` dir="rtl"` : "";
  const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
  return {
    to: user.email,
    subject,
    html: [
      `<div lang="${t.lang}"${dir}>`,
      paragraph(hello),
      ...before.map(paragraph),
      `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
      ...after.map(paragraph),
      `</div>`,
    ].join("\n"),
    text: [hello, ...before, t.t("email.linkLine", { label: link.label, url: link.url }), ...after].join("\n\n"),
  };
}

export function verificationEmail(user: UserRow, url: string): MailMessage {
  const t = accountTranslator(user);
  return email(user, t, t.t("email.verify.subject"), {
    before: [t.t("email.verify.intro")],
    link: { label: t.t("email.verify.action"), url },
    after: [`${t.t("email.verify.validity")} ${t.t("email.ignore")}`],
  });
}

export function resetEmail(user: UserRow, url: string): MailMessage {
  const t = accountTranslator(user);
  return email(user, t, t.t("email.reset.subject"), {
    before: [t.t("email.reset.intro")],
    link: { label: t.t("email.reset.action"), url },
    after: [`${t.t("email.reset.validity")} ${t.t("email.ignore")}`],
  });
}

/** What changed in how an account is protected: each a message of the catalogue. */
export type SecurityChange = Extract<MessageKey, "email.security.recoveryCodeUsed" | "email.security.newRecoveryCodes" | "email.security.newAuthenticator">;

/**
 * A change to how the account is protected (a recovery code used, new codes, a new authenticator): the owner
 * hears of it, so someone else's doing is noticed.
 */
export function securityNoticeEmail(user: UserRow, change: SecurityChange, origin: string): MailMessage {
  const t = accountTranslator(user);
  const what = t.t(change);
  return email(user, t, t.t("email.security.subject", { what }), {
    before: [t.t("email.security.what", { what, when: when(t) }), t.t("email.security.advice")],
    link: { label: t.t("email.security.reset"), url: new URL("/auth/reset-password", origin).toString() },
  });
}

/** Sent just before an account is deleted, so that a deletion by someone else does not go unnoticed. */
export function accountDeletedEmail(user: UserRow, origin: string): MailMessage {
  const t = accountTranslator(user);
  return email(user, t, t.t("email.deleted.subject"), {
    before: [t.t("email.deleted.what", { site: t.t("site.name"), when: when(t) }), t.t("email.deleted.advice")],
    link: { label: t.t("email.deleted.contact"), url: new URL("/support/contact-us", origin).toString() },
  });
}
