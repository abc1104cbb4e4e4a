import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { readSeedContent, seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { listAuditEvents } from "~/audit/audit.server";
import { importSeedGuides } from "~/guides/import.server";
import { attachGuideToIssue, getHomeContent, getIssue, listCountries } from "./content.server";
import {
  bodyAsText,
  contentMessages,
  deleteContent,
  diffBodies,
  history,
  loadItem,
  publishDraft,
  restoreVersion,
  saveContent,
  unpublishedItems,
  versionWithDiff,
} from "./versions.server";

const admin = { id: randomUUID(), email: "editor@example.org", address: "203.0.113.7" };

describe.each(dialects)("content versions on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await seedDatabase(database.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: true }, database.db);
  });
  afterAll(() => database?.drop());

  it("keeps a draft off the public page until it is published, each save a version with who and when", async () => {
    const db = database.db;
    const seeded = (await getHomeContent(db))!;
    const draft = await saveContent("home", "home", { ...seeded, headline: "A draft headline" }, "draft", admin, db);
    expect(draft).toMatchObject({ ok: true, version: 2 });
    expect((await getHomeContent(db))?.headline).toBe(seeded.headline);
    const item = await loadItem("home", "home", db);
    expect(item.pendingDraft).toMatchObject({ version: 2, authorEmail: admin.email, status: "draft" });
    expect(item.body?.headline).toBe("A draft headline");

    // Published as it was saved (another administrator presses Publish on the unchanged form): the draft itself
    // becomes the published version, saying who published it; no second version of the same content.
    const lead = { id: randomUUID(), email: "lead@example.org", address: "203.0.113.8" };
    expect(await saveContent("home", "home", { ...seeded, headline: "A draft headline" }, "published", lead, db)).toEqual({ ok: true, key: "home", version: 2, publishedDraft: true });
    expect((await getHomeContent(db))?.headline).toBe("A draft headline");
    expect((await loadItem("home", "home", db)).pendingDraft).toBeNull();

    const versions = await history("home", "home", db);
    expect(versions.map((v) => [v.version, v.status, v.source, v.authorEmail, v.published?.byEmail ?? null])).toEqual([
      [2, "published", "administrator", admin.email, lead.email],
      [1, "published", "seed", "seed files", null],
    ]);
    expect(Date.parse(versions[0]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(versions[0]!.published!.at)).toBeGreaterThanOrEqual(Date.parse(versions[0]!.createdAt));

    // Saving or publishing what is already published adds nothing; publishDraft has no draft left to publish.
    expect(await saveContent("home", "home", { ...seeded, headline: "A draft headline" }, "published", admin, db)).toMatchObject({ ok: true, version: 2, unchanged: true });
    expect(await saveContent("home", "home", { ...seeded, headline: "A draft headline" }, "draft", admin, db)).toMatchObject({ ok: true, version: 2, unchanged: true });
    expect((await publishDraft("home", "home", admin, db)).ok).toBe(false);
    expect((await history("home", "home", db)).map((v) => v.version)).toEqual([2, 1]);
    const { events } = await listAuditEvents(1, db);
    expect(events.slice(0, 2).map((e) => [e.action, e.actorEmail, e.details.version])).toEqual([
      ["content.published", lead.email, 2],
      ["content.saved", admin.email, 2],
    ]);
  });

  it("publishes a draft with publishDraft, and a draft changed before publishing as a new version", async () => {
    const db = database.db;
    const legal = (await loadItem("legal", "about", db)).body!;
    expect(await saveContent("legal", "about", { ...legal, name: "About us" }, "draft", admin, db)).toMatchObject({ ok: true, version: 2 });
    expect(await publishDraft("legal", "about", admin, db)).toMatchObject({ ok: true, version: 2, publishedDraft: true });
    expect(await saveContent("legal", "about", { ...legal, name: "About this service" }, "draft", admin, db)).toMatchObject({ ok: true, version: 3 });
    // The form changed again before Publish: what is published is a new version, the draft stays a draft.
    expect(await saveContent("legal", "about", { ...legal, name: "About Legal Self-Help" }, "published", admin, db)).toMatchObject({ ok: true, version: 4 });
    expect((await history("legal", "about", db)).map((v) => [v.version, v.status])).toEqual([
      [4, "published"],
      [3, "draft"],
      [2, "published"],
      [1, "published"],
    ]);
    const compared = await versionWithDiff("legal", "about", 4, db);
    expect(compared?.lines.some((line) => line.change !== "same")).toBe(true);
  });

  it("shows what changed from the version before, line by line, and restores an earlier version as a new one", async () => {
    const db = database.db;
    const compared = await versionWithDiff("home", "home", 2, db);
    expect(compared?.previous?.version).toBe(1);
    expect(compared?.lines).toContainEqual({ change: "removed", text: `Headline: ${compared!.previous!.body.headline}` });
    expect(compared?.lines).toContainEqual({ change: "added", text: "Headline: A draft headline" });
    expect(compared?.lines.filter((l) => l.change === "same").length).toBeGreaterThan(1);

    const restored = await restoreVersion("home", "home", 1, admin, db);
    expect(restored).toMatchObject({ ok: true, version: 3 });
    const seed = await readSeedContent("db/seed");
    expect((await getHomeContent(db))?.headline).toBe(seed.home.headline);
    expect((await restoreVersion("home", "home", 99, admin, db)).ok).toBe(false);

    const { events } = await listAuditEvents(1, db);
    const homeEvents = events.filter((e) => e.subject === "home page");
    expect(homeEvents.slice(0, 3).map((e) => [e.action, e.subject, e.actorEmail])).toEqual([
      ["content.restored", "home page", admin.email],
      ["content.published", "home page", "lead@example.org"],
      ["content.saved", "home page", admin.email],
    ]);
    expect(homeEvents[0]?.details).toMatchObject({ kind: "home", key: "home", version: 3, from: 1 });
  });

  it("diffs markdown by line and names each field as the form does", () => {
    const text = bodyAsText("legal", { name: "About", content: "one\ntwo\n" });
    expect(text).toBe("Title: About\nText:\none\ntwo\n");
    expect(diffBodies("legal", { name: "About", content: "one\ntwo" }, { name: "About", content: "one\n2\n" })).toEqual([
      { change: "same", text: "Title: About" },
      { change: "same", text: "Text:" },
      { change: "same", text: "one" },
      { change: "removed", text: "two" },
      { change: "added", text: "2" },
    ]);
  });

  it("adds a country and an issue in it; refuses to delete a country with issues or an issue with interviews", async () => {
    const db = database.db;
    const country = await saveContent("country", null, { name: "Atlantis", order: 9, dateOrder: "DMY", dateStyle: "numeric", dateDigits: "latin" }, "published", admin, db);
    expect(country.ok).toBe(true);
    const countryKey = country.ok ? country.key : "";
    const body = { name: "Sea rights", countryId: Number(countryKey), content: "Text", guideId: "no-such-guide", guidePath: null, modelAI: "m", rephraseContent: "", rephraseVariables: [], sensitive: true };
    expect(await saveContent("issue", null, body, "published", admin, db)).toEqual({ ok: false, field: "guideId", message: contentMessages.noGuide });
    expect(await saveContent("issue", null, { ...body, guideId: null, countryId: 424242 }, "published", admin, db)).toEqual({ ok: false, field: "countryId", message: contentMessages.noCountry });
    const issue = await saveContent("issue", null, { ...body, guideId: null }, "published", admin, db);
    expect(issue.ok).toBe(true);
    const issueKey = issue.ok ? issue.key : "";
    expect((await listCountries(db)).find((c) => c.name === "Atlantis")?.issues).toEqual([{ id: Number(issueKey), name: "Sea rights", lang: { name: "en" } }]);
    expect(await getIssue(Number(issueKey), db)).toMatchObject({ sensitive: true, country: { name: "Atlantis" } });

    expect(await deleteContent("country", countryKey, admin, db)).toEqual({ ok: false, message: contentMessages.countryHasIssues });
    const user = randomUUID();
    await insertTestUser(db, user, `${user}@example.org`);
    const now = new Date().toISOString();
    await db.insertInto("interviews").values({ id: randomUUID(), user_id: user, issue_id: Number(issueKey), status: "Draft", vars: "{}", engine_state: "{}", created_at: now, updated_at: now }).execute();
    expect(await deleteContent("issue", issueKey, admin, db)).toEqual({ ok: false, message: contentMessages.issueHasInterviews });
    await db.deleteFrom("interviews").where("issue_id", "=", Number(issueKey)).execute();
    expect(await deleteContent("issue", issueKey, admin, db)).toMatchObject({ ok: true });
    expect(await deleteContent("country", countryKey, admin, db)).toMatchObject({ ok: true });
    expect(await getIssue(Number(issueKey), db)).toBeNull();
    expect((await history("country", countryKey, db))[0]).toMatchObject({ status: "deleted" });
    // A new item never takes a deleted one's id, and with it its history.
    const next = await saveContent("country", null, { name: "Lemuria", order: 10, dateOrder: "MDY", dateStyle: "numeric", dateDigits: "native" }, "draft", admin, db);
    expect(next.ok && Number(next.key)).toBe(Number(countryKey) + 1);
    // A new country saved as a draft has no public row yet, and the lists still find it.
    expect((await listCountries(db)).some((c) => c.name === "Lemuria")).toBe(false);
    expect(await unpublishedItems(db)).toContainEqual({ kind: "country", key: next.ok ? next.key : "", name: "Lemuria" });
  });

  it("keeps a guide the issue already runs even when it is not imported, and refuses to choose one that is not", async () => {
    const db = database.db;
    await db.updateTable("issues").set({ guide_id: "not-imported", guide_path: "not-imported/Guide.json" }).where("id", "=", 5).execute();
    const issue = (await loadItem("issue", "5", db)).published!;
    expect(await saveContent("issue", "5", { ...issue, name: "Renamed" }, "published", admin, db)).toMatchObject({ ok: true });
    expect(await getIssue(5, db)).toMatchObject({ name: "Renamed", guideId: "not-imported" });
    expect(await saveContent("issue", "5", { ...issue, guideId: "another-missing" }, "published", admin, db)).toEqual({ ok: false, field: "guideId", message: contentMessages.noGuide });
  });

  it("attaches a guide from the command line as a new published version of the issue", async () => {
    const db = database.db;
    const before = (await history("issue", "2", db)).length;
    expect(await attachGuideToIssue(2, "case-summary", db)).toBe(true);
    expect(await getIssue(2, db)).toMatchObject({ guideId: "case-summary", guidePath: "case-summary/Guide.json" });
    const [latest] = await history("issue", "2", db);
    expect(latest).toMatchObject({ status: "published", source: "command line", authorEmail: "command line" });
    expect((await history("issue", "2", db)).length).toBe(before + 1);
    expect(await attachGuideToIssue(424242, "case-summary", db)).toBe(false);
  });

  it("tells the second of two saves at the same instant that nothing of theirs was saved", async () => {
    const db = database.db;
    const legal = (await loadItem("legal", "terms", db)).body!;
    const saves = await Promise.all([1, 2, 3].map((n) => saveContent("legal", "terms", { ...legal, name: `Terms ${n}` }, "draft", admin, db)));
    expect(saves.filter((s) => s.ok).length).toBeGreaterThanOrEqual(1);
    for (const refused of saves.filter((s) => !s.ok)) expect(refused).toEqual({ ok: false, message: contentMessages.savedAtOnce });
    const versions = (await history("legal", "terms", db)).map((v) => v.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("db:seed leaves what someone changed as it is, and still updates what only the seed made", async () => {
    const db = database.db;
    await saveContent("home", "home", { ...(await getHomeContent(db))!, headline: "Our own headline" }, "published", admin, db);
    const seed = await readSeedContent("db/seed");
    const changedSeed = {
      ...seed,
      home: { ...seed.home, headline: "A new seed headline" },
      issues: seed.issues.map((issue) => (issue.id === 1 ? { ...issue, name: "Divorce (from the seed)" } : issue.id === 2 ? { ...issue, name: "Changed by the seed" } : issue)),
    };
    const { applySeedContent } = await import("../../db/seed");
    const report = await applySeedContent(db, changedSeed);
    expect((await getHomeContent(db))?.headline).toBe("Our own headline");
    expect((await getIssue(1, db))?.name).toBe("Divorce (from the seed)");
    // Issue 2 had a guide attached from the command line: that is a change the seed keeps too.
    expect((await getIssue(2, db))?.name).not.toBe("Changed by the seed");
    expect(report.kept).toEqual(expect.arrayContaining(["home:home", "issue:2"]));
    expect(report.kept).not.toContain("issue:1");
    // The seed's change of issue 1 is a version of its own; running the same seed again adds none.
    const versions = (await history("issue", "1", db)).length;
    await applySeedContent(db, changedSeed);
    expect((await history("issue", "1", db)).length).toBe(versions);
    expect((await history("issue", "1", db))[0]).toMatchObject({ source: "seed", status: "published" });
  });
});
