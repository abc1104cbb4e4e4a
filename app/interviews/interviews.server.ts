import { randomUUID } from "node:crypto";
import { compiledOnce } from "../../db/compiled-query";
import type { Db } from "../../db/database";
import type { ExpressionBuilder } from "kysely";
import type { Database, InterviewStatus } from "../../db/schema";
import { type Answers, answersFromJSON, answersToANX, answersToJSON, daysFromDate, type Guide, type InterviewState, type TypedDraft } from "~/a2j";
import { mergeVariables } from "./variables";
import { database } from "~/db.server";
import { openText, sealText } from "~/security/data-encryption.server";
import { knownPageTokenKey, pageToken, pageTokenKey } from "~/usage/page-token.server";
import { CHECK_ANSWERS_PAGE } from "~/usage/usage";
import type { InterviewPage, PageSize } from "./list";
import { logger } from "~/observability/log.server";
import { queueLiveSharesEnded } from "~/webhooks/queue.server";

const log = logger("my data");

/** "Today" for the guide's scripts: the calendar day in UTC (the server does not know the person's zone). */
export function today(): number {
  return daysFromDate(new Date());
}

/**
 * An interview a helper prepared for someone who has not taken it yet (app/help/) is held by the helper's account
 * but is not theirs to list, resume from an issue or export: the person's, once they claim it. An uncorrelated
 * `not in` over the holder's few such rows: the list's index-only reads stay index-only.
 */
function notAwaitingClaim(userId: string) {
  return (eb: ExpressionBuilder<Database, "interviews">) =>
    eb(
      "interviews.id",
      "not in",
      eb.selectFrom("prepared_interviews").select("prepared_interviews.interview_id").where("prepared_interviews.helper_id", "=", userId).where("prepared_interviews.claimed_at", "is", null),
    );
}

/** One page of a user's interviews, newest first. A page past the end shows the last page. */
export async function listInterviews(
  userId: string,
  requested: { page: number; pageSize: PageSize },
  db: Db = database(),
): Promise<InterviewPage> {
  const { count } = await db
    .selectFrom("interviews")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("user_id", "=", userId)
    .where(notAwaitingClaim(userId))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / requested.pageSize));
  const page = Math.min(Math.max(1, requested.page), pageCount);
  // The page's ids come from the (user_id, updated_at, id) index alone, so skipping earlier pages reads no rows.
  const pageIds = db
    .selectFrom("interviews")
    .select("id")
    .where("user_id", "=", userId)
    .where(notAwaitingClaim(userId))
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(requested.pageSize)
    .offset((page - 1) * requested.pageSize);
  const rows = await db
    .selectFrom("interviews")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .select(["interviews.id", "interviews.issue_id", "interviews.status", "interviews.updated_at", "issues.name"])
    .where("interviews.id", "in", pageIds)
    .orderBy("interviews.updated_at", "desc")
    .orderBy("interviews.id", "desc")
    .execute();
  return {
    items: rows.map((row) => ({
      id: row.id,
      issueId: row.issue_id,
      issueName: row.name,
      status: row.status,
      updatedAt: row.updated_at,
    })),
    total,
    page,
    pageSize: requested.pageSize,
    pageCount,
  };
}

/** The id of the person's interview on an issue they last worked on, or null. */
export async function latestInterviewOnIssue(userId: string, issueId: number, db: Db = database()): Promise<string | null> {
  const row = await db
    .selectFrom("interviews")
    .select("id")
    .where("user_id", "=", userId)
    .where("issue_id", "=", issueId)
    .where(notAwaitingClaim(userId))
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A user's interview, or null: another user's id is the same as an unknown one. */
export async function findInterview(userId: string, id: string, db: Db = database()) {
  const row = await db
    .selectFrom("interviews")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .select(["interviews.id", "interviews.issue_id", "interviews.status", "interviews.updated_at", "interviews.language", "issues.name"])
    .where("interviews.id", "=", id)
    .where("interviews.user_id", "=", userId)
    .executeTakeFirst();
  return row
    ? { id: row.id, issueId: row.issue_id, issueName: row.name, status: row.status, updatedAt: row.updated_at, language: row.language }
    : null;
}

/** Deletes a user's interview; false when the user has no such interview (nothing changes). */
export async function deleteInterview(userId: string, id: string, db: Db = database()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // A share of it ends with it: share.ended is queued with the deletion (docs/decisions/0057-webhooks.md).
    const owned = await trx.selectFrom("interviews").select("id").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
    if (!owned) return false;
    await queueLiveSharesEnded(trx, [id]);
    const result = await trx.deleteFrom("interviews").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  });
}

/** A user's interview with the engine's state, or null (another user's id is the same as an unknown one). */
export async function loadInterview(userId: string, id: string, db: Db = database()) {
  const row = await db
    .selectFrom("interviews")
    .select(["id", "issue_id", "status", "vars", "engine_state", "guide_id", "guide_version", "language", "updated_at"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const guide = row.guide_id !== null && row.guide_version !== null ? { guideId: row.guide_id, version: row.guide_version } : null;
  return { id: row.id, issueId: row.issue_id, status: row.status, state: interviewState(row), guide, language: row.language, updatedAt: row.updated_at };
}

/** The columns that hold what the person answered: sealed (app/security/data-encryption.server.ts). */
export const SEALED_INTERVIEW_COLUMNS = ["vars", "engine_state"] as const;
export type SealedInterviewColumn = (typeof SEALED_INTERVIEW_COLUMNS)[number];

/** Where a sealed value lives: bound to it, so a value copied to another interview or column does not open. */
export const interviewPlace = (column: SealedInterviewColumn, id: string) => `interviews.${column}:${id}`;

/** An interview's answers (A2J JSON) and page history as they are stored: sealed, each bound to its place. */
export function sealInterviewColumns(id: string, plain: Record<SealedInterviewColumn, string>): Record<SealedInterviewColumn, string> {
  return {
    vars: sealText(plain.vars, interviewPlace("vars", id)),
    engine_state: sealText(plain.engine_state, interviewPlace("engine_state", id)),
  };
}

function interviewAnswers(row: { id: string; vars: string }): Answers {
  const answers = answersFromJSON(openText(row.vars, interviewPlace("vars", row.id)));
  return answers.ok ? answers.value : {};
}

/** The engine's state from an interview's stored columns. */
export function interviewState(row: { id: string; vars: string; engine_state: string }): InterviewState {
  const answers = interviewAnswers(row);
  const { history, review, typed } = JSON.parse(openText(row.engine_state, interviewPlace("engine_state", row.id))) as Partial<InterviewState>;
  const state: InterviewState = { answers, history: history ?? [] };
  if (review) state.review = review;
  if (typed) state.typed = typed;
  return state;
}

// Every page step saves: the update is compiled once.
const updateInterview = compiledOnce(
  (db, id: string, userId: string, status: InterviewStatus, vars: string, engineState: string, updatedAt: string, lastPage: string | null) =>
    db
      .updateTable("interviews")
      .set({ status, vars, engine_state: engineState, updated_at: updatedAt, last_page: lastPage })
      .where("id", "=", id)
      .where("user_id", "=", userId),
);


/** The page an interview is at: a guide page's name, or CHECK_ANSWERS_PAGE. */
export function currentPageName(state: InterviewState): string | null {
  if (state.review && !state.review.changing) return CHECK_ANSWERS_PAGE;
  return state.history.at(-1)?.interviewPage ?? null;
}

/**
 * `last_page`: the page an interview is at as a keyed hash (app/usage/page-token.server.ts), written with every
 * save, so that usage counts where people stop without opening any interview, and nobody reads it without the key.
 */
function lastPageColumn(state: InterviewState, key: Buffer): string | null {
  const page = currentPageName(state);
  return page === null ? null : pageToken(page, key);
}

/**
 * Saves an interview: created as Draft on its first save, updated afterwards. The answers are kept in A2J's
 * JSON form (ANX is built from them when asked for); the engine state keeps the page history and an open
 * "Check your answers".
 */
export async function saveInterview(
  interview: {
    id: string | null;
    userId: string;
    issueId: number;
    status: InterviewStatus;
    state: InterviewState;
    /** The guide version it runs, recorded when it is created and kept from then on. */
    guide?: { guideId: string; version: number } | null;
    /** The language it runs in (its guide's), recorded when it is created and kept from then on. */
    language?: string;
  },
  db: Db = database(),
): Promise<string> {
  const now = new Date().toISOString();
  const id = interview.id ?? randomUUID();
  const columns = {
    status: interview.status,
    ...sealInterviewColumns(id, {
      vars: JSON.stringify(answersToJSON(interview.state.answers)),
      engine_state: JSON.stringify({ history: interview.state.history, review: interview.state.review, typed: interview.state.typed }),
    }),
    updated_at: now,
    last_page: lastPageColumn(interview.state, knownPageTokenKey(db) ?? (await pageTokenKey(db))),
  };
  if (interview.id) {
    const { status, vars, engine_state, updated_at, last_page } = columns;
    const result = await updateInterview(db, id, interview.userId, status, vars, engine_state, updated_at, last_page);
    if (Number(result.numAffectedRows) !== 1) throw new Error(`Interview ${id} is not this user's`);
    return id;
  }
  await db
    .insertInto("interviews")
    .values({
      id,
      user_id: interview.userId,
      issue_id: interview.issueId,
      guide_id: interview.guide?.guideId ?? null,
      guide_version: interview.guide?.version ?? null,
      ...(interview.language ? { language: interview.language } : {}),
      created_at: now,
      ...columns,
    })
    .execute();
  return id;
}

/** A typed draft without the answers to these variables (their input names are the variables' keys). */
function withoutTyped(typed: TypedDraft, variables: string[]): TypedDraft {
  const names = new Set(variables.map((name) => name.trim().toLowerCase()));
  const keep = <T>(entries: Record<string, T>) => Object.fromEntries(Object.entries(entries).filter(([name]) => !names.has(name)));
  return { ...typed, values: keep(typed.values), ...(typed.dates ? { dates: keep(typed.dates) } : {}) };
}

/** The ANX answer file of a user's interview (the viewer's getDataUrl), titled with its guide's title. */
export async function interviewAnswersAnx(userId: string, id: string, db: Db = database()): Promise<string | null> {
  const row = await db
    .selectFrom("interviews")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .leftJoin("guides", "guides.id", "issues.guide_id")
    .leftJoin("guide_versions as pinned", (join) => join.onRef("pinned.guide_id", "=", "interviews.guide_id").onRef("pinned.version", "=", "interviews.guide_version"))
    .select(["interviews.id", "interviews.vars", (eb) => eb.fn.coalesce("pinned.title", "guides.title").as("title")])
    .where("interviews.id", "=", id)
    .where("interviews.user_id", "=", userId)
    .executeTakeFirst();
  return row ? answersToANX(interviewAnswers(row), row.title ?? "") : null;
}

/**
 * Merges variables into a user's interview and saves it (the AI rephrase step uses this); with `index`, into
 * that answer of a loop. The page history stays, so the interview resumes where it was.
 */
export async function mergeInterviewVariables(
  userId: string,
  id: string,
  variables: Record<string, unknown>,
  guide: Guide | undefined,
  db: Db = database(),
  index?: number,
): Promise<boolean> {
  const interview = await loadInterview(userId, id, db);
  if (!interview) return false;
  const answers = mergeVariables(interview.state.answers, variables, guide, index);
  // What the person typed before the detour gives way to what they chose there.
  const state: InterviewState = { ...interview.state, answers };
  if (state.typed) state.typed = withoutTyped(state.typed, Object.keys(variables));
  await saveInterview({ id, userId, issueId: interview.issueId, status: interview.status, state, guide: interview.guide }, db);
  return true;
}

export interface InterviewForExport {
  id: string;
  issueId: number;
  issueName: string;
  status: InterviewStatus;
  createdAt: string;
  updatedAt: string;
  /** The answers in A2J's JSON form and as an ANX answer file; null when the stored answers could not be opened. */
  answers: { json: Answers; anx: string } | null;
}

/**
 * Every interview of a person, oldest first, with its answers opened (for "Download my data"). One that does
 * not open (a key no longer configured) is still listed, without answers, so the export says so instead of failing.
 */
export async function interviewsForExport(userId: string, db: Db = database()): Promise<InterviewForExport[]> {
  const rows = await db
    .selectFrom("interviews")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .leftJoin("guides", "guides.id", "issues.guide_id")
    .leftJoin("guide_versions as pinned", (join) => join.onRef("pinned.guide_id", "=", "interviews.guide_id").onRef("pinned.version", "=", "interviews.guide_version"))
    .select([
      "interviews.id",
      "interviews.issue_id",
      "interviews.status",
      "interviews.vars",
      "interviews.created_at",
      "interviews.updated_at",
      "issues.name",
      (eb) => eb.fn.coalesce("pinned.title", "guides.title").as("title"),
    ])
    .where("interviews.user_id", "=", userId)
    .where(notAwaitingClaim(userId))
    .orderBy("interviews.created_at")
    .orderBy("interviews.id")
    .execute();
  return rows.map((row) => {
    let answers: InterviewForExport["answers"] = null;
    try {
      const json = interviewAnswers(row);
      answers = { json: answersToJSON(json), anx: answersToANX(json, row.title ?? "") };
    } catch (error) {
      log.error(`the answers of interview ${row.id} could not be opened`, { err: error });
    }
    return {
      id: row.id,
      issueId: row.issue_id,
      issueName: row.name,
      status: row.status,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      answers,
    };
  });
}

/** An interview's answers opened, with where and when they were given (for answers reused in a new interview). */
export interface GivenAnswers {
  interviewId: string;
  issueName: string;
  updatedAt: string;
  answers: Answers;
}

/**
 * The answers of a person's own interviews, the most recently changed first, at most `limit` of them (issue 29).
 * Only this person's: the query is by their id, and an interview a helper holds for someone else is not theirs.
 * One whose answers do not open (a key no longer configured) is left out.
 */
export async function givenAnswers(userId: string, limit = 50, db: Db = database()): Promise<GivenAnswers[]> {
  const rows = await db
    .selectFrom("interviews")
    .innerJoin("issues", "issues.id", "interviews.issue_id")
    .select(["interviews.id", "interviews.vars", "interviews.updated_at", "issues.name"])
    .where("interviews.user_id", "=", userId)
    .where(notAwaitingClaim(userId))
    .orderBy("interviews.updated_at", "desc")
    .orderBy("interviews.id", "desc")
    .limit(limit)
    .execute();
  const given: GivenAnswers[] = [];
  for (const row of rows) {
    try {
      given.push({ interviewId: row.id, issueName: row.name, updatedAt: row.updated_at, answers: interviewAnswers(row) });
    } catch (error) {
      log.error(`the answers of interview ${row.id} could not be opened`, { err: error });
    }
  }
  return given;
}
