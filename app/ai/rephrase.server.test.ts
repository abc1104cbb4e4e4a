import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, defaultReply, startAiStandIn } from "../../tests/support/ai-stand-in";
import { metricValue } from "../../tests/support/metrics";
import { MAX_OUTPUT_CHARS, messages } from "./rephrase";
import { rephraseText, systemMessage } from "./rephrase.server";

const issue = {
  name: "Getting your rental bond back",
  content: "## What this is about\nYour landlord kept your bond.",
  modelAI: "gpt-4o-mini",
  rephraseContent: "You help a tenant explain a rental bond dispute politely.",
};

let standIn: Awaited<ReturnType<typeof startAiStandIn>>;
const settings = () => ({
  AI_BASE_URL: `${standIn.url}/v1/`,
  AI_API_KEY: "sk-test-key",
  AI_MODEL: undefined,
  AI_TIMEOUT_MS: 1000,
  AI_REDACT_PERSONAL_DATA: true,
});

beforeAll(async () => {
  standIn = await startAiStandIn({
    reply: (request) => {
      const text = request.body.messages?.find((m) => m.role === "user")?.content ?? "";
      if (text.includes("[[long]]")) return completion("x".repeat(MAX_OUTPUT_CHARS + 500));
      if (text.includes("[[placeholders]]")) return completion("You can reach me at [EMAIL_1] or [PHONE_1].");
      if (text.includes("[[chinese]]")) return completion("我的房东扣留了押金，我要求退还。");
      return defaultReply(request);
    },
  });
});
afterAll(async () => {
  await standIn.close();
});

describe("rephraseText", () => {
  it("sends one chat-completions request with the issue's model, a system message and the text, and reads the first choice", async () => {
    const before = standIn.requests.length;
    const result = await rephraseText("My landlord kept the bond.", issue, settings());
    expect(result).toMatchObject({ ok: true, text: "A clearer version: My landlord kept the bond." });
    // What the organisation's record of the call would hold: the model, the tokens the answer reported.
    expect(result.call).toMatchObject({ model: "gpt-4o-mini", promptTokens: 1, completionTokens: 1, outcome: "answered" });
    const sent = standIn.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe("/v1/chat/completions");
    expect(sent[0]!.headers.authorization).toBe("Bearer sk-test-key");
    expect(sent[0]!.body.model).toBe("gpt-4o-mini");
    expect(sent[0]!.body.max_tokens).toBeGreaterThan(0);
    const [system, user] = sent[0]!.body.messages!;
    expect(system!.role).toBe("system");
    expect(system!.content).toContain(issue.rephraseContent);
    expect(system!.content).toContain("Your landlord kept your bond.");
    expect(user).toEqual({ role: "user", content: "My landlord kept the bond." });
  });

  it("uses AI_MODEL over the issue's model, the spec's default without either, and sends no key when none is set", async () => {
    await rephraseText("One.", issue, { ...settings(), AI_MODEL: "llama3.1" });
    expect(standIn.requests.at(-1)!.body.model).toBe("llama3.1");
    await rephraseText("Two.", { ...issue, modelAI: "" }, { ...settings(), AI_API_KEY: undefined });
    expect(standIn.requests.at(-1)!.body.model).toBe("gpt-3.5-turbo");
    expect(standIn.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it("sends no personal details when redaction is on, and puts them back in the answer", async () => {
    const text = "[[placeholders]] Email me at ana@example.org or call 0412 345 678. My NRIC is S1234567D.";
    const result = await rephraseText(text, issue, settings());
    const sent = JSON.stringify(standIn.requests.at(-1)!.body);
    for (const detail of ["ana@example.org", "0412 345 678", "S1234567D"]) expect(sent).not.toContain(detail);
    expect(sent).toContain("[EMAIL_1]");
    expect(result).toMatchObject({ ok: true, text: "You can reach me at ana@example.org or 0412 345 678." });
  });

  it("sends the text as it is when redaction is turned off", async () => {
    await rephraseText("Email ana@example.org", issue, { ...settings(), AI_REDACT_PERSONAL_DATA: false });
    expect(standIn.requests.at(-1)!.body.messages!.at(-1)!.content).toBe("Email ana@example.org");
    expect(standIn.requests.at(-1)!.body.messages![0]!.content).not.toContain("[EMAIL_1]");
  });

  it("gives a clear message for a time-out, a 500, a refusal, a body that is not JSON and an answer without a choice; the metrics count each call by outcome", async () => {
    const calls = async (): Promise<Record<string, number>> =>
      Object.fromEntries(await Promise.all(["ok", "timeout", "error", "refused"].map(async (outcome) => [outcome, await metricValue("ai_call_duration_seconds", { purpose: "rephrase", outcome })] as const)));
    const before = await calls();
    expect(await rephraseText("[[slow]]", issue, settings())).toMatchObject({ ok: false, reason: "timeout", message: messages.timeout });
    expect(await rephraseText("[[error]]", issue, settings())).toMatchObject({ ok: false, reason: "failed", message: messages.failed });
    expect(await rephraseText("[[refused]]", issue, settings())).toMatchObject({ ok: false, reason: "failed", message: messages.failed });
    expect(await rephraseText("[[malformed]]", issue, settings())).toMatchObject({ ok: false, reason: "failed", message: messages.failed });
    expect(await rephraseText("[[empty]]", issue, settings())).toMatchObject({ ok: false, reason: "failed", message: messages.failed });
    expect(await rephraseText("Fine.", issue, settings())).toMatchObject({ ok: true });
    const after = await calls();
    expect(Object.fromEntries(Object.entries(after).map(([outcome, count]) => [outcome, count - before[outcome]!]))).toEqual({ ok: 1, timeout: 1, error: 3, refused: 1 });
  });

  it("gives a clear message when nothing listens at the address", async () => {
    const result = await rephraseText("Hello", issue, { ...settings(), AI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(result).toMatchObject({ ok: false, reason: "failed", message: messages.failed });
  });

  it("says the feature is unavailable, and calls nothing, without an AI endpoint", async () => {
    const before = standIn.requests.length;
    expect(await rephraseText("Hello", issue, { ...settings(), AI_BASE_URL: undefined })).toMatchObject({
      ok: false,
      reason: "unavailable",
      message: messages.unavailable,
    });
    expect(standIn.requests.length).toBe(before);
  });

  it("caps the answer's length", async () => {
    const result = await rephraseText("[[long]]", issue, settings());
    expect(result.ok && result.text.length).toBe(MAX_OUTPUT_CHARS);
  });
});

describe("systemMessage", () => {
  it("asks for plain text and mentions placeholders only when the text was redacted", () => {
    expect(systemMessage(issue, true)).toContain("[EMAIL_1]");
    expect(systemMessage(issue, false)).not.toContain("[EMAIL_1]");
    expect(systemMessage(issue, false)).toContain("plain text");
  });
});

describe("rephraseText in the person's language", () => {
  it("offers an answer in the same writing system as the text, and refuses one in another", async () => {
    const refused = await rephraseText("[[chinese]] My landlord kept the bond and I want it back.", issue, settings());
    expect(refused).toMatchObject({ ok: false, reason: "other-language", message: messages.otherLanguage, call: { outcome: "other-language" } });
    const chinese = await rephraseText("我的房东扣留了押金。[[chinese]]", issue, settings());
    expect(chinese).toMatchObject({ ok: true, text: "我的房东扣留了押金，我要求退还。" });
  });
});
