// Interviews a helper prepares for someone (docs/decisions/0042-helpers.md): the helper starts it (its row is theirs,
// so the viewer runs it for them like any interview), answers some pages, and invites the person by email. The
// invitation's link works once and for 7 days; claiming it moves the interview and its files to the person, and the
// helper sees it from then on only if the person shares it. Unclaimed ones are removed once their time is up.
import { deleteInBatches, PURGE_BATCH_SIZE } from "../../db/batches";
import type { Db } from "../../db/database";
import { type FittingAnswer, withAnswers } from "~/a2j";
import type { HelperLimits } from "~/administration/roles.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { emailKey } from "~/auth/accounts.server";
import { hashToken, randomToken } from "~/auth/crypto.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { saveInterview } from "~/interviews/interviews.server";
import { sendMail } from "~/mail/mail.server";
import { fullName } from "~/ui/header";
import { openViewer } from "~/viewer/viewer.server";
import { invitationEmail } from "./emails.server";
import { type HelperName, interviewNotes } from "./shares.server";

/** An invitation works this long after it is sent; an interview never sent is removed this long after it was started. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a helper's limits take in an issue (of this country). */
export function limitsAllow(limits: HelperLimits, issue: { id: number; countryId: number }): boolean {
  return limits.everywhere || limits.issueIds.includes(issue.id) || limits.countryIds.includes(issue.countryId);
}

export interface PreparedFor {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * Starts an interview for someone: a fresh interview of the issue's published guide, the helper's until claimed.
 * Null when the issue is outside the helper's limits or has no interview to run.
 */
export async function prepareInterview(
  helper: HelperName & { administrator?: boolean },
  limits: HelperLimits,
  issueId: number,
  person: PreparedFor,
  actor: Actor,
  db: Db = database(),
  now = new Date(),
  /** Answers filled in beforehand (checked against the guide by the caller: the organisation's API). */
  answers: readonly FittingAnswer[] = [],
): Promise<{ interviewId: string } | null> {
  const opened = await openViewer({ id: helper.id, administrator: false }, { preview: false, issueId, interviewId: null }, null, db);
  if (!opened?.issue || !limitsAllow(limits, { id: opened.issue.id, countryId: opened.issue.country.id })) return null;
  const issue = opened.issue;
  return db.transaction().execute(async (trx) => {
    const state = answers.length ? { ...opened.state, answers: withAnswers(opened.state.answers, answers) } : opened.state;
    const interviewId = await saveInterview({ id: null, userId: helper.id, issueId: issue.id, status: "Draft", state, guide: opened.pin, language: opened.language }, trx);
    await trx
      .insertInto("prepared_interviews")
      .values({
        interview_id: interviewId,
        helper_id: helper.id,
        helper_name: fullName(helper),
        person_first_name: person.firstName,
        person_last_name: person.lastName,
        person_email: person.email.trim(),
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    await recordAuditEvent(actor, { action: "help.prepared", subject: person.email.trim(), details: { issue: issue.name, interview: interviewId } }, trx);
    return { interviewId };
  });
}

export type PreparedState = "not-sent" | "sent" | "expired" | "claimed";

function stateOf(row: { claimed_at: string | null; invited_at: string | null; expires_at: string }, now: Date): PreparedState {
  if (row.claimed_at) return "claimed";
  if (row.expires_at <= now.toISOString()) return "expired";
  return row.invited_at ? "sent" : "not-sent";
}

function preparedQuery(db: Db) {
  return db
    .selectFrom("prepared_interviews")
    .innerJoin("interviews", "interviews.id", "prepared_interviews.interview_id")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .select([
      "prepared_interviews.interview_id",
      "prepared_interviews.person_first_name",
      "prepared_interviews.person_last_name",
      "prepared_interviews.person_email",
      "prepared_interviews.invited_at",
      "prepared_interviews.expires_at",
      "prepared_interviews.claimed_at",
      "prepared_interviews.created_at",
      "interviews.user_id",
      "interviews.issue_id",
      "issues.name as issue_name",
    ]);
}

function preparedOf(row: Awaited<ReturnType<ReturnType<typeof preparedQuery>["executeTakeFirstOrThrow"]>>, now: Date) {
  return {
    interviewId: row.interview_id,
    issueId: row.issue_id,
    issueName: row.issue_name,
    person: { firstName: row.person_first_name, lastName: row.person_last_name, email: row.person_email },
    invitedAt: row.invited_at,
    expiresAt: row.expires_at,
    claimedAt: row.claimed_at,
    createdAt: row.created_at,
    state: stateOf(row, now),
  };
}

export type PreparedInterview = ReturnType<typeof preparedOf>;

/** The interviews a helper prepared, newest first (those claimed too, without their content). */
export async function listPrepared(helperId: string, db: Db = database(), now = new Date()): Promise<PreparedInterview[]> {
  const rows = await preparedQuery(db)
    .where("prepared_interviews.helper_id", "=", helperId)
    .orderBy("prepared_interviews.created_at", "desc")
    .orderBy("prepared_interviews.interview_id")
    .limit(200)
    .execute();
  return rows.map((row) => preparedOf(row, now));
}

/** One interview a helper prepared, or null (another helper's, or none). */
export async function findPrepared(helperId: string, interviewId: string, db: Db = database(), now = new Date()): Promise<PreparedInterview | null> {
  if (!UUID.test(interviewId)) return null;
  const row = await preparedQuery(db)
    .where("prepared_interviews.interview_id", "=", interviewId)
    .where("prepared_interviews.helper_id", "=", helperId)
    .executeTakeFirst();
  return row ? preparedOf(row, now) : null;
}

/** The person an unclaimed prepared interview waits for; null once it is claimed (or for an interview nobody prepared). */
export async function waitingFor(helperId: string, interviewId: string, db: Db = database()): Promise<PreparedFor | null> {
  const row = await db
    .selectFrom("prepared_interviews")
    .select(["person_first_name", "person_last_name", "person_email"])
    .where("interview_id", "=", interviewId)
    .where("helper_id", "=", helperId)
    .where("claimed_at", "is", null)
    .executeTakeFirst();
  return row ? { firstName: row.person_first_name, lastName: row.person_last_name, email: row.person_email } : null;
}

/**
 * Emails the person a new invitation (one link, single use, INVITATION_TTL_MS); an earlier link stops working.
 * False once the interview is claimed (or is not this helper's).
 */
export async function sendInvitation(helper: HelperName, interviewId: string, actor: Actor, db: Db = database(), now = new Date()): Promise<boolean> {
  const code = randomToken();
  const row = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("prepared_interviews")
      .set({ invitation_hash: hashToken(code), invited_at: now.toISOString(), expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString() })
      .where("interview_id", "=", interviewId)
      .where("helper_id", "=", helper.id)
      .where("claimed_at", "is", null)
      .returning(["person_first_name", "person_last_name", "person_email"])
      .executeTakeFirst();
    if (updated) await recordAuditEvent(actor, { action: "help.invited", subject: updated.person_email, details: { interview: interviewId } }, trx);
    return updated;
  });
  if (!row) return false;
  const url = new URL("/invitation", config().PUBLIC_ORIGIN);
  url.searchParams.set("code", code);
  const to = { name: `${row.person_first_name} ${row.person_last_name}`.trim(), email: row.person_email };
  await sendMail(invitationEmail(to, fullName(helper), url.toString()), config(), db);
  return true;
}

/** Deletes an unclaimed prepared interview (its answers and files with it); false once claimed or not this helper's. */
export async function cancelPrepared(helper: HelperName, interviewId: string, actor: Actor, db: Db = database()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("prepared_interviews")
      .select("person_email")
      .where("interview_id", "=", interviewId)
      .where("helper_id", "=", helper.id)
      .where("claimed_at", "is", null)
      .executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("interviews").where("id", "=", interviewId).where("user_id", "=", helper.id).execute();
    await recordAuditEvent(actor, { action: "help.cancelled", subject: row.person_email, details: { interview: interviewId } }, trx);
    return true;
  });
}

export type InvitationCheck =
  | { status: "valid"; interviewId: string; helperName: string; person: PreparedFor }
  | { status: "used" }
  | { status: "expired"; helperName: string }
  | { status: "unknown" };

/** What an invitation's code is worth. A code replaced by a newer invitation, or cancelled, is unknown. */
export async function checkInvitation(code: string, db: Db = database(), now = new Date()): Promise<InvitationCheck> {
  if (!code || code.length > 100) return { status: "unknown" };
  const row = await db.selectFrom("prepared_interviews").selectAll().where("invitation_hash", "=", hashToken(code)).executeTakeFirst();
  if (!row) return { status: "unknown" };
  if (row.claimed_at) return { status: "used" };
  if (row.expires_at <= now.toISOString()) return { status: "expired", helperName: row.helper_name };
  return {
    status: "valid",
    interviewId: row.interview_id,
    helperName: row.helper_name,
    person: { firstName: row.person_first_name, lastName: row.person_last_name, email: row.person_email },
  };
}

/**
 * The invited person takes the interview: it becomes theirs with its files, and the code is spent. Only an account
 * with the address the invitation went to may (the code may have been forwarded). Returns why not otherwise; two
 * clicks at once claim it once.
 */
export async function claimInvitation(
  code: string,
  person: { id: string; email: string },
  db: Db = database(),
  now = new Date(),
): Promise<{ ok: true; interviewId: string; issueId: number } | { ok: false; check: InvitationCheck | { status: "other-account" } }> {
  const check = await checkInvitation(code, db, now);
  if (check.status !== "valid") return { ok: false, check };
  if (emailKey(check.person.email) !== emailKey(person.email)) return { ok: false, check: { status: "other-account" } };
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("prepared_interviews")
      .set({ claimed_at: now.toISOString(), claimed_by: person.id })
      .where("invitation_hash", "=", hashToken(code))
      .where("claimed_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .returning(["interview_id", "helper_id"])
      .executeTakeFirst();
    if (!claimed?.helper_id) return { ok: false as const, check: { status: "used" as const } };
    const moved = await trx
      .updateTable("interviews")
      .set({ user_id: person.id })
      .where("id", "=", claimed.interview_id)
      .where("user_id", "=", claimed.helper_id)
      .returning("issue_id")
      .executeTakeFirst();
    if (!moved) throw new Error(`prepared interview ${claimed.interview_id} is no longer its helper's`);
    await trx.updateTable("attachments").set({ user_id: person.id }).where("interview_id", "=", claimed.interview_id).execute();
    return { ok: true as const, interviewId: claimed.interview_id, issueId: Number(moved.issue_id) };
  });
}

/** Housekeeping: prepared interviews never claimed whose time is up go, with their answers and files. Returns how many. */
export function purgeUnclaimedPrepared(db: Db, now: Date, batchSize = PURGE_BATCH_SIZE): Promise<number> {
  return deleteInBatches(async (limit) => {
    const expired = db
      .selectFrom("prepared_interviews")
      .select("interview_id")
      .where("claimed_at", "is", null)
      .where("expires_at", "<=", now.toISOString())
      .limit(limit);
    const result = await db.deleteFrom("interviews").where("id", "in", expired).executeTakeFirst();
    return result.numDeletedRows;
  }, batchSize);
}

/** A code from an invitation link that is ours to check (anything else is unknown without a query). */
export function invitationCodeFrom(url: URL): string {
  return (url.searchParams.get("code") ?? "").slice(0, 100);
}

/**
 * What the interview page says of help for whoever opens it: to its person, whether helpers replied (unread); to
 * the helper preparing it, for whom.
 */
export async function interviewPageHelp(userId: string, interviewId: string, db: Db = database()) {
  const [notes, preparingFor] = await Promise.all([interviewNotes(userId, [interviewId], db), waitingFor(userId, interviewId, db)]);
  return { unreadReplies: notes[interviewId]?.unreadReplies ?? 0, preparingFor };
}
