// npm run eval:ai: "Understand my situation" on the written questions of eval/ai-questions.json, against the AI endpoint
// configured in the environment (AI_BASE_URL, AI_API_KEY, AI_MODEL), on a fresh database holding the seed content and
// sources (SEED_DIR, db/seed by default). Prints each question's outcome, then citation precision and readability.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase } from "../db/seed";
import { evaluateUnderstanding, evaluationSetSchema } from "~/ai/evaluation.server";
import { config } from "~/config.server";
import { importSeedSources } from "~/sources/seed.server";

const settings = config();
if (!settings.AI_BASE_URL) {
  console.error("npm run eval:ai needs an AI endpoint: set AI_BASE_URL (and AI_API_KEY, AI_MODEL as your endpoint needs).");
  process.exit(2);
}
const seedDir = process.env.SEED_DIR || "db/seed";
const questionsFile = process.argv[2] ?? "eval/ai-questions.json";
const { questions } = evaluationSetSchema.parse(JSON.parse(readFileSync(questionsFile, "utf8")));

const dir = mkdtempSync(path.join(tmpdir(), "eval-ai-"));
const handle = openDatabase(`file:${path.join(dir, "eval.db")}`);
try {
  await migrateToLatest(handle.db);
  await seedDatabase(handle.db, seedDir);
  await importSeedSources(seedDir, { onlyIfNone: false }, handle.db);
  console.log(`${questions.length} questions from ${questionsFile}, model ${settings.AI_MODEL || "(each issue's)"} at ${settings.AI_BASE_URL}\n`);
  const summary = await evaluateUnderstanding(questions, handle.db, settings);
  for (const result of summary.results) {
    const mark = result.rightOutcome ? "ok  " : "MISS";
    const cited = result.cited.length ? ` cited: ${result.cited.map((heading) => heading || "(no heading)").join("; ")}` : "";
    const grade = result.readingGrade === null ? "" : ` grade ${result.readingGrade}`;
    console.log(`${mark} [issue ${result.question.issueId}${result.question.language ? `, ${result.question.language}` : ""}] ${result.question.question}\n     ${result.outcome}${grade}${cited}`);
  }
  const percent = (value: number | null) => (value === null ? "n/a" : `${Math.round(value * 100)} %`);
  console.log(`\ncitation precision (cited passages that are expected ones): ${percent(summary.citationPrecision)}`);
  console.log(`answered citing an expected passage: ${percent(summary.answeredWithRightSource)}`);
  console.log(`refused where the sources say nothing: ${percent(summary.refusedWithoutSources)}`);
  console.log(`median reading grade (Flesch-Kincaid; aim 6 to 8): ${summary.medianReadingGrade === null ? "n/a" : summary.medianReadingGrade.toFixed(1)}`);
  console.log("\nby the language of the question: questions, citation precision, answered citing an expected passage, refused where the sources say nothing");
  for (const [language, figures] of Object.entries(summary.byLanguage)) {
    console.log(`  ${language.padEnd(8)} ${String(figures.questions).padStart(3)}  ${percent(figures.citationPrecision).padStart(5)}  ${percent(figures.answeredWithRightSource).padStart(5)}  ${percent(figures.refusedWithoutSources).padStart(5)}`);
  }
} finally {
  await handle.db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
