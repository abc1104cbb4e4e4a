// A guide version's checks as the administration runs them (issue 32; docs/decisions/0039): the health check,
// stored with the version; the guide's test scenarios, run on every version before it is published and
// compared with the version published before; publishing with a failing scenario only when confirmed, audited.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database";
import { publishUpload } from "~/administration/guides.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { type DiffLine, diffTextLines } from "~/content/versions.server";
import { database } from "~/db.server";
import { getGuideVersion, getGuideVersionFiles, type GuidePin } from "~/guides/guides.server";
import { today } from "~/interviews/interviews.server";
import { checkGuideHealth, type HealthReport, readHealthReport } from "./health.server";
import { parseExpectations, readAnswerFile, runScenario, type ScenarioResult } from "./scenarios.server";

/** A version's guide and files, as the checks read them; null when the version is gone or discarded. */
async function versionMaterial(pin: GuidePin, db: Db) {
  const guide = await getGuideVersion(pin, db);
  if (!guide) return null;
  const stored = await getGuideVersionFiles(pin, db);
  const files = new Map([...stored].map(([path, { content }]) => [path, new Uint8Array(Buffer.from(content, "base64"))]));
  return { guide, files, readFile: async (path: string) => files.get(path) ?? null };
}

/** Runs the health check of a version and keeps its report with it; null when there is no such version. */
export async function checkVersion(pin: GuidePin, db: Db = database(), seconds?: number): Promise<HealthReport | null> {
  const material = await versionMaterial(pin, db);
  if (!material) return null;
  const report = await checkGuideHealth(material.guide, material.files, { today: today(), ...(seconds === undefined ? {} : { seconds }) });
  await db.updateTable("guide_versions").set({ health: JSON.stringify(report) }).where("guide_id", "=", pin.guideId).where("version", "=", pin.version).execute();
  return report;
}

/** The stored health check of a version (null: not checked yet, as versions made before the check were). */
export async function versionHealth(pin: GuidePin, db: Db = database()): Promise<HealthReport | null> {
  const row = await db.selectFrom("guide_versions").select("health").where("guide_id", "=", pin.guideId).where("version", "=", pin.version).executeTakeFirst();
  return readHealthReport(row?.health ?? null);
}

// ------------------------------------------------------------------------------------------------
// Scenarios

export const scenarioMessages = {
  noName: "Give the scenario a name.",
  nameTaken: "This guide has a scenario of this name already: choose another name.",
  noFile: "Choose an answer file (ANX or JSON).",
  noGuide: "There is no such guide.",
} as const;

export interface GuideScenario {
  id: string;
  name: string;
  expectations: string;
  answersFormat: "anx" | "json";
  createdByEmail: string;
  createdAt: string;
}

export async function listScenarios(guideId: string, db: Db = database()): Promise<GuideScenario[]> {
  const rows = await db
    .selectFrom("guide_scenarios")
    .select(["id", "name", "expectations", "answers_format", "created_by_email", "created_at"])
    .where("guide_id", "=", guideId)
    .orderBy("name")
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, expectations: row.expectations, answersFormat: row.answers_format, createdByEmail: row.created_by_email, createdAt: row.created_at }));
}

export type AddScenarioResult = { ok: true; id: string } | { ok: false; field: "name" | "answers" | "expectations"; message: string };

/** Attaches a scenario to a guide: its answer file must read, its expectations parse. Audited. */
export async function addScenario(
  actor: Actor,
  guideId: string,
  input: { name: string; answersText: string | null; expectations: string },
  db: Db = database(),
): Promise<AddScenarioResult> {
  const name = input.name.trim();
  if (!name) return { ok: false, field: "name", message: scenarioMessages.noName };
  if (input.answersText === null || input.answersText.trim() === "") return { ok: false, field: "answers", message: scenarioMessages.noFile };
  const read = readAnswerFile(input.answersText);
  if (!read.ok) return { ok: false, field: "answers", message: read.message };
  const parsed = parseExpectations(input.expectations);
  if (!parsed.ok) return { ok: false, field: "expectations", message: parsed.errors.join(" ") };
  return db.transaction().execute(async (trx): Promise<AddScenarioResult> => {
    if (!(await trx.selectFrom("guides").select("id").where("id", "=", guideId).executeTakeFirst())) return { ok: false, field: "name", message: scenarioMessages.noGuide };
    if (await trx.selectFrom("guide_scenarios").select("id").where("guide_id", "=", guideId).where("name", "=", name).executeTakeFirst()) {
      return { ok: false, field: "name", message: scenarioMessages.nameTaken };
    }
    const id = randomUUID();
    await trx
      .insertInto("guide_scenarios")
      .values({ id, guide_id: guideId, name, answers_format: read.format, answers: input.answersText as string, expectations: input.expectations.trim(), created_by_email: actor.email, created_at: new Date().toISOString() })
      .execute();
    await recordAuditEvent(actor, { action: "guide.scenario-added", subject: guideId, details: { scenario: name } }, trx);
    return { ok: true, id };
  });
}

/** Removes a scenario (and its runs). Audited. False when the guide has no such scenario. */
export async function deleteScenario(actor: Actor, guideId: string, scenarioId: string, db: Db = database()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("guide_scenarios").select("name").where("id", "=", scenarioId).where("guide_id", "=", guideId).executeTakeFirst();
    if (!row) return false;
    await trx.deleteFrom("guide_scenario_runs").where("scenario_id", "=", scenarioId).execute();
    await trx.deleteFrom("guide_scenarios").where("id", "=", scenarioId).execute();
    await recordAuditEvent(actor, { action: "guide.scenario-deleted", subject: guideId, details: { scenario: row.name } }, trx);
    return true;
  });
}

export interface ScenarioRun {
  scenario: GuideScenario;
  result: ScenarioResult;
}

/**
 * Every scenario of the guide run on a version: runs kept from before are read (a version and a scenario
 * never change), the others run now and are kept.
 */
export async function scenarioRuns(pin: GuidePin, db: Db = database()): Promise<ScenarioRun[] | null> {
  const scenarios = await listScenarios(pin.guideId, db);
  if (!scenarios.length) return [];
  const kept = await db.selectFrom("guide_scenario_runs").select(["scenario_id", "result"]).where("guide_id", "=", pin.guideId).where("version", "=", pin.version).execute();
  const byScenario = new Map(kept.map((row) => [row.scenario_id, JSON.parse(row.result) as ScenarioResult]));
  const missing = scenarios.filter((s) => !byScenario.has(s.id));
  if (missing.length) {
    const material = await versionMaterial(pin, db);
    if (!material) return null;
    const answers = await db.selectFrom("guide_scenarios").select(["id", "answers"]).where("id", "in", missing.map((s) => s.id)).execute();
    for (const scenario of missing) {
      const text = answers.find((a) => a.id === scenario.id)?.answers ?? "";
      const read = readAnswerFile(text, material.guide);
      const parsed = parseExpectations(scenario.expectations);
      if (!read.ok || !parsed.ok) continue; // checked when it was added
      const result = await runScenario(material.guide, material.readFile, read.answers, parsed.expectations, today());
      await db
        .insertInto("guide_scenario_runs")
        .values({ scenario_id: scenario.id, guide_id: pin.guideId, version: pin.version, passed: result.passed ? 1 : 0, result: JSON.stringify(result), ran_at: new Date().toISOString() })
        .onConflict((oc) => oc.columns(["scenario_id", "version"]).doNothing())
        .execute();
      byScenario.set(scenario.id, result);
    }
  }
  return scenarios.flatMap((scenario) => {
    const result = byScenario.get(scenario.id);
    return result ? [{ scenario, result }] : [];
  });
}

/** The version published before `version` (the one new interviews ran until it), or null. */
async function previousPublished(pin: GuidePin, db: Db): Promise<number | null> {
  const row = await db
    .selectFrom("guide_versions")
    .select("version")
    .where("guide_id", "=", pin.guideId)
    .where("version", "<", pin.version)
    .where("published_at", "is not", null)
    .where("discarded_at", "is", null)
    .orderBy("version", "desc")
    .executeTakeFirst();
  return row?.version ?? null;
}

export interface DocumentChange {
  title: string;
  /** "changed", "same", "new" (no such document before), or "gone" (made before, not now). */
  change: "changed" | "same" | "new" | "gone";
  lines: DiffLine[];
}

export interface ScenarioComparison extends ScenarioRun {
  documents: DocumentChange[];
}

export interface PublishCheck {
  previousVersion: number | null;
  scenarios: ScenarioComparison[];
  failing: string[];
}

/** Each scenario on a version, its documents compared line by line with the previous published version's. */
export async function publishCheck(pin: GuidePin, db: Db = database()): Promise<PublishCheck | null> {
  const runs = await scenarioRuns(pin, db);
  if (!runs) return null;
  const previousVersion = await previousPublished(pin, db);
  const before = previousVersion === null ? [] : ((await scenarioRuns({ guideId: pin.guideId, version: previousVersion }, db)) ?? []);
  const scenarios = runs.map((run): ScenarioComparison => {
    const earlier = before.find((b) => b.scenario.id === run.scenario.id)?.result.documents ?? null;
    const documents: DocumentChange[] = run.result.documents.map((doc) => {
      const old = earlier?.find((d) => d.templateId === doc.templateId);
      if (earlier === null || !old) return { title: doc.title, change: "new", lines: diffTextLines("", doc.text) };
      const lines = diffTextLines(old.text, doc.text);
      return { title: doc.title, change: lines.some((l) => l.change !== "same") ? "changed" : "same", lines };
    });
    for (const old of earlier ?? []) {
      if (!run.result.documents.some((d) => d.templateId === old.templateId)) documents.push({ title: old.title, change: "gone", lines: diffTextLines(old.text, "") });
    }
    return { ...run, documents };
  });
  return { previousVersion, scenarios, failing: runs.filter((r) => !r.result.passed).map((r) => r.scenario.name) };
}

export type PublishResult = { ok: true } | { ok: false; reason: "not-pending" } | { ok: false; reason: "failing"; failing: string[] };

/**
 * Publishes a pending version after running every scenario on it. With a failing scenario it publishes only
 * when `confirmed`, and the audit names the scenarios that failed.
 */
export async function publishVersion(actor: Actor, pin: GuidePin, confirmed: boolean, db: Db = database()): Promise<PublishResult> {
  const runs = await scenarioRuns(pin, db);
  if (!runs) return { ok: false, reason: "not-pending" };
  const failing = runs.filter((r) => !r.result.passed).map((r) => r.scenario.name);
  if (failing.length && !confirmed) return { ok: false, reason: "failing", failing };
  const details = failing.length ? { failingScenarios: failing, confirmed: true } : {};
  return (await publishUpload(actor, pin, db, details)) ? { ok: true } : { ok: false, reason: "not-pending" };
}
