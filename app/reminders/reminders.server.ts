// Reminders of unfinished interviews (issue 29, docs/decisions/0050-reminders.md). A person who saves and leaves
// may ask for one email after the organisation's delay; housekeeping sends it once, in their language, with a link
// to continue and a link to stop. Never for an interview completed or deleted (the row goes with the interview),
// never more than DAILY_CAP a day to one person, and never twice, however many instances run housekeeping: each
// sends only a reminder it has claimed in the database (a lease).
import { sql } from "kysely";
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { hashToken, randomToken } from "~/auth/crypto.server";
import { DEFAULT_LANGUAGE } from "~/i18n/languages";
import type { MailMessage } from "~/mail/mail.server";
import { DEFAULT_REMINDER_DAYS, MAX_REMINDER_DAYS } from "./limits";
import { reminderEmail } from "./reminder-email.server";

const DAY_MS = 24 * 60 * 60_000;
/** How long a claim holds: an instance that died after claiming leaves the reminder to another after this. */
export const LEASE_MS = 15 * 60_000;
/** At most this many reminders a day to one person, however many interviews they left unfinished. */
export const DAILY_CAP = 1;
export { DEFAULT_REMINDER_DAYS, MAX_REMINDER_DAYS };

const SETTING_KEY = "reminders";

/** The organisation's choice: reminders after `days` days, or none (`days` null). */
export interface ReminderSettings {
  days: number | null;
}

export async function reminderSettings(db: Db = database()): Promise<ReminderSettings> {
  const row = await db.selectFrom("site_settings").select("value").where("key", "=", SETTING_KEY).executeTakeFirst();
  if (!row) return { days: DEFAULT_REMINDER_DAYS };
  try {
    const value = JSON.parse(row.value) as { days?: unknown };
    if (value.days === null) return { days: null };
    if (typeof value.days === "number" && Number.isInteger(value.days) && value.days >= 1 && value.days <= MAX_REMINDER_DAYS) return { days: value.days };
  } catch {
    // A value no version wrote: the default.
  }
  return { days: DEFAULT_REMINDER_DAYS };
}

/** Sets the delay (null: reminders off); audited. Pending reminders keep their due time; while off none is sent. */
export async function setReminderSettings(settings: ReminderSettings, actor: Actor, db: Db = database()): Promise<void> {
  const value = JSON.stringify({ days: settings.days });
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    const before = await reminderSettings(trx);
    await trx
      .insertInto("site_settings")
      .values({ key: SETTING_KEY, value, updated_at: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
      .execute();
    await recordAuditEvent(actor, { action: "reminders.changed", subject: settings.days === null ? "off" : `${settings.days} days`, details: { before: before.days, after: settings.days } }, trx);
  });
}

/** What the page after "Save and exit" offers for an interview: to ask, what was asked, or nothing. */
export type ReminderOffer = { kind: "offer"; days: number } | { kind: "asked"; dueAt: string } | null;

export async function reminderOffer(interviewId: string, db: Db = database()): Promise<ReminderOffer> {
  const { days } = await reminderSettings(db);
  if (days === null) return null;
  const row = await db
    .selectFrom("interviews")
    .leftJoin("interview_reminders", "interview_reminders.interview_id", "interviews.id")
    .select(["interviews.status", "interview_reminders.due_at", "interview_reminders.sent_at", "interview_reminders.stopped_at"])
    .where("interviews.id", "=", interviewId)
    .executeTakeFirst();
  if (!row || row.status !== "Draft") return null;
  if (row.due_at && !row.sent_at && !row.stopped_at) return { kind: "asked", dueAt: row.due_at };
  return { kind: "offer", days };
}

/**
 * "Email me in N days if I have not finished": a reminder of a Draft interview, due after the organisation's
 * delay, in the person's language (else `pageLanguage`). Asking again starts it afresh. Null when reminders are
 * off or the interview is finished or gone.
 */
export async function askForReminder(interviewId: string, pageLanguage: string, now: Date, db: Db = database()): Promise<{ dueAt: string } | null> {
  const { days } = await reminderSettings(db);
  if (days === null) return null;
  const interview = await db
    .selectFrom("interviews")
    .innerJoin("users", "users.id", "interviews.user_id")
    .select(["interviews.id", "interviews.user_id", "interviews.status", "users.language"])
    .where("interviews.id", "=", interviewId)
    .executeTakeFirst();
  if (!interview || interview.status !== "Draft") return null;
  const dueAt = new Date(now.getTime() + days * DAY_MS).toISOString();
  const fresh = { language: interview.language ?? pageLanguage ?? DEFAULT_LANGUAGE, created_at: now.toISOString(), due_at: dueAt, claimed_at: null, sent_at: null, stopped_at: null, stop_hash: null };
  await db
    .insertInto("interview_reminders")
    .values({ interview_id: interview.id, user_id: interview.user_id, ...fresh })
    .onConflict((oc) => oc.column("interview_id").doUpdateSet(fresh))
    .execute();
  return { dueAt };
}

export interface ReminderSending {
  /** Where the emailed links point (PUBLIC_ORIGIN). */
  origin: string;
  send: (message: MailMessage) => Promise<unknown>;
  batchSize?: number;
}

/**
 * Sends the reminders due at `now` (housekeeping, each round): each only after claiming it in one conditional
 * UPDATE that also checks, in the database, that it is still unsent, unstopped and unclaimed (or its lease is
 * over), that its interview is still a Draft, and that the person has had fewer than DAILY_CAP reminders in the
 * day before `now`. A reminder whose email fails is released for the next round. Returns how many went.
 */
export async function sendDueReminders(db: Db, now: Date, { origin, send, batchSize = 100 }: ReminderSending): Promise<number> {
  const { days } = await reminderSettings(db);
  if (days === null) return 0;
  const at = now.toISOString();
  const leaseOver = new Date(now.getTime() - LEASE_MS).toISOString();
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const due = await db
    .selectFrom("interview_reminders")
    .innerJoin("interviews", "interviews.id", "interview_reminders.interview_id")
    .select(["interview_reminders.interview_id", "interview_reminders.user_id"])
    .where("interview_reminders.sent_at", "is", null)
    .where("interview_reminders.stopped_at", "is", null)
    .where("interview_reminders.due_at", "<=", at)
    .where("interviews.status", "=", "Draft")
    .where((eb) => eb.or([eb("interview_reminders.claimed_at", "is", null), eb("interview_reminders.claimed_at", "<", leaseOver)]))
    .orderBy("interview_reminders.due_at")
    .limit(batchSize)
    .execute();
  let sent = 0;
  const failures: string[] = [];
  for (const candidate of due) {
    const code = randomToken();
    const claimed = await db
      .updateTable("interview_reminders")
      .set({ claimed_at: at, stop_hash: hashToken(code) })
      .where("interview_id", "=", candidate.interview_id)
      .where("sent_at", "is", null)
      .where("stopped_at", "is", null)
      .where((eb) => eb.or([eb("claimed_at", "is", null), eb("claimed_at", "<", leaseOver)]))
      .where((eb) => eb.exists(eb.selectFrom("interviews").select(sql.lit(1).as("one")).where("interviews.id", "=", candidate.interview_id).where("interviews.status", "=", "Draft")))
      .where(
        (eb) =>
          eb
            .selectFrom("interview_reminders as other")
            .select((inner) => inner.fn.countAll<number>().as("n"))
            .where("other.user_id", "=", candidate.user_id)
            .where("other.interview_id", "<>", candidate.interview_id)
            .where((inner) =>
              inner.or([
                inner("other.sent_at", ">", dayAgo),
                inner.and([inner("other.sent_at", "is", null), inner("other.claimed_at", ">=", leaseOver)]),
              ]),
            ),
        "<",
        DAILY_CAP,
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    try {
      const message = await reminderMessage(db, candidate.interview_id, origin, code);
      if (message) await send(message);
      await db.updateTable("interview_reminders").set({ sent_at: at }).where("interview_id", "=", candidate.interview_id).execute();
      if (message) sent++;
    } catch (error) {
      await db.updateTable("interview_reminders").set({ claimed_at: null }).where("interview_id", "=", candidate.interview_id).execute();
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (failures.length) throw new Error(`${failures.length} reminder(s) not sent, retried next round: ${failures[0]}`);
  return sent;
}

async function reminderMessage(db: Db, interviewId: string, origin: string, code: string): Promise<MailMessage | null> {
  const row = await db
    .selectFrom("interview_reminders")
    .innerJoin("interviews", "interviews.id", "interview_reminders.interview_id")
    .innerJoin("users", "users.id", "interview_reminders.user_id")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .select(["interview_reminders.language", "users.email", "users.first_name", "users.last_name", "issues.id as issue_id", "issues.name as issue_name", "issues.sensitive"])
    .where("interview_reminders.interview_id", "=", interviewId)
    .executeTakeFirst();
  if (!row) return null;
  return reminderEmail({
    to: row.email,
    name: `${row.first_name} ${row.last_name}`.trim(),
    language: row.language,
    // A sensitive issue is never named where someone else might read it (docs/decisions/0041).
    issueName: row.sensitive ? null : row.issue_name,
    continueUrl: new URL(`/issues/${row.issue_id}/interviews/${interviewId}`, origin).toString(),
    stopUrl: new URL(`/reminders/stop?${new URLSearchParams({ code })}`, origin).toString(),
  });
}

/** What an emailed stop link's code names: nothing, or a person whose reminders are running or stopped. */
export type StopLinkState = "unknown" | "active" | "stopped";

export async function stopLinkState(code: string, db: Db = database()): Promise<StopLinkState> {
  if (!code) return "unknown";
  const row = await db.selectFrom("interview_reminders").select(["stopped_at"]).where("stop_hash", "=", hashToken(code)).executeTakeFirst();
  if (!row) return "unknown";
  return row.stopped_at ? "stopped" : "active";
}

/**
 * The stop link's button: every reminder of the person the code names that has not gone yet is stopped, and the
 * link's own is marked as used. False for a code that names nothing (an old link whose interview was deleted).
 */
export async function stopReminders(code: string, now: Date, db: Db = database()): Promise<boolean> {
  if (!code) return false;
  const row = await db.selectFrom("interview_reminders").select(["user_id"]).where("stop_hash", "=", hashToken(code)).executeTakeFirst();
  if (!row) return false;
  const at = now.toISOString();
  await db
    .updateTable("interview_reminders")
    .set({ stopped_at: at })
    .where("user_id", "=", row.user_id)
    .where("stopped_at", "is", null)
    .where((eb) => eb.or([eb("sent_at", "is", null), eb("stop_hash", "=", hashToken(code))]))
    .execute();
  return true;
}
