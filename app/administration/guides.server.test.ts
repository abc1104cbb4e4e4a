import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Kysely, Migrator } from "kysely";
import { migrateToLatest, migrations } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { LARGE_MEDIA_BYTES, versionedGuideZip } from "../../tests/support/guide-fixtures";
import { getGuide, getGuideFile, getGuideSource, listGuides, listGuideVersions } from "~/guides/guides.server";
import { guideVersionZip, importSeedGuides } from "~/guides/import.server";
import { interviewAnswersAnx, loadInterview } from "~/interviews/interviews.server";
import { openViewer, pressButton, viewerPage } from "~/viewer/viewer.server";
import { listAuditEvents } from "~/audit/audit.server";
import { getIssue } from "~/content/content.server";
import { attachGuide, detachGuide, discardUpload, guideMessages, publishUpload, uploadGuide } from "./guides.server";

const zipFile = (bytes: Uint8Array, name = "my-guide.zip") => new File([Buffer.from(bytes)], name, { type: "application/zip" });

describe.each(dialects)("guide versions on %s", (dialect) => {
  let handle: TestDatabase;
  const admin = { id: randomUUID(), email: "admin@example.org", address: "203.0.113.7" };
  const person = { id: randomUUID(), firstName: "P", lastName: "Q", email: "person@example.org", administrator: false, helper: false };
  const other = { id: randomUUID(), firstName: "R", lastName: "S", email: "other@example.org", administrator: false, helper: false };
  const issueId = 950;

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: true }, handle.db);
    await insertTestUser(handle.db, admin.id, admin.email);
    await insertTestUser(handle.db, person.id, person.email);
    await insertTestUser(handle.db, other.id, other.email);
    await handle.db
      .insertInto("issues")
      .values({ id: issueId, category_id: 1, name: "Versioned issue", content: "", guide_id: null, guide_path: null, model_ai: "gpt-3.5-turbo", rephrase_content: "" })
      .execute();
  });
  afterAll(() => handle?.drop());

  it("keeps an upload as a pending version with a report of every kind of problem, and runs nothing of it", async () => {
    const uploaded = await uploadGuide(admin, { kind: "new", guideId: "my-guide" }, zipFile(versionedGuideZip("My guide", 1, true)), handle.db);
    expect(uploaded).toEqual({ ok: true, pin: { guideId: "my-guide", version: 1 } });
    expect(await getGuide("my-guide", handle.db)).toBeNull();
    const listed = (await listGuideVersions("my-guide", handle.db))!;
    expect(listed.publishedVersion).toBeNull();
    const [version] = listed.versions;
    expect(version).toMatchObject({ version: 1, origin: "upload", uploadedByEmail: admin.email, publishedAt: null, published: false });
    const report = version!.report;
    expect(report).toMatchObject({ pages: 2, variables: 2, templates: ["template1.json", "templates.json"], files: 3 });
    const kinds = report.warnings.map((w) => w.kind);
    for (const kind of ["script", "function", "pick-list", "template", "media"]) expect(kinds).toContain(kind);
    const messages = report.warnings.map((w) => w.message);
    expect(messages).toContainEqual(expect.stringMatching(/^page "Your name" codeBefore line 1: /));
    expect(messages).toContain('page "Your name" codeAfter: unknown function "SHOUT"');
    expect(messages).toContainEqual(expect.stringContaining('the pick list file "counties.xml" is not among the guide\'s files'));
    expect(messages).toContainEqual(expect.stringContaining("templates.json lists template 2, but neither template2.json nor template2.docx"));
    expect(messages).toContainEqual(expect.stringContaining(`"welcome.mp4" is ${(LARGE_MEDIA_BYTES / 1024 / 1024).toFixed(1)} MB`));
    // Preview of the pending version: administrators only.
    expect(await openViewer({ ...person, administrator: true }, { preview: true, guideId: "my-guide", version: 1 }, null, handle.db)).not.toBeNull();
    expect(await openViewer(person, { preview: true, guideId: "my-guide", version: 1 }, null, handle.db)).toBeNull();
    expect(await openViewer(person, { preview: true, guideId: "my-guide", version: null }, null, handle.db)).toBeNull();
  });

  it("refuses what cannot be read, an id in use, and a guide that is not there, and keeps nothing", async () => {
    const before = await handle.db.selectFrom("guide_versions").select("version").execute();
    expect(await uploadGuide(admin, { kind: "new", guideId: "broken" }, zipFile(new TextEncoder().encode("not a zip")), handle.db)).toEqual({
      ok: false,
      field: "file",
      message: expect.stringMatching(/^This guide cannot be read\. The file is not a readable zip/),
    });
    const noGuide = new File([new TextEncoder().encode("{ not json")], "Guide.json");
    expect(await uploadGuide(admin, { kind: "new", guideId: "broken" }, noGuide, handle.db)).toMatchObject({ ok: false, field: "file", message: expect.stringContaining("not a valid A2J guide") });
    expect(await uploadGuide(admin, { kind: "new", guideId: "my-guide" }, zipFile(versionedGuideZip("x", 1)), handle.db)).toEqual({ ok: false, field: "guideId", message: guideMessages.idTaken });
    expect(await uploadGuide(admin, { kind: "new", guideId: "Not An Id" }, zipFile(versionedGuideZip("x", 1)), handle.db)).toMatchObject({ ok: false, field: "guideId" });
    expect(await uploadGuide(admin, { kind: "version", guideId: "nothing-here" }, zipFile(versionedGuideZip("x", 1)), handle.db)).toEqual({ ok: false, field: "existing", message: guideMessages.noGuide });
    expect(await uploadGuide(admin, { kind: "new", guideId: "broken" }, null, handle.db)).toEqual({ ok: false, field: "file", message: guideMessages.noFile });
    expect(await handle.db.selectFrom("guide_versions").select("version").execute()).toHaveLength(before.length);
    expect(await handle.db.selectFrom("guides").select("id").where("id", "=", "broken").executeTakeFirst()).toBeUndefined();
  });

  it("publishes, attaches; an interview started on version 1 keeps it after version 2 is published, a new one runs version 2", async () => {
    expect(await attachGuide(admin, "my-guide", issueId, handle.db)).toEqual({ ok: false, message: guideMessages.notPublished });
    expect(await publishUpload(admin, { guideId: "my-guide", version: 1 }, handle.db)).toBe(true);
    expect(await publishUpload(admin, { guideId: "my-guide", version: 1 }, handle.db)).toBe(false);
    expect(await attachGuide(admin, "my-guide", 99999, handle.db)).toEqual({ ok: false, message: guideMessages.noIssue });
    expect(await attachGuide(admin, "my-guide", issueId, handle.db)).toEqual({ ok: true, issueName: "Versioned issue" });
    expect((await listGuides(handle.db)).find((g) => g.id === "my-guide")).toMatchObject({ publishedVersion: 1, pendingVersion: null, issues: [{ id: issueId, name: "Versioned issue" }] });

    // The person starts on version 1 and answers the first page.
    const started = (await openViewer(person, { preview: false, issueId, interviewId: null }, null, handle.db))!;
    expect(viewerPage(started)!.text).toContain("Version 1");
    const form = new FormData();
    form.set("_page", "Your name");
    form.set("_button", "0");
    form.set(viewerPage(started)!.fields[0]!.inputName, "Ada");
    const pressed = await pressButton(person, started, form, false, handle.db);
    if (pressed.kind !== "page" || !pressed.interviewId) throw new Error(`pressed: ${pressed.kind}`);
    const interviewId = pressed.interviewId;
    expect((await loadInterview(person.id, interviewId, handle.db))!.guide).toEqual({ guideId: "my-guide", version: 1 });

    // Version 2 is uploaded (nothing changes yet) and published.
    const second = await uploadGuide(admin, { kind: "version", guideId: "my-guide" }, zipFile(versionedGuideZip("My guide, revised", 2)), handle.db);
    expect(second).toEqual({ ok: true, pin: { guideId: "my-guide", version: 2 } });
    expect((await getGuide("my-guide", handle.db))!.title).toBe("My guide");
    expect((await listGuides(handle.db)).find((g) => g.id === "my-guide")).toMatchObject({ publishedVersion: 1, pendingVersion: 2 });
    expect(await publishUpload(admin, { guideId: "my-guide", version: 2 }, handle.db)).toBe(true);
    expect((await getGuide("my-guide", handle.db))!.title).toBe("My guide, revised");

    // The person's interview goes on in version 1; someone starting now gets version 2.
    const resumed = (await openViewer(person, { preview: false, issueId, interviewId }, null, handle.db))!;
    expect(resumed.pin).toEqual({ guideId: "my-guide", version: 1 });
    expect(viewerPage(resumed)!.text).toContain("Version 1: thank you, Ada.");
    expect(await interviewAnswersAnx(person.id, interviewId, handle.db)).toContain(`<AnswerSet title="My guide">`);
    const fresh = (await openViewer(other, { preview: false, issueId, interviewId: null }, null, handle.db))!;
    expect(fresh.pin).toEqual({ guideId: "my-guide", version: 2 });
    expect(viewerPage(fresh)!.text).toContain("Version 2");
  });

  it("discards a pending version: its files go, its number is not used again", async () => {
    const third = await uploadGuide(admin, { kind: "version", guideId: "my-guide" }, zipFile(versionedGuideZip("My guide", 3, true)), handle.db);
    expect(third).toMatchObject({ ok: true, pin: { version: 3 } });
    expect(await discardUpload(admin, { guideId: "my-guide", version: 3 }, handle.db)).toBe(true);
    expect(await discardUpload(admin, { guideId: "my-guide", version: 3 }, handle.db)).toBe(false);
    expect(await publishUpload(admin, { guideId: "my-guide", version: 3 }, handle.db)).toBe(false);
    expect(await getGuideFile("my-guide", "template1.json", handle.db, 3)).toBeNull();
    const fourth = await uploadGuide(admin, { kind: "version", guideId: "my-guide" }, zipFile(versionedGuideZip("My guide", 4)), handle.db);
    expect(fourth).toMatchObject({ ok: true, pin: { version: 4 } });
    expect(await discardUpload(admin, { guideId: "my-guide", version: 4 }, handle.db)).toBe(true);
    const history = (await listGuideVersions("my-guide", handle.db))!.versions;
    expect(history.map((v) => [v.version, v.published, Boolean(v.publishedAt), Boolean(v.discardedAt), v.uploadedByEmail])).toEqual([
      [4, false, false, true, admin.email],
      [3, false, false, true, admin.email],
      [2, true, true, false, admin.email],
      [1, false, true, false, admin.email],
    ]);
    // A new guide whose only upload is discarded is gone.
    await uploadGuide(admin, { kind: "new", guideId: "short-lived" }, zipFile(versionedGuideZip("Short", 1)), handle.db);
    await discardUpload(admin, { guideId: "short-lived", version: 1 }, handle.db);
    expect(await listGuideVersions("short-lived", handle.db)).toBeNull();
  });

  it("records every upload, publication, discard and attachment in the audit", async () => {
    const { events } = await listAuditEvents(1, handle.db);
    const mine = events.filter((e) => e.subject === "my-guide").reverse();
    expect(mine.map((e) => [e.action, e.details])).toEqual([
      ["guide.uploaded", { version: 1, warnings: 5, file: "my-guide.zip" }],
      ["guide.published", { version: 1 }],
      ["guide.attached", { issue: issueId, issueName: "Versioned issue", version: 1 }],
      ["guide.uploaded", { version: 2, warnings: 0, file: "my-guide.zip" }],
      ["guide.published", { version: 2 }],
      ["guide.uploaded", { version: 3, warnings: 5, file: "my-guide.zip" }],
      ["guide.discarded", { version: 3 }],
      ["guide.uploaded", { version: 4, warnings: 0, file: "my-guide.zip" }],
      ["guide.discarded", { version: 4 }],
    ]);
    expect(mine.every((e) => e.actorEmail === admin.email && e.address === admin.address)).toBe(true);
  });

  it("downloads a version as a zip that the upload reads back the same", async () => {
    const zip = (await guideVersionZip({ guideId: "my-guide", version: 1 }, handle.db))!;
    expect(Object.keys(unzipSync(zip)).sort()).toEqual(["Guide.json", "template1.json", "templates.json", "welcome.mp4"]);
    const again = await uploadGuide(admin, { kind: "new", guideId: "round-trip" }, zipFile(zip, "my-guide-v1.zip"), handle.db);
    expect(again).toEqual({ ok: true, pin: { guideId: "round-trip", version: 1 } });
    expect((await getGuideSource("round-trip", handle.db, 1))!.source).toBe((await getGuideSource("my-guide", handle.db, 1))!.source);
    const hex = (entries: Record<string, Uint8Array>) => Object.fromEntries(Object.entries(entries).map(([file, bytes]) => [file, Buffer.from(bytes).toString("base64")]));
    expect(hex(unzipSync((await guideVersionZip({ guideId: "round-trip", version: 1 }, handle.db))!))).toEqual(hex(unzipSync(zip)));
    expect((await listGuideVersions("round-trip", handle.db))!.versions[0]!.report).toEqual((await listGuideVersions("my-guide", handle.db))!.versions.at(-1)!.report);
  });

  it("detaches a guide from an issue: the issue runs none (no new interview starts), until it is attached again; audited", async () => {
    // Only an issue that runs this guide.
    expect(await detachGuide(admin, "round-trip", issueId, handle.db)).toEqual({ ok: false, message: guideMessages.notAttached });
    expect(await detachGuide(admin, "my-guide", 99999, handle.db)).toEqual({ ok: false, message: guideMessages.notAttached });
    expect(await detachGuide(admin, "my-guide", issueId, handle.db)).toEqual({ ok: true, issueName: "Versioned issue" });
    expect(await detachGuide(admin, "my-guide", issueId, handle.db)).toEqual({ ok: false, message: guideMessages.notAttached });
    expect((await getIssue(issueId, handle.db))!.guideId).toBeNull();
    expect((await listGuides(handle.db)).find((g) => g.id === "my-guide")!.issues).toEqual([]);
    expect(await openViewer(other, { preview: false, issueId, interviewId: null }, null, handle.db)).toBeNull();
    const { events } = await listAuditEvents(1, handle.db);
    expect(events[0]).toMatchObject({ action: "guide.detached", subject: "my-guide", actorEmail: admin.email, details: { issue: issueId, issueName: "Versioned issue" } });

    expect(await attachGuide(admin, "my-guide", issueId, handle.db)).toEqual({ ok: true, issueName: "Versioned issue" });
    expect((await getIssue(issueId, handle.db))!.guideId).toBe("my-guide");
  });

  it("the seed refreshes only its own demo guides, and only when their files changed", async () => {
    const seedDir = mkdtempSync(path.join(tmpdir(), "lsh-seed-"));
    try {
      cpSync("db/seed", seedDir, { recursive: true });
      // An administrator uploads a version of a demo guide.
      await uploadGuide(admin, { kind: "version", guideId: "letter-of-demand" }, zipFile(versionedGuideZip("Our own letter", 1)), handle.db);
      await publishUpload(admin, { guideId: "letter-of-demand", version: 2 }, handle.db);
      // The seed's case summary changes; nothing else does.
      const guideFile = path.join(seedDir, "guides/case-summary/Guide.json");
      const source = JSON.parse(readFileSync(guideFile, "utf8")) as { title: string };
      writeFileSync(guideFile, JSON.stringify({ ...source, title: "Case summary, corrected" }));

      expect(await importSeedGuides(seedDir, { onlyMissing: false }, handle.db)).toEqual(["case-summary"]);
      expect((await getGuide("letter-of-demand", handle.db))!.title).toBe("Our own letter");
      expect((await listGuideVersions("letter-of-demand", handle.db))!.versions).toHaveLength(2);
      expect((await getGuide("case-summary", handle.db))!.title).toBe("Case summary, corrected");
      expect((await listGuideVersions("case-summary", handle.db))!.versions.map((v) => [v.version, v.origin, v.published])).toEqual([
        [2, "seed", true],
        [1, "seed", false],
      ]);
      // Run again: nothing changed, nothing is imported.
      expect(await importSeedGuides(seedDir, { onlyMissing: false }, handle.db)).toEqual([]);
    } finally {
      rmSync(seedDir, { recursive: true, force: true });
    }
  });
});

describe.each(dialects)("migration 0012 on %s", (dialect) => {
  let handle: TestDatabase;
  afterAll(() => handle?.drop());

  it("makes today's guides version 1, published, with their files, and back-fills the interviews with it", async () => {
    handle = await createTestDatabase(dialect);
    // A database from before 0012 (and so before 0017 and 0024, which add to 0012's guide_versions and guides).
    const { "0012_guide_versions": _, "0017_guide_checks": __, "0024_guide_languages": ___, ...before } = migrations;
    const older = new Migrator({ db: handle.db, provider: { getMigrations: async () => before }, allowUnorderedMigrations: true });
    expect((await older.migrateToLatest()).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<any>;
    const userId = randomUUID();
    await insertTestUser(handle.db, userId, "old@example.org");
    await db.insertInto("categories").values({ id: 1, name: "Singapore", sort_order: 1 }).execute();
    await db.insertInto("guides").values({ id: "old-guide", title: "Old guide", format: "json", source: '{"title":"Old guide"}', imported_at: "2026-01-01T00:00:00.000Z" }).execute();
    await db.insertInto("guide_files").values({ guide_id: "old-guide", path: "template1.json", content_type: "application/json", content: "e30=" }).execute();
    const issue = { category_id: 1, content: "", guide_path: null, model_ai: "m", rephrase_content: "" };
    await db.insertInto("issues").values([{ id: 1, name: "With", guide_id: "old-guide", ...issue }, { id: 2, name: "Without", guide_id: null, ...issue }]).execute();
    const interview = { user_id: userId, status: "Draft", vars: "x", engine_state: "x", created_at: "2026-01-02T00:00:00.000Z", updated_at: "2026-01-02T00:00:00.000Z" };
    await db.insertInto("interviews").values([{ id: "a", issue_id: 1, ...interview }, { id: "b", issue_id: 2, ...interview }]).execute();

    await migrateToLatest(handle.db);
    expect(await handle.db.selectFrom("guides").selectAll().execute()).toEqual([{ id: "old-guide", title: "Old guide", published_version: 1, language: "en", translation_of: null }]);
    expect(await handle.db.selectFrom("guide_versions").select(["guide_id", "version", "title", "format", "origin", "uploaded_at", "published_at"]).execute()).toEqual([
      { guide_id: "old-guide", version: 1, title: "Old guide", format: "json", origin: "seed", uploaded_at: "2026-01-01T00:00:00.000Z", published_at: "2026-01-01T00:00:00.000Z" },
    ]);
    expect(await handle.db.selectFrom("guide_version_files").select(["guide_id", "version", "path"]).execute()).toEqual([{ guide_id: "old-guide", version: 1, path: "template1.json" }]);
    expect(await handle.db.selectFrom("interviews").select(["id", "guide_id", "guide_version"]).orderBy("id").execute()).toEqual([
      { id: "a", guide_id: "old-guide", guide_version: 1 },
      { id: "b", guide_id: null, guide_version: null },
    ]);
  });
});
