import { writingSystem } from "./answer-language";
import { config } from "~/config.server";
import type { Issue } from "~/content/content.server";
import type { AiCall } from "./call-log.server";
import { type AiSettings, chatCompletion } from "./chat.server";
import { MAX_OUTPUT_CHARS, messages } from "./rephrase";
import { redactPersonalData, restorePersonalData } from "./redact";
import { logger } from "~/observability/log.server";

const log = logger("ai");

/** What the AI may write at most (about 4 characters a token); the answer is cut at MAX_OUTPUT_CHARS anyway. */
const MAX_TOKENS = 1500;
/** How much of the issue's description goes into the system message. */
const MAX_CONTEXT_CHARS = 3000;

/** What happened, and what the organisation's record of the call holds (no call was made when unavailable). */
export type RephraseResult = ({ ok: true; text: string } | { ok: false; reason: "unavailable" | "timeout" | "failed" | "other-language"; message: string }) & {
  call?: Omit<AiCall, "purpose" | "issueId">;
};

/** The system message: the issue's rephrase instructions, our rules, and the issue's description as background. */
export function systemMessage(issue: Pick<Issue, "name" | "content" | "rephraseContent">, redacted: boolean): string {
  const lines = [
    issue.rephraseContent.trim() || "You help a person describe their situation clearly and calmly for a legal form.",
    "Rewrite the person's text so that it is clear, calm and well organised. Write in the same language and from the same point of view (\"I\", \"my\"). Keep every fact, name, date and amount. Do not add facts, opinions or legal advice.",
    "Answer with the rewritten text only, as plain text: no heading, no introduction, no markdown and no HTML.",
  ];
  if (redacted) lines.push("Placeholders such as [EMAIL_1], [PHONE_1] or [ID_1] stand for personal details: keep each one exactly as written.");
  const background = issue.content.trim().slice(0, MAX_CONTEXT_CHARS);
  if (background) lines.push(`Background on the person's legal issue, "${issue.name}":\n${background}`);
  return lines.join("\n\n");
}

/**
 * Asks the AI for a clearer version of a person's text. Personal details are replaced by placeholders before the
 * text leaves and put back in the answer. Never throws.
 */
export async function rephraseText(
  text: string,
  issue: Pick<Issue, "name" | "content" | "modelAI" | "rephraseContent">,
  settings: AiSettings = config(),
): Promise<RephraseResult> {
  if (!settings.AI_BASE_URL) return { ok: false, reason: "unavailable", message: messages.unavailable };
  const redaction = settings.AI_REDACT_PERSONAL_DATA ? redactPersonalData(text) : { text, replaced: new Map<string, string>() };
  const sent = [
    { role: "system" as const, content: systemMessage(issue, settings.AI_REDACT_PERSONAL_DATA) },
    { role: "user" as const, content: redaction.text },
  ];
  const result = await chatCompletion({ purpose: "rephrase", messages: sent, model: issue.modelAI, maxTokens: MAX_TOKENS, temperature: 0.3 }, settings);
  if (!result.ok) {
    log.warn(`rephrase: ${result.reason}: ${result.detail}`);
    const call = { model: result.model, promptTokens: 0, completionTokens: 0, outcome: result.reason, transcript: { sent, answer: "" } };
    return { ok: false, reason: result.reason, message: messages[result.reason], call };
  }
  // "In the same language" is asked for, and checked: an answer in another writing system is not offered.
  const written = writingSystem(text);
  const answered = writingSystem(result.content);
  if (written && answered && written !== answered) {
    const call = { model: result.model, promptTokens: result.promptTokens, completionTokens: result.completionTokens, outcome: "other-language", transcript: { sent, answer: result.content } };
    return { ok: false, reason: "other-language", message: messages.otherLanguage, call };
  }
  const call = { model: result.model, promptTokens: result.promptTokens, completionTokens: result.completionTokens, outcome: "answered", transcript: { sent, answer: result.content } };
  return { ok: true, text: restorePersonalData(result.content.trim(), redaction.replaced).slice(0, MAX_OUTPUT_CHARS), call };
}
