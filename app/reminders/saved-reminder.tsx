import { useT } from "~/i18n/react";

/** What the page after saving knows of the reminder (app/reminders/reminders.server.ts, ReminderOffer). */
type Offer = { kind: "offer"; days: number } | { kind: "asked"; dueAt: string } | null;

const DAY_MS = 24 * 60 * 60_000;
const longDate = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" } as const;

/**
 * Inside the saved-answers notice: one button that asks for a reminder on the date it names, or what was asked.
 * A plain form: it works without script.
 */
export function SavedReminder({ reminder, notSet, now }: { reminder: Offer; notSet: boolean; now: string }) {
  const t = useT();
  if (notSet) return <p>{t.t("reminders.notSet")}</p>;
  if (!reminder) return null;
  if (reminder.kind === "asked") return <p className="saved-notice__reminder">{t.t("reminders.asked", { date: t.date(reminder.dueAt, longDate) })}</p>;
  const date = t.date(new Date(Date.parse(now) + reminder.days * DAY_MS), longDate);
  return (
    <form method="post" action="/?index" className="saved-notice__reminder">
      <p className="field__hint" id="reminder-hint">
        {t.t("reminders.offer.hint")}
      </p>
      <button type="submit" name="intent" value="remind-me" className="button button--secondary button--small" aria-describedby="reminder-hint">
        {t.t("reminders.offer.button", { date })}
      </button>
    </form>
  );
}
