import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { translationKey } from "../../db/content-versions";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { listAuditEvents } from "~/audit/audit.server";
import { forgetInterfaceOverrides, refreshInterfaceOverrides } from "~/i18n/overrides.server";
import { setInterfaceOverrides, translator } from "~/i18n/translator";
import { getHomeContent, getIssue, getLegalDocument, issueInLanguage, listCountries } from "./content.server";
import { history, loadTranslation, publishDraft, restoreVersion, saveContent, translationStatuses, versionWithDiff, deleteContent } from "./versions.server";
import { wordsLanguage } from "./items";
import { isMessageKey, loadWords, saveWord, shippedWords, wordProblem } from "./words.server";

const admin = { id: randomUUID(), email: "translator@example.org", address: "203.0.113.9" };

describe.each(dialects)("content in other languages on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await seedDatabase(database.db, "db/seed");
  });
  afterAll(async () => {
    setInterfaceOverrides(new Map());
    await database?.drop();
  });

  it("shows an issue's French description only once published, the English text (marked English) until then", async () => {
    const db = database.db;
    const issue = (await getIssue(1, db))!;
    const key = translationKey("issue", "1", "fr");
    const english = await issueInLanguage(issue, "fr", db);
    expect(english).toMatchObject({ name: issue.name, content: issue.content, lang: { name: "en", content: "en" }, country: { lang: { name: "en" } } });

    expect(await saveContent("translation", key, { fields: { name: "Loyer impayé", content: "Une **description**." } }, "draft", admin, db)).toMatchObject({ ok: true, version: 1 });
    expect((await issueInLanguage(issue, "fr", db)).lang.content).toBe("en");
    expect(await translationStatuses("issue", "1", ["fr", "ms"], db)).toEqual([
      { language: "fr", published: false, draftPending: true },
      { language: "ms", published: false, draftPending: false },
    ]);

    expect(await publishDraft("translation", key, admin, db)).toMatchObject({ ok: true, version: 1, publishedDraft: true });
    const french = await issueInLanguage(issue, "fr", db);
    expect(french).toMatchObject({ name: "Loyer impayé", content: "Une **description**.", lang: { name: "fr", content: "fr" } });
    // Other languages, and the default, are as they were.
    expect((await issueInLanguage(issue, "ms", db)).lang.name).toBe("en");
    expect((await issueInLanguage(issue, "en", db)).name).toBe(issue.name);
    const countries = await listCountries(db, "fr");
    const listed = countries.flatMap((c) => c.issues).find((i) => i.id === 1);
    expect(listed).toEqual({ id: 1, name: "Loyer impayé", lang: { name: "fr" } });

    // A field left empty falls back on its own: the name in French, the description in English.
    expect(await saveContent("translation", key, { fields: { name: "Loyer impayé", content: "  " } }, "published", admin, db)).toMatchObject({ ok: true, version: 2 });
    expect((await issueInLanguage(issue, "fr", db)).lang).toEqual({ name: "fr", content: "en" });
    const compared = await versionWithDiff("translation", key, 2, db);
    expect(compared?.lines).toContainEqual({ change: "removed", text: "Une **description**." });
    expect(compared?.lines).toContainEqual({ change: "same", text: "Name: Loyer impayé" });

    expect(await restoreVersion("translation", key, 1, admin, db)).toMatchObject({ ok: true, version: 3 });
    expect((await issueInLanguage(issue, "fr", db)).content).toBe("Une **description**.");
    expect((await history("translation", key, db)).map((v) => v.status)).toEqual(["published", "published", "published"]);
    expect((await loadTranslation("issue", "1", "fr", db)).original).toMatchObject({ name: issue.name });

    const { events } = await listAuditEvents(1, db);
    expect(events.slice(0, 2).map((e) => [e.action, e.subject])).toEqual([
      ["content.restored", "issue 1 in fr"],
      ["content.published", "issue 1 in fr"],
    ]);
  });

  it("translates the home page, a page and a country, each field in the language it is shown in", async () => {
    const db = database.db;
    await saveContent("translation", translationKey("home", "home", "ar"), { fields: { headline: "مساعدة قانونية" } }, "published", admin, db);
    const home = (await getHomeContent(db, "ar"))!;
    expect(home.headline).toBe("مساعدة قانونية");
    expect(home.lang).toEqual({ headline: "ar", subHeadline: "en", bodyCopy: "en" });
    await saveContent("translation", translationKey("legal", "about", "cy"), { fields: { name: "Amdanom ni", content: "Testun" } }, "published", admin, db);
    expect(await getLegalDocument("about", db, "cy")).toEqual({ name: "Amdanom ni", content: "Testun", lang: { name: "cy", content: "cy" } });
    expect((await getLegalDocument("about", db, "en"))?.lang).toEqual({ name: "en", content: "en" });
    const [first] = await listCountries(db, "zh-Hans");
    await saveContent("translation", translationKey("country", String(first!.id), "zh-Hans"), { fields: { name: "新加坡" } }, "published", admin, db);
    expect((await listCountries(db, "zh-Hans")).find((c) => c.id === first!.id)).toMatchObject({ name: "新加坡", lang: { name: "zh-Hans" } });
  });

  it("refuses a translation of an item that does not exist, and deletes an issue's translations with it", async () => {
    const db = database.db;
    expect(await saveContent("translation", translationKey("issue", "999", "fr"), { fields: { name: "X" } }, "published", admin, db)).toMatchObject({ ok: false });
    expect(await saveContent("translation", "issue/1/xx", { fields: { name: "X" } }, "published", admin, db)).toMatchObject({ ok: false });
    const made = await saveContent("issue", null, { name: "To delete", countryId: 1, content: "", guideId: null, guidePath: null, modelAI: "m", rephraseContent: "", rephraseVariables: [], sensitive: false }, "published", admin, db);
    if (!made.ok) throw new Error(made.message);
    await saveContent("translation", translationKey("issue", made.key, "es"), { fields: { name: "Para borrar" } }, "published", admin, db);
    expect(await deleteContent("issue", made.key, admin, db)).toMatchObject({ ok: true });
    const left = await db.selectFrom("content_translations").select("item_key").where("kind", "=", "issue").where("item_key", "=", made.key).execute();
    expect(left).toEqual([]);
  });

  it("applies a published interface correction in its language only, after publishing, and refuses one that drops a placeholder", async () => {
    const db = database.db;
    expect(wordProblem("public.home.chooseCountry", "Pilih negara")).toBeNull();
    expect(wordProblem("language.notYetAvailable", "Belum ada dalam {language}.")).toMatch(/\{fallback\}/);
    expect(wordProblem("language.notYetAvailable", "{language} {fallback} {extra}")).toMatch(/\{extra\}/);
    expect(wordProblem("public.interview.askForHelp", "Minta bantuan")).toMatch(/<link>/);
    expect(wordProblem("public.home.chooseCountry", "{unclosed")).toMatch(/cannot be read/);

    const shipped = translator("ms").t("public.home.chooseCountry");
    expect(await saveWord("ms", "public.home.chooseCountry", "Pilih negara anda di sini", "draft", admin, db)).toMatchObject({ ok: true, version: 1 });
    forgetInterfaceOverrides();
    await refreshInterfaceOverrides(db);
    expect(translator("ms").t("public.home.chooseCountry")).toBe(shipped);

    expect(await publishDraft("strings", "ms", admin, db)).toMatchObject({ ok: true, publishedDraft: true });
    await refreshInterfaceOverrides(db);
    expect(translator("ms").t("public.home.chooseCountry")).toBe("Pilih negara anda di sini");
    expect(translator("fr").t("public.home.chooseCountry")).not.toBe("Pilih negara anda di sini");

    // A second correction keeps the first; removing one keeps the other.
    await saveWord("ms", "public.home.noIssues", "Tiada isu lagi.", "published", admin, db);
    expect((await loadWords("ms", db)).published).toEqual({ "public.home.chooseCountry": "Pilih negara anda di sini", "public.home.noIssues": "Tiada isu lagi." });
    await saveWord("ms", "public.home.chooseCountry", null, "published", admin, db);
    await refreshInterfaceOverrides(db);
    expect(translator("ms").t("public.home.chooseCountry")).toBe(shipped);
    expect(translator("ms").t("public.home.noIssues")).toBe("Tiada isu lagi.");
    expect((await history("strings", "ms", db)).length).toBe(3);
    const { events } = await listAuditEvents(1, db);
    expect(events[0]).toMatchObject({ action: "content.published", subject: "interface words in ms" });
  });

  it("corrects the interview's words in a language only the viewer speaks, and only those", async () => {
    const db = database.db;
    expect(wordsLanguage("ko")).toMatchObject({ code: "ko", englishName: "Korean", viewerOnly: true });
    expect(wordsLanguage("fr")).toMatchObject({ code: "fr", viewerOnly: false });
    expect([wordsLanguage("en"), wordsLanguage("KO"), wordsLanguage("xx")]).toEqual([null, null, null]);
    const words = shippedWords("ko");
    expect(words.length).toBeGreaterThan(90);
    expect(words.every((word) => word.key.startsWith("viewer."))).toBe(true);
    expect(isMessageKey("viewer.continue", "ko")).toBe(true);
    expect(isMessageKey("public.home.chooseCountry", "ko")).toBe(false);
    expect(isMessageKey("public.home.chooseCountry", "ms")).toBe(true);

    expect(await saveWord("ko", "viewer.continue", "다음으로", "published", admin, db)).toMatchObject({ ok: true });
    forgetInterfaceOverrides();
    await refreshInterfaceOverrides(db);
    expect(translator("ko").t("viewer.continue")).toBe("다음으로");
    expect((await history("strings", "ko", db)).length).toBe(1);
  });
});
