import { readingLevelApplies, writtenIn } from "./answer-language";
import { describe, expect, it } from "vitest";
import { answersAsQuestion, checkAnswer, readingGrade, understandMessages } from "./understand";

const passages = [
  { passageId: 11, sourceTitle: "Bond fact sheet", sourceUrl: "https://example.org/bond", heading: "Getting it back", text: "Your landlord must return the bond within 14 days." },
  { passageId: 12, sourceTitle: "Tribunal guide", sourceUrl: "https://example.org/tribunal", text: "You can apply to the tribunal if the landlord keeps it." },
];

describe("understandMessages", () => {
  it("numbers the passages with their source and heading, and asks for cited JSON", () => {
    const [system, user] = understandMessages("Can I get my bond back?", passages, { issueName: "Rental bond", countryName: "Australia", redacted: true });
    expect(system!.content).toContain('"sources"');
    expect(system!.content).toContain("[NAME_1]");
    expect(user!.content).toContain("The person's question:\nCan I get my bond back?");
    expect(user!.content).toContain("[1] Bond fact sheet: Getting it back\nYour landlord must return the bond within 14 days.");
    expect(user!.content).toContain("[2] Tribunal guide\nYou can apply");
  });
});

describe("checkAnswer", () => {
  it("keeps statements that cite given passages, in a fence or not, and drops the uncited and the out of range", () => {
    const answer = {
      situation: [
        { text: "The landlord has 14 days.", sources: [1] },
        { text: "Nothing supports this.", sources: [] },
        { text: "A passage that was never given.", sources: [7] },
      ],
      options: [{ text: "  You can   apply to the tribunal. ", citations: ["2", "[1]", 2] }],
    };
    const checked = checkAnswer("Here you are:\n```json\n" + JSON.stringify(answer) + "\n```", 2);
    expect(checked).toEqual({
      ok: true,
      dropped: 2,
      statements: [
        { section: "situation", text: "The landlord has 14 days.", citations: [1] },
        { section: "options", text: "You can apply to the tribunal.", citations: [1, 2] },
      ],
    });
  });

  it("refuses prose, a wrong shape, an answer whose every statement is uncited, and says when nothing answers", () => {
    expect(checkAnswer("You should see a lawyer.", 2)).toMatchObject({ ok: false, reason: "malformed" });
    expect(checkAnswer('{"situation": "text"}', 2)).toMatchObject({ ok: false, reason: "malformed" });
    expect(checkAnswer('{"situation":[{"text":"x","sources":["a", 0, 3, 1.5]}]}', 2)).toMatchObject({ ok: false, reason: "uncited", dropped: 1 });
    expect(checkAnswer('{"situation":[],"options":[]}', 2)).toMatchObject({ ok: false, reason: "no-answer" });
  });
});

describe("readingGrade", () => {
  it("reads plain words low and long words high", () => {
    expect(readingGrade("You can ask for your bond back. The landlord has two weeks to pay.")!).toBeLessThan(6);
    expect(
      readingGrade("Notwithstanding contemporaneous jurisprudential considerations, administrative determinations necessitate comprehensive documentation.")!,
    ).toBeGreaterThan(12);
    expect(readingGrade("")).toBeNull();
  });
});

describe("answersAsQuestion", () => {
  it("writes the answers given as lines, leaving out empty answers and files", () => {
    const answers = {
      "issue te": { name: "Issue TE", type: "Text" as const, repeating: false, values: [null, "The landlord kept my bond."] },
      "amount nu": { name: "Amount NU", type: "Number" as const, repeating: false, values: [null, 1200] },
      "children": { name: "Children", type: "Text" as const, repeating: true, values: [null, "Sam", "", "Alex"] },
      "empty te": { name: "Empty TE", type: "Text" as const, repeating: false, values: [null, ""] },
      "evidence": { name: "Evidence", type: "Text" as const, repeating: false, values: [null, "attachments/0b1c.pdf"] },
    };
    expect(answersAsQuestion(answers)).toBe("Issue TE: The landlord kept my bond.\nAmount NU: 1200\nChildren: Sam; Alex");
  });
});

describe("the person's language", () => {
  it("tells the model the language to write in", () => {
    const [system] = understandMessages("Question", [], { issueName: "Loyer", countryName: "Canada", redacted: false, language: "fr" });
    expect(system!.content).toContain('Write every "text" in French (Canada): it is the person\'s language.');
    expect(understandMessages("Q", [], { issueName: "x", countryName: "y", redacted: false })[0]!.content).toContain('Write every "text" in English.');
  });

  it("drops statements in another writing system, and refuses an answer with only those", () => {
    const answer = (texts: string[]) => JSON.stringify({ situation: texts.map((text) => ({ text, sources: [1] })), options: [] });
    expect(checkAnswer(answer(["您的房东必须在14天内退还押金。", "Your landlord must return the bond."]), 1, "zh-Hans")).toEqual({
      ok: true,
      statements: [{ section: "situation", text: "您的房东必须在14天内退还押金。", citations: [1] }],
      dropped: 1,
    });
    expect(checkAnswer(answer(["Your landlord must return the bond."]), 1, "ta")).toEqual({ ok: false, reason: "other-language", dropped: 1 });
    expect(checkAnswer(answer(["يجب على المالك إعادة التأمين خلال 14 يومًا."]), 1, "ar")).toMatchObject({ ok: true });
    // A Latin-letter language is judged by its letters only: names of laws inside a Chinese sentence are fine.
    expect(writtenIn("You can apply to the tribunal under the Residential Tenancies Act，您可以。", "zh-Hans")).toBe(false);
    expect(writtenIn("根据 Residential Tenancies Act，您可以申请。", "zh-Hans")).toBe(true);
    expect(writtenIn("根据《住宅租赁法》Residential Tenancies Act 第14条，房东必须退还押金并说明理由。", "zh-Hans")).toBe(true);
    expect(writtenIn("[EMAIL_1] [NAME_1] 可以申请。", "zh-Hans")).toBe(true);
    expect(writtenIn("Votre propriétaire doit rendre le dépôt.", "fr")).toBe(true);
  });

  it("measures the reading level in English only", () => {
    expect(readingLevelApplies("en")).toBe(true);
    for (const language of ["fr", "zh-Hans", "ar"]) expect(readingLevelApplies(language)).toBe(false);
  });
});
