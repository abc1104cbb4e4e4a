// Guides per language (docs/decisions/0048-guides-per-language.md), on SQLite and PostgreSQL: a guide's language
// from its A2J file, set by administrators, an issue's guide in the person's language for a new interview, and the
// interview keeping its language.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Kysely, Migrator } from "kysely";
import { migrateToLatest, migrations } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { setGuideLanguage } from "~/administration/guides.server";
import { commandLineActor } from "~/audit/audit.server";
import { loadInterview } from "~/interviews/interviews.server";
import { openViewer, pressButton } from "~/viewer/viewer.server";
import { chooseGuide, guideLanguageTag, readsIn } from "./guide-language";
import { guideForPerson, issueGuides, listGuides } from "./guides.server";
import { type GuideFiles, importGuide, readGuideFolder } from "./import.server";

/** The step benchmark's guide, renamed and in another language. */
async function guideIn(language: string, title: string): Promise<GuideFiles> {
  const files = await readGuideFolder("bench/fixtures/step-guide");
  const guide = JSON.parse(Buffer.from(files.get("Guide.json")!).toString("utf8"));
  files.set("Guide.json", Buffer.from(JSON.stringify({ ...guide, language, title })));
  return files;
}

describe("the language of a guide, and the guide a person gets", () => {
  it("reads A2J's tags as BCP 47, English when none", () => {
    expect(["fr", "zh-cn", "EN-us", "", "not a tag!", "cld"].map(guideLanguageTag)).toEqual(["fr", "zh-CN", "en-US", "en", "en", "syr"]);
  });

  it("matches language and script, never CLDR's fall-back to English", () => {
    const guides = [
      { guideId: "en", language: "en" },
      { guideId: "fr", language: "fr" },
      { guideId: "fr-ca", language: "fr-CA" },
      { guideId: "zh", language: "zh-CN" },
    ];
    expect(chooseGuide(guides, "fr")).toEqual({ guideId: "fr", language: "fr", inTheirLanguage: true });
    expect(chooseGuide(guides, "fr-CA").guideId).toBe("fr-ca");
    expect(chooseGuide(guides, "zh-Hans")).toEqual({ guideId: "zh", language: "zh-CN", inTheirLanguage: true });
    // Traditional Chinese, Tamil and Welsh readers get the default guide, told it is in English.
    for (const person of ["zh-TW", "ta", "cy"]) expect(chooseGuide(guides, person)).toEqual({ guideId: "en", language: "en", inTheirLanguage: false });
    expect(readsIn("en-GB", "en")).toBe(true);
    expect(readsIn("sr-Latn", "sr-Cyrl")).toBe(false);
  });
});

describe.each(dialects)("guides per language on %s", (dialect) => {
  let handle: TestDatabase;
  const person = { id: randomUUID(), firstName: "Chloé", lastName: "B", email: "chloe@example.org", administrator: false, helper: false };

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    const db = handle.db;
    await migrateToLatest(db);
    await insertTestUser(db, person.id, person.email);
    await importGuide("claim", await guideIn("en", "Small claim"), db);
    await importGuide("claim-fr", await guideIn("fr", "Petite créance"), db);
    await importGuide("claim-zh", await guideIn("zh-cn", "小额索偿"), db);
    await importGuide("other", await guideIn("es", "Otra"), db);
    await db.insertInto("categories").values({ id: 1, name: "Canada", sort_order: 1 }).execute();
    const issue = { category_id: 1, content: "", model_ai: "m", rephrase_content: "" };
    await db.insertInto("issues").values({ id: 1, name: "Small claims", guide_id: "claim", guide_path: "claim/Guide.json", ...issue }).execute();
  });
  afterAll(() => handle?.drop());

  it("takes a guide's language from its A2J file on import", async () => {
    const guides = await listGuides(handle.db);
    expect(Object.fromEntries(guides.map((g) => [g.id, g.language]))).toEqual({ claim: "en", "claim-fr": "fr", "claim-zh": "zh-CN", other: "es" });
  });

  it("lets administrators say which guide another translates, one level only, and records it", async () => {
    const db = handle.db;
    expect(await setGuideLanguage(commandLineActor, "claim-fr", { language: "fr-CA", translationOf: "claim" }, db)).toEqual({ ok: true });
    expect(await setGuideLanguage(commandLineActor, "claim-zh", { language: "zh-CN", translationOf: "claim" }, db)).toEqual({ ok: true });
    // Not itself, not a translation, not when it has translations of its own.
    for (const [guideId, translationOf] of [["other", "other"], ["other", "claim-fr"], ["claim", "other"]] as const) {
      const refused = await setGuideLanguage(commandLineActor, guideId, { language: "es", translationOf }, db);
      expect(refused.ok).toBe(false);
    }
    expect((await issueGuides("claim", db)).map((g) => `${g.guideId}:${g.language}`)).toEqual(["claim:en", "claim-fr:fr-CA", "claim-zh:zh-CN"]);
    const audit = await db.selectFrom("audit_events").select(["action", "subject"]).where("action", "=", "guide.language").orderBy("seq").execute();
    expect(audit).toEqual([
      { action: "guide.language", subject: "claim-fr" },
      { action: "guide.language", subject: "claim-zh" },
    ]);
  });

  it("starts a French reader's interview on the French guide, which it keeps with its language", async () => {
    const db = handle.db;
    expect(await guideForPerson("claim", "fr", db)).toEqual({ guideId: "claim-fr", language: "fr-CA", inTheirLanguage: true });
    expect(await guideForPerson("claim", "vi", db)).toEqual({ guideId: "claim", language: "en", inTheirLanguage: false });
    const opened = (await openViewer(person, { preview: false, issueId: 1, interviewId: null, guideId: "claim-fr" }, null, db))!;
    expect(opened.guide.title).toBe("Petite créance");
    expect(opened.language).toBe("fr-CA");
    expect(opened.pin).toEqual({ guideId: "claim-fr", version: 1 });
    // A guide that is not one of the issue's opens nothing.
    expect(await openViewer(person, { preview: false, issueId: 1, interviewId: null, guideId: "other" }, null, db)).toBeNull();

    const form = new FormData();
    for (const [name, value] of Object.entries({ _page: "A", _button: "0", "name te": "Chloé", "amount nu": "5" })) form.set(name, value);
    const pressed = await pressButton(person, opened, form, false, db);
    if (pressed.kind !== "page") throw new Error(JSON.stringify(pressed));
    const stored = (await loadInterview(person.id, pressed.interviewId!, db))!;
    expect(stored).toMatchObject({ language: "fr-CA", guide: { guideId: "claim-fr", version: 1 } });
    // Reopened, whatever the address says: its own guide and language.
    const again = (await openViewer(person, { preview: false, issueId: 1, interviewId: pressed.interviewId, guideId: "claim" }, null, db))!;
    expect([again.guide.title, again.language]).toEqual(["Petite créance", "fr-CA"]);
    // The anonymous usage event says the language.
    const events = await db.selectFrom("usage_events").select(["kind", "language"]).where("issue_id", "=", 1).execute();
    expect(events).toEqual([{ kind: "started", language: "fr-CA" }]);
  });
});

describe.each(dialects)("migration 0024 on %s", (dialect) => {
  let handle: TestDatabase;
  afterAll(() => handle?.drop());

  it("gives the guides already there the language their latest version names, and their interviews their guide's", async () => {
    handle = await createTestDatabase(dialect);
    const { "0024_guide_languages": _, ...before } = migrations;
    const older = new Migrator({ db: handle.db, provider: { getMigrations: async () => before } });
    expect((await older.migrateToLatest()).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<any>;
    const userId = randomUUID();
    await insertTestUser(handle.db, userId, "old@example.org");
    await db.insertInto("categories").values({ id: 1, name: "Canada", sort_order: 1 }).execute();
    const version = { format: "json", origin: "seed", uploaded_by_email: "seed", uploaded_at: "2026-01-01T00:00:00.000Z", published_at: "2026-01-01T00:00:00.000Z" };
    await db.insertInto("guides").values([
      { id: "json-fr", title: "JSON", published_version: 2 },
      { id: "xml-zh", title: "XML", published_version: 1 },
      { id: "none", title: "None", published_version: 1 },
    ]).execute();
    await db.insertInto("guide_versions").values([
      { guide_id: "json-fr", version: 1, title: "v1", source: '{"language": "en"}', ...version },
      { guide_id: "json-fr", version: 2, title: "v2", source: '{"title": "T", "language": "fr"}', ...version },
      { guide_id: "xml-zh", version: 1, title: "v1", source: "<TEMPLATE><INFO><LANGUAGE>zh-cn</LANGUAGE></INFO></TEMPLATE>", ...version, format: "xml" },
      { guide_id: "none", version: 1, title: "v1", source: "{}", ...version },
    ]).execute();
    const issue = { category_id: 1, content: "", guide_path: null, model_ai: "m", rephrase_content: "" };
    await db.insertInto("issues").values([{ id: 1, name: "French", guide_id: "json-fr", ...issue }, { id: 2, name: "Chinese", guide_id: "xml-zh", ...issue }]).execute();
    const interview = { user_id: userId, status: "Draft", vars: "x", engine_state: "x", created_at: "2026-01-02T00:00:00.000Z", updated_at: "2026-01-02T00:00:00.000Z" };
    await db.insertInto("interviews").values([
      { id: "pinned", issue_id: 2, guide_id: "json-fr", guide_version: 1, ...interview },
      { id: "issue-guide", issue_id: 2, ...interview },
    ]).execute();

    await migrateToLatest(handle.db);
    const guides = await handle.db.selectFrom("guides").select(["id", "language", "translation_of"]).orderBy("id").execute();
    expect(guides).toEqual([
      { id: "json-fr", language: "fr", translation_of: null },
      { id: "none", language: "en", translation_of: null },
      { id: "xml-zh", language: "zh-CN", translation_of: null },
    ]);
    const interviews = await handle.db.selectFrom("interviews").select(["id", "language"]).orderBy("id").execute();
    expect(interviews).toEqual([
      { id: "issue-guide", language: "zh-CN" },
      { id: "pinned", language: "fr" },
    ]);
    // The usage triggers write the language from now on.
    await handle.db.updateTable("interviews").set({ status: "Completed" }).where("id", "=", "pinned").execute();
    const completed = await handle.db.selectFrom("usage_events").select(["kind", "language"]).where("kind", "=", "completed").execute();
    expect(completed).toEqual([{ kind: "completed", language: "fr" }]);
  });
});
