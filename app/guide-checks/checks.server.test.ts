import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { LETTER_ANSWERS_ANX, LETTER_ANSWERS_JSON, scenarioGuideZip } from "../../tests/support/guide-fixtures";
import { uploadGuide } from "~/administration/guides.server";
import { listAuditEvents } from "~/audit/audit.server";
import { getGuide } from "~/guides/guides.server";
import { addScenario, checkVersion, deleteScenario, listScenarios, publishCheck, publishVersion, scenarioMessages, scenarioRuns, versionHealth } from "./checks.server";

// The scenarios' storage and the checks of each version, on SQLite and PostgreSQL (issue 32).

const zipFile = (bytes: Uint8Array) => new File([Buffer.from(bytes)], "guide.zip", { type: "application/zip" });

describe.each(dialects)("guide checks on %s", (dialect) => {
  let handle: TestDatabase;
  const admin = { id: randomUUID(), email: "checker@example.org", address: "203.0.113.9" };
  const v1 = { guideId: "letters", version: 1 };
  const v2 = { guideId: "letters", version: 2 };

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await insertTestUser(handle.db, admin.id, admin.email);
    // Version 1 has a dead end and a missing list off the letter's path; version 2 changes the letter's last line.
    expect(await uploadGuide(admin, { kind: "new", guideId: "letters" }, zipFile(scenarioGuideZip("Letters", "Please pay within 14 days.", true)), handle.db)).toMatchObject({ ok: true });
  });
  afterAll(() => handle?.drop());

  it("keeps each version's health check with it", async () => {
    expect(await versionHealth(v1, handle.db)).toBeNull();
    const report = await checkVersion(v1, handle.db);
    expect(report?.findings.filter((f) => f.severity === "error").map((f) => f.page)).toEqual(["Advice", "Opening hours"]);
    expect(await versionHealth(v1, handle.db)).toEqual(report);
    expect(await checkVersion({ guideId: "letters", version: 9 }, handle.db)).toBeNull();
  });

  it("keeps scenarios per guide, refusing what it cannot use, and records each in the audit", async () => {
    const add = (name: string, answersText: string | null, expectations: string) => addScenario(admin, "letters", { name, answersText, expectations }, handle.db);
    expect(await add("", LETTER_ANSWERS_JSON, "outcome: SUCCESS")).toEqual({ ok: false, field: "name", message: scenarioMessages.noName });
    expect(await add("x", null, "outcome: SUCCESS")).toEqual({ ok: false, field: "answers", message: scenarioMessages.noFile });
    expect(await add("x", "not answers", "outcome: SUCCESS")).toMatchObject({ ok: false, field: "answers" });
    expect(await add("x", LETTER_ANSWERS_JSON, "ends well")).toMatchObject({ ok: false, field: "expectations", message: expect.stringContaining("Line 1") });
    expect(await add("Pays within 14 days", LETTER_ANSWERS_JSON, "outcome: ASSEMBLE-SUCCESS\ndocument contains: Please pay within 14 days.")).toMatchObject({ ok: true });
    expect(await add("Names the person", LETTER_ANSWERS_ANX, "page: Letter\ndocument contains: I, Grace, ask you to pay 90 dollars.\nvariable: First name TE = Grace")).toMatchObject({ ok: true });
    expect(await add("Names the person", LETTER_ANSWERS_ANX, "page: Letter")).toEqual({ ok: false, field: "name", message: scenarioMessages.nameTaken });
    expect((await listScenarios("letters", handle.db)).map((s) => [s.name, s.answersFormat, s.createdByEmail])).toEqual([
      ["Names the person", "anx", admin.email],
      ["Pays within 14 days", "json", admin.email],
    ]);
    const { events } = await listAuditEvents(1, handle.db);
    expect(events.filter((e) => e.action === "guide.scenario-added").map((e) => e.details)).toEqual([{ scenario: "Names the person" }, { scenario: "Pays within 14 days" }]);
  });

  it("runs every scenario on a version once and keeps the runs", async () => {
    const runs = await scenarioRuns(v1, handle.db);
    expect(runs?.map((r) => [r.scenario.name, r.result.passed])).toEqual([
      ["Names the person", true],
      ["Pays within 14 days", true],
    ]);
    const stored = await handle.db.selectFrom("guide_scenario_runs").select(["version", "passed"]).where("guide_id", "=", "letters").orderBy("scenario_id").execute();
    expect(stored).toEqual([
      { version: 1, passed: 1 },
      { version: 1, passed: 1 },
    ]);
    // Read back, not run again: the rows stay as they were.
    const ranAt = await handle.db.selectFrom("guide_scenario_runs").select("ran_at").execute();
    await scenarioRuns(v1, handle.db);
    expect(await handle.db.selectFrom("guide_scenario_runs").select("ran_at").execute()).toEqual(ranAt);
  });

  it("publishes a version whose scenarios pass without asking", async () => {
    expect(await publishVersion(admin, v1, false, handle.db)).toEqual({ ok: true });
    expect((await getGuide("letters", handle.db))?.title).toBe("Letters");
  });

  it("shows a new version's failing scenario and each document's changed lines, and publishes it only when confirmed, audited", async () => {
    expect(await uploadGuide(admin, { kind: "version", guideId: "letters" }, zipFile(scenarioGuideZip("Letters", "Please pay within 7 days.")), handle.db)).toMatchObject({ ok: true });
    const check = await publishCheck(v2, handle.db);
    expect(check?.previousVersion).toBe(1);
    expect(check?.failing).toEqual(["Pays within 14 days"]);
    const failing = check?.scenarios.find((s) => s.scenario.name === "Pays within 14 days");
    expect(failing?.documents).toEqual([
      {
        title: "Letter of demand",
        change: "changed",
        lines: [
          { change: "same", text: "Dear Sir or Madam," },
          { change: "same", text: "I, Ada, ask you to pay 250 dollars." },
          { change: "removed", text: "Please pay within 14 days." },
          { change: "added", text: "Please pay within 7 days." },
        ],
      },
    ]);
    expect(await publishVersion(admin, v2, false, handle.db)).toEqual({ ok: false, reason: "failing", failing: ["Pays within 14 days"] });
    expect((await handle.db.selectFrom("guides").select("published_version").where("id", "=", "letters").executeTakeFirst())?.published_version).toBe(1);
    expect(await publishVersion(admin, v2, true, handle.db)).toEqual({ ok: true });
    const { events } = await listAuditEvents(1, handle.db);
    expect(events.find((e) => e.action === "guide.published")?.details).toEqual({ version: 2, failingScenarios: ["Pays within 14 days"], confirmed: true });
    expect(await publishVersion(admin, v2, true, handle.db)).toEqual({ ok: false, reason: "not-pending" });
  });

  it("deletes a scenario with its runs, audited; another guide's scenario is not found", async () => {
    const [scenario] = await listScenarios("letters", handle.db);
    expect(await deleteScenario(admin, "other-guide", scenario!.id, handle.db)).toBe(false);
    expect(await deleteScenario(admin, "letters", scenario!.id, handle.db)).toBe(true);
    expect(await handle.db.selectFrom("guide_scenario_runs").select("version").where("scenario_id", "=", scenario!.id).execute()).toEqual([]);
    expect((await listScenarios("letters", handle.db)).length).toBe(1);
    const { events } = await listAuditEvents(1, handle.db);
    expect(events[0]).toMatchObject({ action: "guide.scenario-deleted", subject: "letters", details: { scenario: scenario!.name } });
  });
});
