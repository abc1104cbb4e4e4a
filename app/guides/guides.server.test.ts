import { randomUUID } from "node:crypto";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInterview } from "~/a2j";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { GuideImportError, importGuide, readGuideFolder, readGuideSource, readGuideZip } from "./import.server";
import { getGuide, getGuideFile, getGuideSource } from "./guides.server";
import { interviewAnswersAnx, interviewPlace, loadInterview, mergeInterviewVariables, saveInterview } from "~/interviews/interviews.server";
import { openText } from "~/security/data-encryption.server";

describe.each(dialects)("guides and saved interviews on %s", (dialect) => {
  let handle: TestDatabase;
  const userId = randomUUID();
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, userId, "a@example.org");
  });
  afterAll(() => handle?.drop());

  it("imports a guide folder with its templates and PDF, and serves it parsed", async () => {
    const files = await readGuideFolder("db/seed/guides/re-entry-navigator");
    const result = await importGuide("re-entry-navigator", files, handle.db);
    expect(result.title).toContain("Re-Entry");
    expect(result.files).toBe(6);
    const guide = await getGuide("re-entry-navigator", handle.db);
    expect(guide?.firstPage).toBe("1-Introduction");
    const pdf = await getGuideFile("re-entry-navigator", "template2.pdf", handle.db);
    expect(pdf?.contentType).toBe("application/pdf");
    expect(pdf?.bytes.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("imports a zip (its single top folder is the guide) and replaces the guide of that id", async () => {
    const files = await readGuideFolder("db/seed/guides/case-summary");
    const zip = zipSync(Object.fromEntries([...files].map(([path, bytes]) => [`case-summary/${path}`, bytes])));
    await importGuide("demo", readGuideZip(zip), handle.db);
    expect((await getGuide("demo", handle.db))?.title).toMatch(/summary/i);
    await importGuide("demo", await readGuideFolder("db/seed/guides/letter-of-demand"), handle.db);
    expect((await getGuide("demo", handle.db))?.title).toMatch(/demand/i);
  });

  it("refuses a bad guide with a clear message and keeps what was there", async () => {
    const guide = new TextEncoder().encode("{}");
    const cases: [string, Map<string, Uint8Array>, RegExp][] = [
      ["no guide file", new Map([["template1.json", guide]]), /neither Guide\.json nor Guide\.xml/],
      ["malformed JSON", new Map([["Guide.json", new TextEncoder().encode("{ not json")]]), /Guide\.json is not a valid A2J guide/],
      ["a program inside", new Map([...(await readGuideFolder("db/seed/guides/letter-of-demand")), ["run.exe", guide]]), /run\.exe/],
    ];
    for (const [, files, message] of cases) {
      await expect(importGuide("demo", files, handle.db)).rejects.toThrow(GuideImportError);
      await expect(importGuide("demo", files, handle.db)).rejects.toThrow(message);
    }
    expect(() => readGuideZip(new TextEncoder().encode("not a zip"))).toThrow(/not a readable zip/);
    await expect(importGuide("Bad Id!", new Map(), handle.db)).rejects.toThrow(/lower-case/);
    expect((await getGuide("demo", handle.db))?.title).toMatch(/demand/i);
  });

  it("imports an A2J 4 guide from a zip, stored converted, with its pick list and a report of what was not converted", async () => {
    const a2j4 = "app/a2j/__fixtures__/a2j4";
    const files = await readGuideFolder(a2j4);
    const zip = zipSync(Object.fromEntries([...files].map(([path, bytes]) => [`repair-request/${path}`, bytes])));
    const result = await importGuide("repair-a2j4", readGuideZip(zip), handle.db);
    expect(result.title).toBe("Repair request (A2J 4 test guide)");
    expect(result.files).toBe(1); // counties.xml; the A2J 4 file itself is the guide, README.md a note
    expect(result.warnings).toContain('question 10 "10 Finish": the rule "ASK Landlord" is neither SET nor GOTO; it is kept as a comment and does nothing');
    expect(result.warnings.filter((w) => w.includes("pick list"))).toEqual([
      'page "3 Contact" field "State:": the pick list file "states.xml" is not among the guide\'s files; the 2 choices saved with the field are used.',
      'page "3 Contact" field "Court:": the pick list file "courts.xml" is not among the guide\'s files, so people cannot answer this question. Add courts.xml to the guide and import it again.',
    ]);
    const stored = await getGuideSource("repair-a2j4", handle.db);
    expect(stored?.format).toBe("json");
    expect(JSON.parse(stored!.source).firstPage).toBe("1 Welcome");
    expect(await getGuideFile("repair-a2j4", "Repair-request_Interview.xml", handle.db)).toBeNull();
    const guide = await getGuide("repair-a2j4", handle.db);
    expect(guide?.pages["3 Contact"]?.fields[3]?.listData).toContain("River County");
    expect(startInterview(guide!, 20000).ok).toBe(true);
  });

  it("imports an A2J 4 guide file on its own, and says so when its pick list file is missing", async () => {
    const files = await readGuideSource("app/a2j/__fixtures__/a2j4/Repair-request_Interview.xml");
    expect([...files.keys()]).toEqual(["Repair-request_Interview.xml"]);
    const result = await importGuide("repair-alone", files, handle.db);
    expect(result.files).toBe(0);
    expect(result.warnings).toContain(
      'page "3 Contact" field "County:": the pick list file "counties.xml" is not among the guide\'s files, so people cannot answer this question. Add counties.xml to the guide and import it again.',
    );
    // Renamed Guide.xml, it is still recognised by its root and converted.
    await importGuide("repair-alone", new Map([["Guide.xml", files.get("Repair-request_Interview.xml")!]]), handle.db);
    expect((await getGuideSource("repair-alone", handle.db))?.format).toBe("json");
    const two = new Map([...files, ["copy.a2j", files.get("Repair-request_Interview.xml")!]]);
    await expect(importGuide("repair-alone", two, handle.db)).rejects.toThrow(
      "There are several A2J 4 guides here (Repair-request_Interview.xml, copy.a2j): import them one at a time.",
    );
  });

  it("creates an interview as Draft on its first save, updates it, and reads it back with its history", async () => {
    const guide = (await getGuide("re-entry-navigator", handle.db))!;
    const started = startInterview(guide, 20000);
    if (!started.ok) throw new Error("no start");
    const id = await saveInterview({ id: null, userId, issueId: 2, status: "Draft", state: started.state }, handle.db);
    const row = await handle.db.selectFrom("interviews").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("Draft");
    // Stored sealed (app/security/data-encryption.server.ts): opened here as the application opens them.
    expect(row.vars).not.toContain("1-Introduction");
    // The ANX answer file is built from the answers on request, titled with the issue's guide.
    expect(await interviewAnswersAnx(userId, id, handle.db)).toContain(`<AnswerSet title="${guide.title}">`);
    expect(await interviewAnswersAnx(randomUUID(), id, handle.db)).toBeNull();
    expect(JSON.parse(openText(row.vars, interviewPlace("vars", id)))["a2j bookmark"]?.values).toEqual([null, "1-Introduction"]);
    const loaded = await loadInterview(userId, id, handle.db);
    expect(loaded?.state.history.map((h) => h.interviewPage)).toEqual(["1-Introduction"]);
    expect(await loadInterview(randomUUID(), id, handle.db)).toBeNull();

    expect(await mergeInterviewVariables(userId, id, { "Client first name TE": "Ann" }, guide, handle.db)).toBe(true);
    expect((await loadInterview(userId, id, handle.db))?.state.answers["client first name te"]?.values).toEqual([null, "Ann"]);
    expect(await mergeInterviewVariables(userId, id, { "Client first name TE": "Bo" }, guide, handle.db, 2)).toBe(true);
    const merged = await loadInterview(userId, id, handle.db);
    expect(merged?.state.answers["client first name te"]?.values).toEqual([null, "Ann", "Bo"]);
    expect(merged?.state.history.map((h) => h.interviewPage)).toEqual(["1-Introduction"]);
    expect(await mergeInterviewVariables(randomUUID(), id, { x: 1 }, guide, handle.db)).toBe(false);
    await expect(
      saveInterview({ id, userId: randomUUID(), issueId: 2, status: "Completed", state: started.state }, handle.db),
    ).rejects.toThrow();
  });
});
