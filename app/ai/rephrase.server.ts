import { type Config, config } from "~/config.server";
import type { Issue } from "~/content/content.server";
import { MAX_OUTPUT_CHARS, messages } from "./rephrase";
import { redactPersonalData, restorePersonalData } from "./redact";

/** What the AI may write at most (about 4 characters a token); the answer is cut at MAX_OUTPUT_CHARS anyway. */
const MAX_TOKENS = 1500;
/** How much of the issue's description goes into the system message. */
const MAX_CONTEXT_CHARS = 3000;

export const DEFAULT_MODEL = "gpt-3.5-turbo";

export type RephraseResult = { ok: true; text: string } | { ok: false; reason: "unavailable" | "timeout" | "failed"; message: string };

type AiSettings = Pick<Config, "AI_BASE_URL" | "AI_API_KEY" | "AI_MODEL" | "AI_TIMEOUT_MS" | "AI_REDACT_PERSONAL_DATA">;

/** Whether an AI endpoint is configured at all. */
export function aiAvailable(settings: AiSettings = config()): boolean {
  return Boolean(settings.AI_BASE_URL);
}

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

/** The first choice's message content of a chat-completions answer, or null when it has none. */
function firstChoiceContent(body: unknown): string | null {
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  return typeof content === "string" && content.trim() ? content : null;
}

function failure(reason: "unavailable" | "timeout" | "failed", logged?: string): RephraseResult {
  if (logged) console.warn(`[ai] rephrase ${reason}: ${logged}`);
  return { ok: false, reason, message: messages[reason] };
}

/**
 * Asks an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM…) for a clearer version of a
 * person's text. The call is made here, on the server, so the key never reaches a browser. Personal details
 * are replaced by placeholders before the text leaves and put back in the answer. Never throws.
 */
export async function rephraseText(
  text: string,
  issue: Pick<Issue, "name" | "content" | "modelAI" | "rephraseContent">,
  settings: AiSettings = config(),
): Promise<RephraseResult> {
  if (!settings.AI_BASE_URL) return failure("unavailable");
  const redaction = settings.AI_REDACT_PERSONAL_DATA ? redactPersonalData(text) : { text, replaced: new Map<string, string>() };
  const endpoint = `${settings.AI_BASE_URL.replace(/\/+$/, "")}/chat/completions`;
  const model = settings.AI_MODEL || issue.modelAI || DEFAULT_MODEL;
  const signal = AbortSignal.timeout(settings.AI_TIMEOUT_MS);
  let body: unknown;
  try {
    const response = await fetch(endpoint, {
      method: "POST",
      signal,
      redirect: "error",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(settings.AI_API_KEY ? { authorization: `Bearer ${settings.AI_API_KEY}` } : {}),
      },
      body: JSON.stringify({
        model,
        messages: [
          { role: "system", content: systemMessage(issue, settings.AI_REDACT_PERSONAL_DATA) },
          { role: "user", content: redaction.text },
        ],
        max_tokens: MAX_TOKENS,
        temperature: 0.3,
        n: 1,
        stream: false,
      }),
    });
    const raw = await response.text();
    if (!response.ok) return failure("failed", `HTTP ${response.status} from ${endpoint} (model ${model}): ${raw.slice(0, 200)}`);
    try {
      body = JSON.parse(raw);
    } catch {
      return failure("failed", `a body that is not JSON from ${endpoint}: ${raw.slice(0, 200)}`);
    }
  } catch (error) {
    if (signal.aborted) return failure("timeout", `no answer from ${endpoint} within ${settings.AI_TIMEOUT_MS} ms`);
    return failure("failed", `${endpoint}: ${(error as Error).message}`);
  }
  const content = firstChoiceContent(body);
  if (content === null) return failure("failed", `no message content in the answer from ${endpoint}`);
  return { ok: true, text: restorePersonalData(content.trim(), redaction.replaced).slice(0, MAX_OUTPUT_CHARS) };
}
