import { messageRef } from "~/i18n/translator";
import { config } from "~/config.server";
import type { AiCall } from "./call-log.server";
import { type AiSettings, type ChatMessage, chatCompletion } from "./chat.server";
import { redactPersonalData, restorePersonalData } from "./redact";
import {
  checkAnswer,
  type GroundingPassage,
  readingGrade,
  SIMPLIFY_ABOVE_GRADE,
  type Statement,
  simplifyMessage,
  understandMessages,
} from "./understand";
import { answerLanguage, readingLevelApplies } from "./answer-language";
import { logger } from "~/observability/log.server";

const log = logger("ai");

const MAX_TOKENS = 1200;

/** Why no explanation is shown (the passages found are shown instead). */
export type NoExplanationReason = "unavailable" | "timeout" | "failed" | "malformed" | "uncited" | "other-language" | "no-answer" | "no-passages";

/** What the page says instead of an explanation: references to ai.understand.none.* (put into words by the page). */
export const noExplanationMessages: Record<NoExplanationReason, string> = {
  unavailable: messageRef("ai.understand.none.unavailable"),
  timeout: messageRef("ai.understand.none.timeout"),
  failed: messageRef("ai.understand.none.failed"),
  malformed: messageRef("ai.understand.none.malformed"),
  uncited: messageRef("ai.understand.none.uncited"),
  "other-language": messageRef("ai.understand.none.otherLanguage"),
  "no-answer": messageRef("ai.understand.none.noAnswer"),
  "no-passages": messageRef("ai.understand.none.noPassages"),
};

export type Explanation =
  | { ok: true; statements: Statement[]; readingGrade: number | null }
  | { ok: false; reason: NoExplanationReason; message: string };

export interface ExplainRequest {
  question: string;
  passages: readonly GroundingPassage[];
  issue: { id: number; name: string; modelAI: string; countryName: string };
  /** Words that identify the person (their own name), replaced like emails and phone numbers. */
  personalNames?: readonly string[];
  /** The person's language (a shipped language's tag): the explanation is written in it. English by default. */
  language?: string;
}

/** Statements' text as one plain text, each ending a sentence, for the readability measure. */
const asSentences = (statements: readonly Statement[]) => statements.map(({ text }) => (/[.!?]$/.test(text) ? text : `${text}.`)).join(" ");

/**
 * Asks the model to explain the person's situation from the passages found, and checks its answer: only
 * statements citing given passages are kept, an answer reading above grade 9 is asked once to be simpler (the
 * simpler one is kept if it still passes the checks). Personal details never leave redacted and are put back in what
 * is shown. Returns the explanation, or why there is none, with the record of every call made. Never throws.
 */
export async function explainSituation(
  request: ExplainRequest,
  settings: AiSettings = config(),
): Promise<{ explanation: Explanation; calls: Omit<AiCall, "purpose" | "issueId">[] }> {
  const none = (reason: NoExplanationReason): Explanation => ({ ok: false, reason, message: noExplanationMessages[reason] });
  if (!request.passages.length) return { explanation: none("no-passages"), calls: [] };
  if (!settings.AI_BASE_URL) return { explanation: none("unavailable"), calls: [] };
  const redaction = settings.AI_REDACT_PERSONAL_DATA
    ? redactPersonalData(request.question, request.personalNames)
    : { text: request.question, replaced: new Map<string, string>() };
  const passageIds = request.passages.map((passage) => passage.passageId);
  const language = answerLanguage(request.language);
  const calls: Omit<AiCall, "purpose" | "issueId">[] = [];
  let sent: ChatMessage[] = understandMessages(redaction.text, request.passages, {
    issueName: request.issue.name,
    countryName: request.issue.countryName,
    redacted: settings.AI_REDACT_PERSONAL_DATA,
    language,
  });

  let best: { statements: Statement[]; grade: number | null } | null = null;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const result = await chatCompletion({ purpose: "understand", messages: sent, model: request.issue.modelAI, maxTokens: MAX_TOKENS, temperature: 0.2 }, settings);
    if (!result.ok) {
      log.warn(`understand: ${result.reason}: ${result.detail}`);
      calls.push({ model: result.model, promptTokens: 0, completionTokens: 0, outcome: result.reason, passageIds, transcript: { sent, answer: "" } });
      break;
    }
    const checked = checkAnswer(result.content, request.passages.length, language);
    // The reading-level formula is English's: in another language no grade is measured, and none asked of.
    const grade = checked.ok && readingLevelApplies(language) ? readingGrade(asSentences(checked.statements)) : null;
    calls.push({
      model: result.model,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      outcome: checked.ok ? (checked.dropped ? `answered, ${checked.dropped} uncited dropped` : "answered") : checked.reason,
      passageIds,
      readingGrade: grade,
      transcript: { sent, answer: result.content },
    });
    if (!checked.ok) {
      if (best) break;
      return { explanation: none(checked.reason), calls };
    }
    if (!best || (grade ?? 0) < (best.grade ?? Infinity)) best = { statements: checked.statements, grade };
    if (grade === null || grade <= SIMPLIFY_ABOVE_GRADE) break;
    sent = [...sent, { role: "assistant", content: result.content }, simplifyMessage(grade)];
  }
  if (!best) {
    const reason = calls.at(-1)?.outcome === "timeout" ? "timeout" : "failed";
    return { explanation: none(reason), calls };
  }
  const statements = best.statements.map((statement) => ({ ...statement, text: restorePersonalData(statement.text, redaction.replaced) }));
  return { explanation: { ok: true, statements, readingGrade: best.grade }, calls };
}
