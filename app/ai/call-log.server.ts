// The organisation's record of AI calls (migration 0015, docs/decisions/0032-grounded-ai-help.md): what each call
// was for and what it cost, never a person's text unless the organisation turns transcripts on.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database";
import { type Config, config } from "~/config.server";
import { database } from "~/db.server";
import { openText, sealText } from "~/security/data-encryption.server";
import type { SealedTextColumn } from "~/security/sealed-columns.server";
import { logger } from "~/observability/log.server";
import type { AiPurpose, ChatMessage } from "./chat.server";

const log = logger("ai");

export type { AiPurpose };

export interface AiCall {
  purpose: AiPurpose;
  issueId: number | null;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** How it ended: "answered", or why nothing was shown ("uncited", "malformed", "timeout", "failed"…). */
  outcome: string;
  /** The source passages the model was given. */
  passageIds?: number[];
  readingGrade?: number | null;
  /** What was sent (already redacted) and answered; kept only while AI_TRANSCRIPTS is on. */
  transcript?: { sent: ChatMessage[]; answer: string };
}

type LogSettings = Pick<Config, "AI_TRANSCRIPTS">;

const transcriptPlace = (id: string) => `ai_calls.transcript:${id}`;

/** The transcripts as `cli db rotate-key` seals them again. */
export const TRANSCRIPT_COLUMN: SealedTextColumn = { table: "ai_calls", column: "transcript", key: "id", place: transcriptPlace };

/** Records one call. A record that cannot be written is logged and never fails the person's request. */
export async function recordAiCall(call: AiCall, db: Db = database(), settings: LogSettings = config(), now = new Date()): Promise<void> {
  const id = randomUUID();
  try {
    await db
      .insertInto("ai_calls")
      .values({
        id,
        happened_at: now.toISOString(),
        purpose: call.purpose,
        issue_id: call.issueId,
        model: call.model.slice(0, 200),
        prompt_tokens: call.promptTokens,
        completion_tokens: call.completionTokens,
        outcome: call.outcome,
        passages: JSON.stringify(call.passageIds ?? []),
        reading_grade: call.readingGrade ?? null,
        transcript: settings.AI_TRANSCRIPTS && call.transcript ? sealText(JSON.stringify(call.transcript), transcriptPlace(id)) : null,
      })
      .execute();
  } catch (error) {
    log.error(`the record of a ${call.purpose} call could not be written`, { err: error });
  }
}

export interface AiCallView {
  id: string;
  happenedAt: string;
  purpose: string;
  issueId: number | null;
  issueName: string | null;
  model: string;
  promptTokens: number;
  completionTokens: number;
  outcome: string;
  passageIds: number[];
  readingGrade: number | null;
  transcript: { sent: ChatMessage[]; answer: string } | null;
}

export const AI_CALLS_PAGE_SIZE = 50;

/** One page of the record, newest first, with the issue's name; a page past the end shows the last page. */
export async function listAiCalls(requestedPage: number, db: Db = database()) {
  const { count } = await db
    .selectFrom("ai_calls")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / AI_CALLS_PAGE_SIZE));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const rows = await db
    .selectFrom("ai_calls")
    .leftJoin("issues", "issues.id", "ai_calls.issue_id")
    .selectAll("ai_calls")
    .select("issues.name as issue_name")
    .orderBy("ai_calls.happened_at", "desc")
    .orderBy("ai_calls.id")
    .limit(AI_CALLS_PAGE_SIZE)
    .offset((page - 1) * AI_CALLS_PAGE_SIZE)
    .execute();
  const calls: AiCallView[] = rows.map((row) => ({
    id: row.id,
    happenedAt: row.happened_at,
    purpose: row.purpose,
    issueId: row.issue_id,
    issueName: row.issue_name,
    model: row.model,
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    outcome: row.outcome,
    passageIds: parseIds(row.passages),
    readingGrade: row.reading_grade === null ? null : Number(row.reading_grade),
    transcript: row.transcript ? openTranscript(row.id, row.transcript) : null,
  }));
  return { calls, total, page, pageCount };
}

function parseIds(json: string): number[] {
  try {
    const ids: unknown = JSON.parse(json);
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === "number") : [];
  } catch {
    return [];
  }
}

function openTranscript(id: string, sealed: string) {
  try {
    return JSON.parse(openText(sealed, transcriptPlace(id))) as { sent: ChatMessage[]; answer: string };
  } catch {
    // Under a key that is gone, or changed: the record stays useful without it.
    return null;
  }
}

/**
 * Housekeeping: records older than AI_CALL_RETENTION_DAYS go; transcripts older than AI_TRANSCRIPT_RETENTION_DAYS
 * are emptied. Returns how many records were removed or emptied.
 */
export async function purgeOldAiCalls(
  db: Db,
  now: Date,
  settings: Pick<Config, "AI_CALL_RETENTION_DAYS" | "AI_TRANSCRIPT_RETENTION_DAYS"> = config(),
): Promise<number> {
  const before = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const removed = await db.deleteFrom("ai_calls").where("happened_at", "<", before(settings.AI_CALL_RETENTION_DAYS)).executeTakeFirst();
  const emptied = await db
    .updateTable("ai_calls")
    .set({ transcript: null })
    .where("transcript", "is not", null)
    .where("happened_at", "<", before(settings.AI_TRANSCRIPT_RETENTION_DAYS))
    .executeTakeFirst();
  return Number(removed.numDeletedRows) + Number(emptied.numUpdatedRows);
}
