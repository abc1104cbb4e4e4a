import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAiStandIn } from "../../tests/support/ai-stand-in";
import { explainSituation, noExplanationMessages } from "./understand.server";

const issue = { id: 6, name: "Rental bond disputes", modelAI: "gpt-4o-mini", countryName: "Australia" };
const passages = [
  { passageId: 31, sourceTitle: "Bond fact sheet", sourceUrl: "https://example.org/bond", text: "Your landlord must return your bond within 14 days unless they claim some of it. Keep your receipt." },
  { passageId: 32, sourceTitle: "Tribunal guide", sourceUrl: "https://example.org/tribunal", text: "If you disagree with a claim on the bond you can apply to the tribunal. It is free." },
];

let standIn: Awaited<ReturnType<typeof startAiStandIn>>;
const settings = (changes = {}) => ({
  AI_BASE_URL: `${standIn.url}/v1`,
  AI_API_KEY: "sk-test-key",
  AI_MODEL: undefined,
  AI_TIMEOUT_MS: 1000,
  AI_REDACT_PERSONAL_DATA: true,
  ...changes,
});

beforeAll(async () => {
  standIn = await startAiStandIn();
});
afterAll(async () => {
  await standIn.close();
});

describe("explainSituation", () => {
  it("explains from the passages, every statement citing one, and records the call without the question", async () => {
    const { explanation, calls } = await explainSituation({ question: "When must the landlord return my bond?", passages, issue }, settings());
    expect(explanation).toMatchObject({ ok: true, statements: [{ section: "situation", citations: [1] }, { section: "options", citations: [2] }] });
    expect(explanation.ok && explanation.statements[0]!.text).toBe("Your landlord must return your bond within 14 days unless they claim some of it.");
    expect(explanation.ok && explanation.readingGrade).toBeLessThan(9);
    expect(calls).toEqual([expect.objectContaining({ model: "gpt-4o-mini", outcome: "answered", passageIds: [31, 32], promptTokens: 1 })]);
  });

  it("sends no email, phone, identity number or name, and puts them back in what is shown", async () => {
    const before = standIn.requests.length;
    const question = "I am Ana Lim (ana@example.org, 0412 345 678, TFN 123 456 789). Must my landlord return my bond? Ana";
    await explainSituation({ question, passages, issue, personalNames: ["Ana", "Lim"] }, settings());
    const sent = JSON.stringify(standIn.requests.slice(before).map((request) => request.body.messages));
    for (const detail of ["ana@example.org", "0412 345 678", "123 456 789", "Ana", "Lim"]) expect(sent).not.toContain(detail);
    expect(sent).toContain("[EMAIL_1]");
    expect(sent).toContain("[NAME_1] [NAME_2]");
  });

  it("asks once for simpler words when the answer reads above grade 9, and keeps the simpler answer", async () => {
    const before = standIn.requests.length;
    const { explanation, calls } = await explainSituation({ question: "[[hard]] When is the bond returned?", passages, issue }, settings());
    expect(standIn.requests.length - before).toBe(2);
    expect(calls.map((call) => call.readingGrade! > 9)).toEqual([true, false]);
    expect(explanation.ok && explanation.statements[0]!.text).toContain("14 days");
  });

  it("shows no statement without a citation, nor one citing a passage it was not given, nor prose", async () => {
    for (const [marker, reason] of [["[[uncited]]", "uncited"], ["[[wrong-citation]]", "uncited"], ["[[not-json]]", "malformed"], ["[[nothing]]", "no-answer"]] as const) {
      const { explanation, calls } = await explainSituation({ question: `${marker} bond`, passages, issue }, settings());
      expect(explanation).toEqual({ ok: false, reason, message: noExplanationMessages[reason] });
      expect(calls[0]!.outcome).toBe(reason);
    }
  });

  it("says why when the AI fails, times out or is not configured, and calls nothing without passages", async () => {
    expect((await explainSituation({ question: "[[error]]", passages, issue }, settings())).explanation).toMatchObject({ ok: false, reason: "failed" });
    expect((await explainSituation({ question: "[[slow]]", passages, issue }, settings())).explanation).toMatchObject({ ok: false, reason: "timeout" });
    expect((await explainSituation({ question: "bond", passages, issue }, settings({ AI_BASE_URL: undefined }))).explanation).toMatchObject({ ok: false, reason: "unavailable" });
    const before = standIn.requests.length;
    expect(await explainSituation({ question: "bond", passages: [], issue }, settings())).toEqual({
      explanation: { ok: false, reason: "no-passages", message: noExplanationMessages["no-passages"] },
      calls: [],
    });
    expect(standIn.requests.length).toBe(before);
  });
});

describe("explainSituation in the person's language", () => {
  const french = [{ passageId: 41, sourceTitle: "Guide du dépôt", sourceUrl: "https://example.org/depot", language: "fr", text: "Le propriétaire doit rendre le dépôt dans les 14 jours. Gardez votre reçu." }];

  it("asks for the person's language, takes an answer in it, and measures no English reading grade", async () => {
    const before = standIn.requests.length;
    const { explanation, calls } = await explainSituation({ question: "Quand le propriétaire doit-il rendre le dépôt?", passages: french, issue, language: "fr" }, settings());
    expect(explanation).toMatchObject({ ok: true, readingGrade: null, statements: [{ text: "Le propriétaire doit rendre le dépôt dans les 14 jours." }] });
    expect(calls[0]).toMatchObject({ outcome: "answered", readingGrade: null });
    expect(standIn.requests.slice(before)[0]!.body.messages?.[0]?.content).toContain('Write every "text" in French (Canada)');
  });

  it("refuses an answer in another writing system, as it refuses an uncited one", async () => {
    const { explanation } = await explainSituation({ question: "When must the landlord return my bond?", passages, issue, language: "zh-Hans" }, settings());
    expect(explanation).toEqual({ ok: false, reason: "other-language", message: noExplanationMessages["other-language"] });
  });
});
