import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { startAiStandIn } from "../../tests/support/ai-stand-in";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { importSeedSources } from "~/sources/seed.server";
import { evaluateUnderstanding, evaluationSetSchema } from "./evaluation.server";

// The written questions of `npm run eval:ai`, against the stand-in: it cites the passages sharing most words with the
// question, so this measures the search and the checks, not a model.
const { questions } = evaluationSetSchema.parse(JSON.parse(readFileSync("eval/ai-questions.json", "utf8")));

let standIn: Awaited<ReturnType<typeof startAiStandIn>>;
beforeAll(async () => {
  standIn = await startAiStandIn();
});
afterAll(async () => {
  await standIn.close();
});

describe.each(dialects)("the evaluation questions on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedSources("db/seed", { onlyIfNone: false }, handle.db);
  });
  afterAll(async () => handle.drop());

  it("cite the expected passages, refuse where the seed sources say nothing, and read at a plain level", async () => {
    const settings = { AI_BASE_URL: `${standIn.url}/v1`, AI_API_KEY: undefined, AI_MODEL: undefined, AI_TIMEOUT_MS: 2000, AI_REDACT_PERSONAL_DATA: true };
    const summary = await evaluateUnderstanding(questions, handle.db, settings);
    const percent = (value: number | null) => (value === null ? "n/a" : `${Math.round(value * 100)} %`);
    for (const [language, figures] of Object.entries(summary.byLanguage)) {
      console.info(
        `[evaluation ${dialect}] ${language}: ${figures.questions} questions, citation precision ${percent(figures.citationPrecision)}, ` +
          `answered with an expected source ${percent(figures.answeredWithRightSource)}, refused without sources ${percent(figures.refusedWithoutSources)}`,
      );
    }
    for (const result of summary.results.filter((r) => !r.rightOutcome)) console.info(`[evaluation ${dialect}] MISS ${result.question.question} (${result.outcome}; cited ${result.cited.join("; ")})`);
    expect(summary.refusedWithoutSources).toBe(1);
    // The stand-in picks passages by shared words, so it misses where the words differ ("how long" for "time limit").
    expect(summary.answeredWithRightSource).toBeGreaterThanOrEqual(0.8);
    expect(summary.citationPrecision).toBeGreaterThanOrEqual(0.5);
    expect(summary.medianReadingGrade).toBeLessThanOrEqual(12);
    // In French and in Chinese (issue 27): the question's language's sources are found, the answer is written in it
    // (an answer in another writing system would be refused), and a question they do not answer is refused.
    expect(Object.keys(summary.byLanguage)).toEqual(["en", "fr", "zh-Hans"]);
    for (const language of ["fr", "zh-Hans"]) {
      const figures = summary.byLanguage[language]!;
      expect(figures.questions).toBeGreaterThanOrEqual(5);
      expect(figures.refusedWithoutSources).toBe(1);
      expect(figures.answeredWithRightSource).toBeGreaterThanOrEqual(0.75);
      expect(figures.citationPrecision).toBeGreaterThanOrEqual(0.5);
      // No reading grade is measured outside English (the formula is English's).
      expect(figures.medianReadingGrade).toBeNull();
    }
    // Every citation is a passage that was found for the question (its heading is known).
    for (const result of summary.results) expect(result.cited.every((heading) => heading !== "")).toBe(true);
  });
});
