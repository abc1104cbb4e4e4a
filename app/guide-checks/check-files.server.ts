// `cli guide check <zip|folder|file> [--scenarios dir]` (issue 32, for authors' own pipelines): the import's
// checks, the health check and the scenarios of a folder, on files alone (no database), as a report in text.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { daysFromDate, withPickLists } from "~/a2j";
import { checkGuideFiles, type GuideFiles } from "~/guides/import.server";
import { blockingFindings, checkGuideHealth, explorationSummary, HEALTH_CHECK_SECONDS, type HealthReport } from "./health.server";
import { parseExpectations, readAnswerFile, runScenario, type ScenarioResult } from "./scenarios.server";

export interface ScenarioFile {
  name: string;
  answersText: string;
  expectationsText: string;
}

/**
 * A folder of scenarios: each `NAME.anx` or `NAME.json` answer file with its `NAME.expect` (one expectation a
 * line). An answer file without expectations, or expectations without answers, is an error that names it.
 */
export async function readScenarioFolder(dir: string): Promise<ScenarioFile[]> {
  const names = (await readdir(dir)).sort();
  const scenarios: ScenarioFile[] = [];
  const problems: string[] = [];
  for (const file of names.filter((n) => /\.expect$/i.test(n))) {
    const name = file.replace(/\.expect$/i, "");
    const answers = names.find((n) => n.toLowerCase() === `${name.toLowerCase()}.anx`) ?? names.find((n) => n.toLowerCase() === `${name.toLowerCase()}.json`);
    if (!answers) {
      problems.push(`${file} has no answer file beside it (${name}.anx or ${name}.json).`);
      continue;
    }
    scenarios.push({ name, answersText: await readFile(path.join(dir, answers), "utf8"), expectationsText: await readFile(path.join(dir, file), "utf8") });
  }
  for (const file of names.filter((n) => /\.(anx|json)$/i.test(n))) {
    if (!names.some((n) => n.toLowerCase() === `${file.replace(/\.(anx|json)$/i, "").toLowerCase()}.expect`)) problems.push(`${file} has no ${file.replace(/\.(anx|json)$/i, "")}.expect beside it.`);
  }
  if (problems.length) throw new ScenarioFolderError(problems.join(" "));
  if (!scenarios.length) throw new ScenarioFolderError(`${dir} holds no scenario (NAME.anx or NAME.json with NAME.expect).`);
  return scenarios;
}

export class ScenarioFolderError extends Error {
  override name = "ScenarioFolderError";
}

export interface FilesCheck {
  title: string;
  importWarnings: string[];
  health: HealthReport;
  scenarios: { name: string; result: ScenarioResult | null; problem: string | null }[];
  /** Errors (findings that stop a person) and failing scenarios: the command exits non-zero on either. */
  failed: boolean;
  lines: string[];
}

/** Checks a guide's files and runs the scenarios on them. A guide that cannot be read throws GuideImportError. */
export async function checkGuideFilesWithScenarios(files: GuideFiles, scenarios: ScenarioFile[], seconds = HEALTH_CHECK_SECONDS): Promise<FilesCheck> {
  const checked = checkGuideFiles(files);
  const others = new Map(checked.others);
  const lists = Object.fromEntries(checked.others.filter(([file]) => /\.xml$/i.test(file)).map(([file, bytes]) => [file, new TextDecoder().decode(bytes)]));
  const guide = withPickLists(checked.guide, lists);
  const today = daysFromDate(new Date());
  const health = await checkGuideHealth(guide, others, { today, seconds });
  const readFile = async (p: string) => others.get(p) ?? null;
  const results: FilesCheck["scenarios"] = [];
  for (const scenario of scenarios) {
    const answers = readAnswerFile(scenario.answersText, guide);
    const expectations = parseExpectations(scenario.expectationsText);
    if (!answers.ok || !expectations.ok) {
      results.push({ name: scenario.name, result: null, problem: answers.ok ? (expectations.ok ? "" : expectations.errors.join(" ")) : answers.message });
      continue;
    }
    results.push({ name: scenario.name, result: await runScenario(guide, readFile, answers.answers, expectations.expectations, today), problem: null });
  }
  const errors = blockingFindings(health);
  const failing = results.filter((r) => !r.result?.passed);
  const lines: string[] = [];
  lines.push(`Guide "${guide.title}": ${explorationSummary(health)}`);
  lines.push(health.outcomes.length ? `Endings reached: ${health.outcomes.join(", ")}.` : "No ending was reached.");
  for (const w of checked.report.warnings) lines.push(`import   ${w.message}`);
  const warnings = health.findings.length - errors.length;
  lines.push(`${errors.length} ${errors.length === 1 ? "error" : "errors"} (a person is stopped), ${warnings} ${warnings === 1 ? "warning" : "warnings"}.`);
  for (const f of health.findings) {
    const where = [f.page === null ? "templates" : `page "${f.page}"`, f.where].filter(Boolean).join(", ");
    lines.push(`${f.severity.padEnd(8)} ${where}: ${f.message}`);
  }
  if (results.length) {
    lines.push(failing.length ? `Scenarios: ${failing.length} of ${results.length} ${failing.length === 1 ? "fails" : "fail"}.` : `Scenarios: all ${results.length} pass.`);
    for (const r of results) {
      if (!r.result) {
        lines.push(`  FAIL ${r.name}: ${r.problem}`);
        continue;
      }
      const ended = r.result.outcome ? `ended with ${r.result.outcome} after ${r.result.pages} pages` : `stopped at "${r.result.stoppedAt ?? "the start"}": ${r.result.stoppedBecause}`;
      lines.push(`  ${r.result.passed ? "pass" : "FAIL"} ${r.name} (${ended})`);
      for (const c of r.result.checks) lines.push(`       ${c.passed ? "pass" : "FAIL"} ${c.expectation}${c.found ? ` (${c.found})` : ""}`);
    }
  }
  const failed = errors.length > 0 || failing.length > 0;
  lines.push(failed ? `Result: not ready (${[errors.length ? `${errors.length} ${errors.length === 1 ? "error" : "errors"}` : "", failing.length ? `${failing.length} failing ${failing.length === 1 ? "scenario" : "scenarios"}` : ""].filter(Boolean).join(", ")}).` : "Result: ready.");
  return { title: guide.title, importWarnings: checked.report.warnings.map((w) => w.message), health, scenarios: results, failed, lines };
}
