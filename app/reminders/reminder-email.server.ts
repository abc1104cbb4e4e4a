import { translator } from "~/i18n/translator";
import type { MailMessage } from "~/mail/mail.server";
import { escapeHtml } from "~/ui/escape";

/**
 * The reminder, in HTML and plain text, in the language the person had when they asked: a greeting, what it is
 * about (a sensitive issue unnamed: `issueName` null), the link to continue, and the link to stop reminders.
 */
export function reminderEmail({
  to,
  name,
  language,
  issueName,
  continueUrl,
  stopUrl,
}: {
  to: string;
  name: string;
  language: string;
  issueName: string | null;
  continueUrl: string;
  stopUrl: string;
}): MailMessage {
  const t = translator(language);
  const hello = t.t("email.hello", { name });
  const intro = issueName === null ? t.t("reminders.email.introUnnamed") : t.t("reminders.email.intro", { issue: issueName });
  const saved = t.t("reminders.email.saved");
  const cont = t.t("reminders.email.continue");
  const once = t.t("reminders.email.once");
  const stopIntro = t.t("reminders.email.stopIntro");
  const stop = t.t("reminders.email.stop");
  const dir = t.dir === "rtl" ? ` dir="rtl"` : "";
  const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
  const link = (label: string, url: string) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;
  return {
    to,
    subject: t.t("reminders.email.subject"),
    html: [`<div lang="${t.lang}"${dir}>`, paragraph(hello), paragraph(intro), paragraph(saved), link(cont, continueUrl), paragraph(once), paragraph(stopIntro), link(stop, stopUrl), `</div>`].join("\n"),
    text: [hello, intro, saved, t.t("email.linkLine", { label: cont, url: continueUrl }), once, stopIntro, t.t("email.linkLine", { label: stop, url: stopUrl })].join("\n\n"),
    // Mail programs that offer "Unsubscribe" stop reminders in one click: they POST to the stop link (RFC 8058),
    // which the stop page's action takes as its button (app/routes/reminders.stop.tsx).
    headers: { "List-Unsubscribe": `<${stopUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
