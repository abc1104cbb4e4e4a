import { type Config, config } from "~/config.server";
import { type AiCallOutcome, observeAiCall } from "~/observability/metrics.server";

/** The settings every AI call reads (the OpenAI-compatible endpoint of README, "AI"). */
export type AiSettings = Pick<Config, "AI_BASE_URL" | "AI_API_KEY" | "AI_MODEL" | "AI_TIMEOUT_MS" | "AI_REDACT_PERSONAL_DATA">;

export const DEFAULT_MODEL = "gpt-3.5-turbo";

/** Whether an AI endpoint is configured at all. */
export function aiAvailable(settings: AiSettings = config()): boolean {
  return Boolean(settings.AI_BASE_URL);
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What a call is for: each has its own screen (README, "AI"). */
export type AiPurpose = "rephrase" | "understand" | "document";

export interface ChatRequest {
  purpose: AiPurpose;
  messages: ChatMessage[];
  /** The model; AI_MODEL, when set, wins (one endpoint, one model for the whole service). */
  model: string;
  maxTokens: number;
  temperature: number;
}

export type ChatFailureReason = "unavailable" | "timeout" | "failed";

export type ChatResult =
  | { ok: true; content: string; model: string; promptTokens: number; completionTokens: number }
  | { ok: false; reason: ChatFailureReason; model: string; detail: string };

/** The first choice's message content of a chat-completions answer, or null when it has none. */
function firstChoiceContent(body: unknown): string | null {
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  return typeof content === "string" && content.trim() ? content : null;
}

function tokenCount(body: unknown, key: "prompt_tokens" | "completion_tokens"): number {
  const value = (body as { usage?: Record<string, unknown> } | null)?.usage?.[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/**
 * One call to an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM…), made on the server so the
 * key never reaches a browser. Never throws: a failure says why (`detail` is for the log, not for people).
 */
export async function chatCompletion(request: ChatRequest, settings: AiSettings = config()): Promise<ChatResult> {
  const model = settings.AI_MODEL || request.model || DEFAULT_MODEL;
  if (!settings.AI_BASE_URL) return { ok: false, reason: "unavailable", model, detail: "no AI_BASE_URL" };
  const endpoint = `${settings.AI_BASE_URL.replace(/\/+$/, "")}/chat/completions`;
  const signal = AbortSignal.timeout(settings.AI_TIMEOUT_MS);
  const started = performance.now();
  const observe = (outcome: AiCallOutcome) => observeAiCall(request.purpose, outcome, (performance.now() - started) / 1000);
  const fail = (reason: ChatFailureReason, detail: string, outcome: AiCallOutcome = reason === "timeout" ? "timeout" : "error"): ChatResult => {
    observe(outcome);
    return { ok: false, reason, model, detail };
  };
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
        messages: request.messages,
        max_tokens: request.maxTokens,
        temperature: request.temperature,
        n: 1,
        stream: false,
      }),
    });
    const raw = await response.text();
    // The endpoint's own words on a refusal (a bad key, a quota, a model it lacks) are what an operator needs.
    if (!response.ok) return fail("failed", `HTTP ${response.status} from ${endpoint} (model ${model}): ${raw.slice(0, 200)}`, response.status < 500 ? "refused" : "error");
    try {
      body = JSON.parse(raw);
    } catch {
      // Not quoted: a body that is not JSON may be the answer itself, with what the person wrote.
      return fail("failed", `a body that is not JSON (${raw.length} characters) from ${endpoint}`);
    }
  } catch (error) {
    if (signal.aborted) return fail("timeout", `no answer from ${endpoint} within ${settings.AI_TIMEOUT_MS} ms`);
    return fail("failed", `${endpoint}: ${(error as Error).message}`);
  }
  const content = firstChoiceContent(body);
  if (content === null) return fail("failed", `no message content in the answer from ${endpoint}`);
  observe("ok");
  return { ok: true, content, model, promptTokens: tokenCount(body, "prompt_tokens"), completionTokens: tokenCount(body, "completion_tokens") };
}
