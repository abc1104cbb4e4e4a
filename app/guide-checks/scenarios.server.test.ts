import { describe, expect, it } from "vitest";
import { loadGuideObject, replayAnswers } from "~/a2j";
import { LETTER_ANSWERS_ANX, LETTER_ANSWERS_JSON, scenarioGuide, scenarioGuideFiles } from "../../tests/support/guide-fixtures";
import { checkGuideHealth, explorationSummary, templateFindings } from "./health.server";
import { describeExpectation, parseExpectations, readAnswerFile, runScenario } from "./scenarios.server";

// Test scenarios and the health check on files alone (no database): the guide written for them in
// tests/support/guide-fixtures.ts, whose letter's last line differs between versions.

const TODAY = 20_400;

function material(letterLine: string, problems = false) {
  const loaded = loadGuideObject(scenarioGuide("Scenario guide", letterLine, problems));
  if (!loaded.ok) throw new Error(loaded.error);
  const files = new Map(Object.entries(scenarioGuideFiles("Scenario guide", letterLine, problems)));
  return { guide: loaded.guide, files, readFile: async (path: string) => files.get(path) ?? null };
}

describe("expectations", () => {
  it("reads one a line, skipping blanks and comments, and says which line is wrong", () => {
    expect(parseExpectations("# the letter\npage: Letter\noutcome: assemble-success\n\ndocument contains: within 14 days\nvariable: [First name TE] = Ada")).toEqual({
      ok: true,
      expectations: [
        { kind: "page", page: "Letter" },
        { kind: "outcome", outcome: "ASSEMBLE-SUCCESS" },
        { kind: "document", text: "within 14 days" },
        { kind: "variable", name: "First name TE", value: "Ada" },
      ],
    });
    const wrong = parseExpectations("page: Letter\nends well\nvariable: Name");
    expect(wrong).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^Line 2: "ends well" is not an expectation\. Write one of: page: /), 'Line 3: a variable\'s expectation is "variable: <name> = <value>".'],
    });
    expect(parseExpectations("# nothing\n")).toEqual({ ok: false, errors: ["Write at least one expectation: what must hold at the end of the scenario."] });
    expect(describeExpectation({ kind: "document", text: "x" })).toBe('A document contains "x"');
  });

  it("reads ANX and JSON answer files, and says when a file is neither", () => {
    expect(readAnswerFile(LETTER_ANSWERS_ANX)).toMatchObject({ ok: true, format: "anx" });
    expect(readAnswerFile(LETTER_ANSWERS_JSON)).toMatchObject({ ok: true, format: "json" });
    expect(readAnswerFile("name,amount\nAda,250")).toMatchObject({ ok: false, message: expect.stringContaining("neither ANX nor A2J JSON answers") });
  });
});

describe("a scenario run", () => {
  const expectations = parseExpectations("page: Letter\noutcome: ASSEMBLE-SUCCESS\ndocument contains: Please pay within 14 days.\nvariable: Amount NU = 250");
  if (!expectations.ok) throw new Error("bad expectations");

  it("replays the answers page by page to the ending, and checks the document's text", async () => {
    const v1 = material("Please pay within 14 days.");
    const answers = readAnswerFile(LETTER_ANSWERS_JSON, v1.guide);
    if (!answers.ok) throw new Error(answers.message);
    const result = await runScenario(v1.guide, v1.readFile, answers.answers, expectations.expectations, TODAY);
    expect(result).toMatchObject({ passed: true, outcome: "ASSEMBLE-SUCCESS", pages: 2, stoppedAt: null, documentsError: null });
    expect(result.documents).toEqual([{ templateId: 1, title: "Letter of demand", text: "Dear Sir or Madam,\nI, Ada, ask you to pay 250 dollars.\nPlease pay within 14 days." }]);
  });

  it("fails on a version whose document says otherwise, and says what it found", async () => {
    const v2 = material("Please pay within 7 days.");
    const answers = readAnswerFile(LETTER_ANSWERS_JSON, v2.guide);
    if (!answers.ok) throw new Error(answers.message);
    const result = await runScenario(v2.guide, v2.readFile, answers.answers, expectations.expectations, TODAY);
    expect(result.passed).toBe(false);
    expect(result.checks.filter((c) => !c.passed)).toEqual([{ expectation: 'A document contains "Please pay within 14 days."', passed: false, found: "no document contains this text" }]);
  });

  it("stops where the answers are refused, naming the page and the question", async () => {
    const v1 = material("x");
    const answers = readAnswerFile(LETTER_ANSWERS_JSON.replace("250", "0"), v1.guide);
    if (!answers.ok) throw new Error(answers.message);
    const replay = replayAnswers(v1.guide, answers.answers, TODAY);
    expect(replay).toMatchObject({ outcome: null, visited: ["Your name", "Letter"], stopped: { page: "Letter", reason: "The answers were refused at [Amount NU]: Please enter a number of at least 1." } });
    const result = await runScenario(v1.guide, v1.readFile, answers.answers, expectations.expectations, TODAY);
    expect(result.checks[1]).toEqual({ expectation: "Ends with ASSEMBLE-SUCCESS", passed: false, found: 'it stopped at "Letter": The answers were refused at [Amount NU]: Please enter a number of at least 1.' });
  });
});

describe("the health check with the guide's files", () => {
  it("finds the dead end and the missing list, each on its page, and says how much it explored", async () => {
    const v1 = material("x", true);
    const report = await checkGuideHealth(v1.guide, v1.files, { today: TODAY });
    const errors = report.findings.filter((f) => f.severity === "error").map((f) => [f.kind, f.page]);
    expect(errors).toEqual([
      ["no-choices", "Advice"],
      ["dead-end", "Opening hours"],
    ]);
    expect(report).toMatchObject({ pagesReached: 4, pagesTotal: 4, complete: true, stoppedBy: null, outcomes: ["ASSEMBLE-SUCCESS"] });
    expect(explorationSummary(report)).toMatch(/^4 of 4 pages reached, \d+ states, \d+\.\d\d seconds: every path the check could take was explored\.$/);
  });

  it("says when it ran out of time", async () => {
    const v1 = material("x", true);
    const report = await checkGuideHealth(v1.guide, v1.files, { today: TODAY, seconds: 0 });
    expect(report).toMatchObject({ complete: false, stoppedBy: "time" });
    expect(explorationSummary(report)).toContain("the check ran out of time, so this is a partial check");
  });

  it("does not name signature places and their dates: people fill them by signing (the demo guides)", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    for (const id of ["letter-of-demand", "tenancy-deposit"]) {
      const dir = `db/seed/guides/${id}`;
      const files = new Map(readdirSync(dir).map((name) => [name, new Uint8Array(readFileSync(`${dir}/${name}`))]));
      const loaded = loadGuideObject(JSON.parse(readFileSync(`${dir}/Guide.json`, "utf8")));
      if (!loaded.ok) throw new Error(loaded.error);
      expect(templateFindings(loaded.guide, files).map((f) => f.message).join("\n")).not.toMatch(/signature/i);
    }
  });

  it("names the variables a template prints that no page sets", () => {
    const v1 = material("Signed: <a2j-variable name=\"Signature TE\"></a2j-variable>");
    expect(templateFindings(v1.guide, v1.files)).toEqual([
      {
        kind: "template-variable",
        severity: "warning",
        page: null,
        where: 'template 1 ("Letter of demand")',
        message: "The document uses [Signature TE], which no page sets: it prints blank.",
      },
    ]);
  });
});
