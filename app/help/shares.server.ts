// Interviews a person shares with the organisation's helpers, for a time (docs/decisions/0042-helpers.md). Nothing
// of the interview is copied: the helper's view reads the interview, its document and its files per request, and
// only while the share lasts. The person's message and the helpers' replies are sealed like the answers.
import { randomUUID } from "node:crypto";
import { type ExpressionBuilder, sql } from "kysely";
import type { Db } from "../../db/database";
import type { Database, ShareStatus, ShareViewWhat } from "../../db/schema";
import type { HelperLimits } from "~/administration/roles.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { attachmentNamePlace } from "~/interviews/attachments.server";
import { openText, sealText } from "~/security/data-encryption.server";
import { interviewAnswerSummary } from "~/viewer/viewer.server";
import { fullName } from "~/ui/header";
import { sendMail } from "~/mail/mail.server";
import { queueInterviewShared, queueSharesEnded } from "~/webhooks/queue.server";
import { replyNoticeEmail } from "./emails.server";

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const MESSAGE_MAX = 2000;
export const REPLY_MAX = 5000;

/** Where each sealed value of help lives (app/security/data-encryption.server.ts binds a value to its place). */
export const messagePlace = (shareId: string) => `interview_shares.message:${shareId}`;
export const replyPlace = (replyId: string) => `share_replies.body:${replyId}`;
export const aboutPlace = (replyId: string) => `share_replies.about:${replyId}`;

/** Who a helper is on a reply or in the list of who has seen what. */
export interface HelperName {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface ShareChoice {
  answers: boolean;
  documents: boolean;
  files: boolean;
  message: string | null;
}

/** A share that still gives access: not stopped by the person, not past its end. */
function live(now: Date) {
  return (eb: ExpressionBuilder<Database, "interview_shares">) =>
    eb.and([eb("interview_shares.ended_at", "is", null), eb("interview_shares.expires_at", ">", now.toISOString())]);
}

/** The shares a helper's limits let them see: of interviews on their issues or in their countries (nothing when none are left). */
function withinLimits(limits: HelperLimits) {
  return (eb: ExpressionBuilder<Database, "interview_shares" | "interviews" | "issues">) => {
    if (limits.everywhere) return sql<boolean>`1 = 1`;
    const allowed = [
      ...(limits.issueIds.length ? [eb("issues.id", "in", limits.issueIds)] : []),
      ...(limits.countryIds.length ? [eb("issues.category_id", "in", limits.countryIds)] : []),
    ];
    return allowed.length ? eb.or(allowed) : sql<boolean>`1 = 0`;
  };
}

function openMessage(id: string, sealed: string | null): string | null {
  return sealed === null ? null : openText(sealed, messagePlace(id));
}

// ——— The person's side ———

export interface ShareSummary {
  id: string;
  answers: boolean;
  documents: boolean;
  files: boolean;
  message: string | null;
  status: ShareStatus;
  takenByName: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface Reply {
  id: string;
  helperName: string;
  body: string;
  /** The page the reply is about; null for the whole interview. */
  about: { page: string; label: string } | null;
  createdAt: string;
  read: boolean;
}

export interface View {
  helperName: string;
  what: ShareViewWhat;
  fileName: string | null;
  viewedAt: string;
}

/** The live share of an owner's interview, or null. */
async function liveShareOf(ownerId: string, interviewId: string, db: Db, now: Date) {
  return db
    .selectFrom("interview_shares")
    .selectAll()
    .where("interview_id", "=", interviewId)
    .where("owner_id", "=", ownerId)
    .where(live(now))
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

/**
 * Shares an owner's interview with the helpers for SHARE_DAYS days. Null when the owner has no such interview;
 * an interview already shared keeps its share (two clicks, two tabs).
 */
export async function shareInterview(
  ownerId: string,
  interviewId: string,
  choice: ShareChoice,
  db: Db = database(),
  now = new Date(),
  days = config().SHARE_DAYS,
): Promise<{ id: string; created: boolean } | null> {
  if (!UUID.test(interviewId)) return null;
  const summary = await interviewAnswerSummary(ownerId, interviewId, db);
  if (!summary) return null;
  const existing = await liveShareOf(ownerId, interviewId, db, now);
  if (existing) return { id: existing.id, created: false };
  const id = randomUUID();
  // The share and its events (interview.shared, help.requested) are written together or not at all.
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("interview_shares")
      .values({
        id,
        interview_id: interviewId,
        owner_id: ownerId,
        answers: choice.answers ? 1 : 0,
        // A document exists only for a Completed interview; files only if there are some (checked when opened).
        documents: choice.documents && summary.status === "Completed" ? 1 : 0,
        files: choice.files ? 1 : 0,
        message: choice.message ? sealText(choice.message, messagePlace(id)) : null,
        language: summary.language || "en",
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
      })
      .execute();
    await queueInterviewShared(trx, id, { now });
  });
  return { id, created: true };
}

/** Stops every live share of an owner's interview: from the next request no helper sees it. False when there was none. */
export async function stopSharing(ownerId: string, interviewId: string, db: Db = database(), now = new Date()): Promise<boolean> {
  // The end and its share.ended events are written together.
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable("interview_shares")
      .set({ ended_at: now.toISOString() })
      .where("interview_id", "=", interviewId)
      .where("owner_id", "=", ownerId)
      .where(live(now))
      .returning("id")
      .execute();
    await queueSharesEnded(trx, ended.map((row) => row.id), { now });
    return ended.length > 0;
  });
}

function summaryOf(row: NonNullable<Awaited<ReturnType<typeof liveShareOf>>>): ShareSummary {
  return {
    id: row.id,
    answers: row.answers === 1,
    documents: row.documents === 1,
    files: row.files === 1,
    message: openMessage(row.id, row.message),
    status: row.status,
    takenByName: row.taken_by_name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

async function repliesOf(shareIds: string[], db: Db): Promise<Reply[]> {
  if (!shareIds.length) return [];
  const rows = await db.selectFrom("share_replies").selectAll().where("share_id", "in", shareIds).orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map((row) => ({
    id: row.id,
    helperName: row.helper_name,
    body: openText(row.body, replyPlace(row.id)),
    about: row.about === null ? null : (JSON.parse(openText(row.about, aboutPlace(row.id))) as { page: string; label: string }),
    createdAt: row.created_at,
    read: row.read_at !== null,
  }));
}

/**
 * Everything the person's page on helping shows for one of their interviews: the interview, its live share, the
 * replies and who has seen what across every share it has had. Null when the owner has no such interview. The
 * replies it returns are marked read (`markRead`: the page is being shown to the owner).
 */
export async function sharingOfInterview(ownerId: string, interviewId: string, { markRead = false, db = database(), now = new Date() } = {}) {
  if (!UUID.test(interviewId)) return null;
  const interview = await db
    .selectFrom("interviews")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .select(["interviews.id", "interviews.status", "interviews.issue_id", "issues.name as issue_name", "categories.name as country_name"])
    .where("interviews.id", "=", interviewId)
    .where("interviews.user_id", "=", ownerId)
    .executeTakeFirst();
  if (!interview) return null;
  const shares = await db.selectFrom("interview_shares").select("id").where("interview_id", "=", interviewId).where("owner_id", "=", ownerId).execute();
  const shareIds = shares.map((share) => share.id);
  const current = await liveShareOf(ownerId, interviewId, db, now);
  const replies = await repliesOf(shareIds, db);
  const viewRows = shareIds.length
    ? await db
        .selectFrom("share_views")
        .leftJoin("attachments", "attachments.id", "share_views.attachment_id")
        .select(["share_views.helper_name", "share_views.what", "share_views.viewed_at", "attachments.id as attachment_id", "attachments.file_name"])
        .where("share_views.share_id", "in", shareIds)
        .orderBy("share_views.viewed_at", "desc")
        .limit(200)
        .execute()
    : [];
  const { count: fileCount } = await db
    .selectFrom("attachments")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("interview_id", "=", interviewId)
    .where("user_id", "=", ownerId)
    .executeTakeFirstOrThrow();
  if (markRead && replies.some((reply) => !reply.read)) {
    await db.updateTable("share_replies").set({ read_at: now.toISOString() }).where("share_id", "in", shareIds).where("read_at", "is", null).execute();
  }
  return {
    interview: {
      id: interview.id,
      status: interview.status,
      issueId: interview.issue_id,
      issueName: interview.issue_name,
      countryName: interview.country_name,
      hasFiles: Number(fileCount) > 0,
    },
    share: current ? summaryOf(current) : null,
    everShared: shareIds.length > 0,
    replies,
    views: viewRows.map<View>((row) => ({
      helperName: row.helper_name,
      what: row.what,
      fileName: row.attachment_id && row.file_name ? openText(row.file_name, attachmentNamePlace(row.attachment_id)) : null,
      viewedAt: row.viewed_at,
    })),
  };
}

export interface InterviewNote {
  sharedUntil: string | null;
  unreadReplies: number;
  preparedWith: string | null;
}

/** What My interviews and the interview page say of some of an owner's interviews: shared until, new replies, who prepared it. */
export async function interviewNotes(ownerId: string, interviewIds: string[], db: Db = database(), now = new Date()): Promise<Record<string, InterviewNote>> {
  const notes: Record<string, InterviewNote> = {};
  if (!interviewIds.length) return notes;
  const note = (id: string) => (notes[id] ??= { sharedUntil: null, unreadReplies: 0, preparedWith: null });
  const [shares, unread, prepared] = await Promise.all([
    db.selectFrom("interview_shares").select(["interview_id", "expires_at"]).where("interview_id", "in", interviewIds).where("owner_id", "=", ownerId).where(live(now)).execute(),
    db
      .selectFrom("share_replies")
      .innerJoin("interview_shares", "interview_shares.id", "share_replies.share_id")
      .select(["interview_shares.interview_id", (eb) => eb.fn.countAll<string | number>().as("count")])
      .where("interview_shares.interview_id", "in", interviewIds)
      .where("interview_shares.owner_id", "=", ownerId)
      .where("share_replies.read_at", "is", null)
      .groupBy("interview_shares.interview_id")
      .execute(),
    db
      .selectFrom("prepared_interviews")
      .select(["interview_id", "helper_name"])
      .where("interview_id", "in", interviewIds)
      .where("claimed_by", "=", ownerId)
      .execute(),
  ]);
  for (const share of shares) note(share.interview_id).sharedUntil = share.expires_at;
  for (const row of unread) note(row.interview_id).unreadReplies = Number(row.count);
  for (const row of prepared) note(row.interview_id).preparedWith = row.helper_name;
  return notes;
}

// ——— The helpers' side ———

export interface DeskFilters {
  status: ShareStatus;
  countryId: number | null;
  issueId: number | null;
  language: string | null;
}

export const DESK_LIST_SIZE = 100;

/** The live requests a helper may see, with what they can be filtered by; newest first (new ones: oldest first, to be taken in turn). */
export async function deskRequests(limits: HelperLimits, filters: DeskFilters, db: Db = database(), now = new Date()) {
  const base = db
    .selectFrom("interview_shares")
    .innerJoin("interviews", "interviews.id", "interview_shares.interview_id")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .where(live(now))
    .where(withinLimits(limits));
  let listed = base.where("interview_shares.status", "=", filters.status);
  if (filters.countryId !== null) listed = listed.where("issues.category_id", "=", filters.countryId);
  if (filters.issueId !== null) listed = listed.where("issues.id", "=", filters.issueId);
  if (filters.language !== null) listed = listed.where("interview_shares.language", "=", filters.language);
  const [rows, { count }, options] = await Promise.all([
    listed
      .select([
        "interview_shares.id",
        "interview_shares.language",
        "interview_shares.status",
        "interview_shares.taken_by_name",
        "interview_shares.created_at",
        "interview_shares.expires_at",
        "issues.id as issue_id",
        "issues.name as issue_name",
        "categories.name as country_name",
      ])
      .orderBy("interview_shares.created_at", filters.status === "new" ? "asc" : "desc")
      .orderBy("interview_shares.id")
      .limit(DESK_LIST_SIZE)
      .execute(),
    listed.select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow(),
    base.select("interview_shares.language").distinct().orderBy("interview_shares.language").execute(),
  ]);
  return {
    total: Number(count),
    requests: rows.map((row) => ({
      id: row.id,
      language: row.language,
      status: row.status,
      takenByName: row.taken_by_name,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      issueName: row.issue_name,
      countryName: row.country_name,
    })),
    languages: options.map((row) => row.language),
  };
}

/**
 * A live request within a helper's limits, with the message opened; null otherwise (a request that ended, was
 * never there, or is for another country or issue: the same answer). `mine`: taken by this helper and not closed,
 * the only state in which they may open what was shared and reply.
 */
export async function openRequest(helperId: string, limits: HelperLimits, shareId: string, db: Db = database(), now = new Date()) {
  if (!UUID.test(shareId)) return null;
  const row = await db
    .selectFrom("interview_shares")
    .innerJoin("interviews", "interviews.id", "interview_shares.interview_id")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .selectAll("interview_shares")
    .select(["interviews.status as interview_status", "issues.id as issue_id", "issues.name as issue_name", "categories.id as country_id", "categories.name as country_name"])
    .where("interview_shares.id", "=", shareId)
    .where(live(now))
    .where(withinLimits(limits))
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...summaryOf(row),
    interviewId: row.interview_id,
    ownerId: row.owner_id,
    interviewStatus: row.interview_status,
    issueId: row.issue_id,
    issueName: row.issue_name,
    countryId: row.country_id,
    countryName: row.country_name,
    language: row.language,
    takenAt: row.taken_at,
    closedAt: row.closed_at,
    mine: row.status === "taken" && row.taken_by === helperId,
  };
}

export type OpenRequest = NonNullable<Awaited<ReturnType<typeof openRequest>>>;

/** The same helper opening the same thing again within this time is one opening (a page shown again after a form). */
export const VIEW_COALESCE_MS = 15 * 60_000;

/** Records that a helper opened something shared: the person reads it in "Who has seen it". */
export async function recordView(request: OpenRequest, helper: HelperName, what: ShareViewWhat, attachmentId: string | null = null, db: Db = database(), now = new Date()) {
  const recent = await db
    .selectFrom("share_views")
    .select("id")
    .where("share_id", "=", request.id)
    .where("helper_id", "=", helper.id)
    .where("what", "=", what)
    .where((eb) => (attachmentId === null ? eb("attachment_id", "is", null) : eb("attachment_id", "=", attachmentId)))
    .where("viewed_at", ">", new Date(now.getTime() - VIEW_COALESCE_MS).toISOString())
    .executeTakeFirst();
  if (recent) return;
  await db
    .insertInto("share_views")
    .values({ id: randomUUID(), share_id: request.id, helper_id: helper.id, helper_name: fullName(helper), what, attachment_id: attachmentId, viewed_at: now.toISOString() })
    .execute();
}

/** A helper takes a new request; false when another took it first (or it ended meanwhile). */
export async function takeRequest(request: OpenRequest, helper: HelperName, actor: Actor, db: Db = database(), now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("interview_shares")
      .set({ status: "taken", taken_by: helper.id, taken_by_name: fullName(helper), taken_at: now.toISOString() })
      .where("id", "=", request.id)
      .where("status", "=", "new")
      .where(live(now))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent(actor, { action: "help.taken", subject: `request ${request.id}`, details: { issue: request.issueName } }, trx);
    return true;
  });
}

/** The helper who took a request closes it: they can no longer open what was shared. */
export async function closeRequest(request: OpenRequest, helper: HelperName, actor: Actor, db: Db = database(), now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("interview_shares")
      .set({ status: "closed", closed_at: now.toISOString() })
      .where("id", "=", request.id)
      .where("status", "=", "taken")
      .where("taken_by", "=", helper.id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent(actor, { action: "help.closed", subject: `request ${request.id}`, details: { issue: request.issueName } }, trx);
    return true;
  });
}

/** The replies of a request, newest first. */
export function requestReplies(request: OpenRequest, db: Db = database()): Promise<Reply[]> {
  return repliesOf([request.id], db);
}

/** The pages a reply can be about: those the shared answers were given on, named by their step and first question. */
export async function replyPages(request: OpenRequest, db: Db = database()): Promise<{ page: string; label: string }[]> {
  const summary = await interviewAnswerSummary(request.ownerId, request.interviewId, db);
  if (!summary) return [];
  const pages: { page: string; label: string }[] = [];
  const seen = new Set<number>();
  for (const step of summary.steps) {
    for (const answer of step.answers) {
      const page = summary.pageNames[answer.historyIndex];
      if (seen.has(answer.historyIndex) || page === undefined) continue;
      seen.add(answer.historyIndex);
      const entry = answer.entry === null ? "" : ` (${answer.entryNoun ?? "Entry"} ${answer.entry})`;
      pages.push({ page: `${answer.historyIndex}:${page}`, label: `${step.title}: ${answer.question}${entry}` });
    }
  }
  return pages;
}

/**
 * A helper's reply (about the whole interview, or one page of `replyPages`): kept sealed, and the person is
 * emailed that there is a reply, never what it says.
 */
export async function replyToRequest(
  request: OpenRequest,
  helper: HelperName,
  reply: { body: string; about: { page: string; label: string } | null },
  actor: Actor,
  db: Db = database(),
): Promise<void> {
  const id = randomUUID();
  const owner = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("share_replies")
      .values({
        id,
        share_id: request.id,
        helper_id: helper.id,
        helper_name: fullName(helper),
        body: sealText(reply.body, replyPlace(id)),
        about: reply.about ? sealText(JSON.stringify(reply.about), aboutPlace(id)) : null,
        created_at: new Date().toISOString(),
      })
      .execute();
    await recordAuditEvent(actor, { action: "help.replied", subject: `request ${request.id}`, details: { issue: request.issueName, aboutOnePage: reply.about !== null } }, trx);
    return trx.selectFrom("users").select(["first_name", "last_name", "email", "language"]).where("id", "=", request.ownerId).executeTakeFirstOrThrow();
  });
  const url = new URL(`/account/interview/${request.interviewId}/help`, config().PUBLIC_ORIGIN).toString();
  await sendMail(replyNoticeEmail({ name: `${owner.first_name} ${owner.last_name}`.trim(), email: owner.email, language: owner.language }, url), config(), db);
}

/** The files of a shared interview (only while it shares files), names opened for this request. */
export async function sharedFiles(request: OpenRequest, db: Db = database()) {
  if (!request.files) return [];
  const rows = await db
    .selectFrom("attachments")
    .select(["id", "file_name", "content_type", "size", "storage_key"])
    .where("interview_id", "=", request.interviewId)
    .where("user_id", "=", request.ownerId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    fileName: openText(row.file_name, attachmentNamePlace(row.id)),
    contentType: row.content_type,
    size: Number(row.size),
    storageKey: row.storage_key,
  }));
}

// ——— The organisation's systems (the API, docs/decisions/0056-the-api.md) ———

/**
 * One page of the live requests of every country and issue, newest first, after a position (`after`: the last
 * one of the page before). For the organisation's API, which reads them with an administrator's token; each is
 * opened afterwards with `openRequest` like a helper's.
 */
export async function liveRequestsPage(
  page: { limit: number; after: { createdAt: string; id: string } | null; status: ShareStatus | null },
  db: Db = database(),
  now = new Date(),
) {
  let query = db
    .selectFrom("interview_shares")
    .innerJoin("interviews", "interviews.id", "interview_shares.interview_id")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .select([
      "interview_shares.id",
      "interview_shares.interview_id",
      "interview_shares.answers",
      "interview_shares.documents",
      "interview_shares.files",
      "interview_shares.language",
      "interview_shares.status",
      "interview_shares.taken_by_name",
      "interview_shares.created_at",
      "interview_shares.expires_at",
      "interviews.status as interview_status",
      "issues.id as issue_id",
      "issues.name as issue_name",
      "categories.id as country_id",
      "categories.name as country_name",
    ])
    .where(live(now));
  if (page.status) query = query.where("interview_shares.status", "=", page.status);
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("interview_shares.created_at", "<", after.createdAt),
        eb.and([eb("interview_shares.created_at", "=", after.createdAt), eb("interview_shares.id", ">", after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy("interview_shares.created_at", "desc").orderBy("interview_shares.id").limit(page.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    interviewId: row.interview_id,
    answers: row.answers === 1,
    documents: row.documents === 1,
    files: row.files === 1,
    language: row.language,
    status: row.status,
    takenByName: row.taken_by_name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    interviewStatus: row.interview_status,
    issueId: row.issue_id,
    issueName: row.issue_name,
    countryId: row.country_id,
    countryName: row.country_name,
  }));
}
