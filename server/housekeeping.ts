// Housekeeping: the server purges data nobody can use any more, on a timer of its own (no cron). Each capability
// owns the rule for its data; this module only calls them, logs, and schedules. The rules and their margins:
// README, "Housekeeping".
import type { Db } from "../db/database";
import { purgeOldAiCalls } from "~/ai/call-log.server";
import { purgeSpentLinks } from "~/auth/accounts.server";
import { purgeOldRateLimitWindows } from "~/auth/rate-limit.server";
import { purgeExpiredSessions } from "~/auth/session.server";
import { database } from "~/db.server";
import { purgeUnclaimedPrepared } from "~/help/prepared.server";
import { config } from "~/config.server";
import { sendMail } from "~/mail/mail.server";
import { type ReminderSending, sendDueReminders } from "~/reminders/reminders.server";
import { purgeKeptPosts } from "~/expiry/kept-posts.server";
import { purgeOrphanedAttachments } from "~/interviews/attachments.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { logger } from "~/observability/log.server";
import type { Log } from "./database-setup";

/** The first run comes this long after the server starts (not during start-up's own work)… */
export const FIRST_RUN_AFTER_MS = 60_000;
/** …then one every this long. */
export const RUN_EVERY_MS = 60 * 60_000;

const housekeepingLog = logger("housekeeping");
/** The log's line for a round: a failure as an error, the counts as information. */
const logLine: Log = (line) => {
  const text = line.replace(/^\[housekeeping\] /, "");
  if (text.startsWith("failed")) housekeepingLog.error(text);
  else housekeepingLog.info(text);
};

const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");

export interface HousekeepingCounts {
  sessions: number;
  links: number;
  rateLimitWindows: number;
  attachments: number;
  /** Files without a row (beyond the files of the attachment rows purged). */
  strayFiles: number;
  /** Records of AI calls past their retention, and transcripts emptied. */
  aiCalls: number;
  /** Interviews prepared for someone who never took them, their time up (app/help/prepared.server.ts). */
  preparedInterviews: number;
  /** Forms kept after a session expired, past their hour (app/expiry/kept-posts.server.ts). */
  keptPosts: number;
  /** Reminders of unfinished interviews emailed (app/reminders/reminders.server.ts): not a purge, but on the same round. */
  reminders: number;
}

export interface HousekeepingOptions {
  storage: AttachmentStorage;
  log?: Log;
  batchSize?: number;
  /** How reminders are emailed: by default through the configured mail, with links to PUBLIC_ORIGIN. */
  reminders?: ReminderSending;
}

/**
 * One round of every purge, each on its own: one that fails does not stop the others. Logs one line with the
 * counts when anything was removed, and one line naming what failed (retried next round). Never throws.
 */
export async function runHousekeeping(
  db: Db,
  now: Date,
  { storage, log = logLine, batchSize, reminders }: HousekeepingOptions,
): Promise<HousekeepingCounts> {
  const counts: HousekeepingCounts = { sessions: 0, links: 0, rateLimitWindows: 0, attachments: 0, strayFiles: 0, aiCalls: 0, preparedInterviews: 0, keptPosts: 0, reminders: 0 };
  const failures: string[] = [];
  const attempt = async (what: string, purge: () => Promise<void>) => {
    try {
      await purge();
    } catch (error) {
      failures.push(`${what}: ${oneLine(error)}`);
    }
  };
  const started = Date.now();
  await attempt("sessions", async () => void (counts.sessions = await purgeExpiredSessions(db, now, batchSize)));
  await attempt("links", async () => void (counts.links = await purgeSpentLinks(db, now, batchSize)));
  await attempt("rate-limit windows", async () => void (counts.rateLimitWindows = await purgeOldRateLimitWindows(db, now, batchSize)));
  await attempt("attachments", async () => {
    const { rows, files } = await purgeOrphanedAttachments(db, now, storage, batchSize);
    counts.attachments = rows;
    counts.strayFiles = files;
  });
  await attempt("AI call records", async () => void (counts.aiCalls = await purgeOldAiCalls(db, now)));
  await attempt("prepared interviews", async () => void (counts.preparedInterviews = await purgeUnclaimedPrepared(db, now, batchSize)));
  await attempt("kept forms", async () => void (counts.keptPosts = await purgeKeptPosts(db, now)));
  await attempt("reminders", async () => void (counts.reminders = await sendDueReminders(db, now, reminders ?? configuredReminderSending(db))));
  const ms = Date.now() - started;
  if (Object.values(counts).some((count) => count > 0)) {
    log(
      `[housekeeping] removed ${counts.sessions} expired sessions, ${counts.links} spent links, ` +
        `${counts.rateLimitWindows} old rate-limit windows, ${counts.attachments} orphaned attachments, ` +
        `${counts.strayFiles} files without a row, ${counts.aiCalls} AI call records or transcripts past retention, ` +
        `${counts.preparedInterviews} unclaimed prepared interviews, ${counts.keptPosts} kept forms past their hour; sent ${counts.reminders} reminders (${ms} ms)`,
    );
  }
  if (failures.length) log(`[housekeeping] failed, will retry in the next round: ${failures.join("; ")}`);
  return counts;
}

/** Reminders sent as the server sends email: Resend or the outbox, the links to PUBLIC_ORIGIN. */
export function configuredReminderSending(db: Db): ReminderSending {
  const settings = config();
  return { origin: settings.PUBLIC_ORIGIN, send: (message) => sendMail(message, settings, db) };
}

export interface Housekeeping {
  /** Stops the timer; resolves when a round under way has ended. */
  stop(): Promise<void>;
}

/**
 * Runs housekeeping FIRST_RUN_AFTER_MS after the call, then RUN_EVERY_MS after each round ends (rounds never
 * overlap). The timer is unref'd: it never keeps the process alive. server.js starts it in one process only.
 */
export function startHousekeeping({
  db = database,
  storage = attachmentStorage,
  log = logLine,
  firstRunAfterMs = FIRST_RUN_AFTER_MS,
  runEveryMs = RUN_EVERY_MS,
  clock = () => new Date(),
}: {
  db?: () => Db;
  storage?: () => AttachmentStorage;
  log?: Log;
  firstRunAfterMs?: number;
  runEveryMs?: number;
  clock?: () => Date;
} = {}): Housekeeping {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      round = Promise.resolve()
        .then(() => runHousekeeping(db(), clock(), { storage: storage(), log }))
        .catch((error: unknown) => log(`[housekeeping] failed, will retry in the next round: ${oneLine(error)}`))
        .finally(() => {
          if (!stopped) schedule(runEveryMs);
        });
    }, delay);
    timer.unref();
  };
  schedule(firstRunAfterMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
