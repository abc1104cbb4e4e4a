import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import PDFDocument from "pdfkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { listAuditEvents } from "~/audit/audit.server";
import { docx } from "~/documents/test-docx";
import { extractDocumentText, extractionMessages } from "./extract.server";
import { importSeedSources } from "./seed.server";
import { characterPairs, issueHasSources, addSource, deleteSource, getSource, listSources, searchPassages, searchTerms, sourceProblems, updateSource } from "./sources.server";

const actor = { id: null, email: "lead@example.org", address: "203.0.113.9" };

/** A PDF made with pdfkit: one page per entry, each a run of text (or a drawn shape only, like a scan). */
function pdf(pages: (string | null)[]): Promise<Uint8Array> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve) => doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks)))));
  for (const text of pages) {
    doc.addPage();
    if (text === null) doc.rect(50, 50, 300, 400).fill("#444");
    else doc.fontSize(11).text(text);
  }
  doc.end();
  return done;
}

const seedDir = path.resolve("db/seed");

describe("extracting a document's text", () => {
  it("reads markdown, a PDF with its pages, and a .docx with its headings", async () => {
    expect(await extractDocumentText(new TextEncoder().encode("# Title\n\nSome words."), "text/markdown")).toEqual({ ok: true, kind: "markdown", text: "# Title\n\nSome words." });
    const twoPages = await extractDocumentText(await pdf(["Notice to vacate the premises.", "Second page words."]), "application/pdf");
    expect(twoPages).toMatchObject({ ok: true, kind: "pdf", pages: ["Notice to vacate the premises.", "Second page words."] });
    const word = await extractDocumentText(docx([{ heading: "Bond rules" }, "First paragraph & more.", "Second\u0000 paragraph."]), "application/octet-stream");
    expect(word).toEqual({ ok: true, kind: "docx", text: "# Bond rules\n\nFirst paragraph & more.\n\nSecond paragraph." });
  });

  it("tells a scanned PDF, a binary file, an old Word file and a damaged PDF apart", async () => {
    expect(await extractDocumentText(await pdf([null, null]), "application/pdf")).toEqual({ ok: false, reason: "no-text", message: extractionMessages["no-text"] });
    expect(await extractDocumentText(new Uint8Array([0, 1, 2, 3, 200, 201]), "text/plain")).toMatchObject({ ok: false, reason: "unreadable" });
    expect(await extractDocumentText(new Uint8Array([137, 80, 78, 71]), "image/png")).toMatchObject({ ok: false, reason: "wrong-type" });
    expect(await extractDocumentText(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), "application/msword")).toMatchObject({ ok: false, reason: "old-word" });
    const whole = await pdf(["Some text."]);
    expect(await extractDocumentText(whole.subarray(0, 400), "application/pdf")).toMatchObject({ ok: false, reason: "unreadable" });
    expect(await extractDocumentText(new TextEncoder().encode("  \n\n ** \n"), "text/markdown")).toMatchObject({ ok: false, reason: "no-text" });
    // A file that takes too long to read is given up (the worker is ended), whatever it holds.
    expect(await extractDocumentText(await pdf(["Some text."]), "application/pdf", 1)).toEqual({ ok: false, reason: "too-complex", message: extractionMessages["too-complex"] });
  });
});

describe("search terms", () => {
  it("keeps only words, so nothing a person types reaches the search syntax", () => {
    expect(searchTerms('bond AND "landlord" OR NOT (deposit*) )( 🏠')).toEqual(["bond", "landlord", "deposit"]);
    expect(searchTerms("What can I do?")).toEqual(["what", "can", "do"]);
    expect(searchTerms("")).toEqual([]);
    expect(searchTerms("word ".repeat(400) + "x".repeat(2000))).toEqual(["word"]);
  });
});

describe.each(dialects)("sources and passage search on %s", (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await database.db.insertInto("categories").values([
      { id: 1, name: "Singapore", sort_order: 1 },
      { id: 3, name: "Australia", sort_order: 2 },
      { id: 4, name: "Canada", sort_order: 4 },
    ]).execute();
    const issue = { content: "", guide_id: null, guide_path: null, model_ai: "m", rephrase_content: "" };
    await database.db.insertInto("issues").values([
      { id: 5, category_id: 1, name: "Unpaid salary", ...issue },
      { id: 6, category_id: 3, name: "Rental bond", ...issue },
      { id: 10, category_id: 3, name: "Unfair dismissal", ...issue },
      { id: 4, category_id: 4, name: "Landlord and tenant disputes", ...issue },
    ]).execute();
  });
  afterAll(() => database?.drop());

  it("loads the seed's sources once, split into passages that keep their headings", async () => {
    const added = await importSeedSources(seedDir, { onlyIfNone: true }, database.db);
    expect(added).toHaveLength(5);
    expect(await importSeedSources(seedDir, { onlyIfNone: false }, database.db)).toEqual([]);
    const sources = await listSources(database.db);
    // Each in the language its front matter says (English when it says none).
    expect(sources.map((s) => [s.countryName, s.issueName, s.language]).sort()).toEqual([
      ["Australia", "Rental bond", "en"],
      ["Australia", "Unfair dismissal", "en"],
      ["Canada", "Landlord and tenant disputes", "fr"],
      ["Singapore", "Unpaid salary", "en"],
      ["Singapore", "Unpaid salary", "zh-Hans"],
    ]);
    const french = await getSource(sources.find((s) => s.language === "fr")!.id, database.db);
    expect(french!.passageList.find((p) => p.text.includes("dépôt de garantie"))?.heading).toBe("Le dépôt de garantie");
    const languages = await database.db.selectFrom("passages").select("language").distinct().where("source_id", "=", french!.id).execute();
    expect(languages.map((row) => row.language)).toEqual(["fr"]);
    const bond = await getSource(sources.find((s) => s.issueName === "Rental bond")!.id, database.db);
    expect(bond!.passageList.length).toBeGreaterThan(2);
    expect(bond!.passageList.every((p) => p.text.split(/\s+/).length <= 250)).toBe(true);
    expect(bond!.passageList.find((p) => p.text.includes("fair wear and tear"))?.heading).toBe("What the landlord can claim");
  });

  it("a seed source's language must be a shipped language's tag", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "seed-sources-"));
    try {
      mkdirSync(path.join(dir, "sources"));
      writeFileSync(path.join(dir, "sources/klingon.md"), "---\ntitle: T\nurl: https://example.org/t\ncountry: 1\nlanguage: tlh\n---\n\n# T\n\nText.\n");
      await expect(importSeedSources(dir, { onlyIfNone: false }, database.db)).rejects.toThrow(/klingon\.md is invalid: language: not a shipped language's tag \(one of en, zh-Hans, /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says which issues have sources: their own, or their country's for every issue", async () => {
    expect(await issueHasSources({ id: 5, countryId: 1 }, database.db)).toBe(true);
    expect(await issueHasSources({ id: 6, countryId: 3 }, database.db)).toBe(true);
    // Singapore's only source is for unpaid salary: another Singapore issue has none, nor a country without any.
    expect(await issueHasSources({ id: 7, countryId: 1 }, database.db)).toBe(false);
    expect(await issueHasSources({ id: 5, countryId: 2 }, database.db)).toBe(false);
  });

  it("ranks the passage that answers a question first, within the country and issue asked about", async () => {
    const best = async (query: string, countryId: number, issueId: number) => (await searchPassages({ countryId, issueId, query, limit: 3 }, database.db))[0];
    expect(await best("Can the landlord keep my bond for worn carpet?", 3, 6)).toMatchObject({ heading: "What the landlord can claim", sourceTitle: "Getting your rental bond back (fact sheet)" });
    expect(await best("How many days do I have to apply after my dismissal?", 3, 10)).toMatchObject({ heading: "The 21-day time limit" });
    expect(await best("my boss has not paid my salary, where do I go for mediation", 1, 5)).toMatchObject({ heading: "Mediation at TADM" });
    expect(await best("evidence photos condition report", 3, 6)).toMatchObject({ heading: "Evidence that helps" });
    // Another issue's sources, and another country's, are not searched.
    expect((await searchPassages({ countryId: 3, issueId: 10, query: "bond landlord tribunal" }, database.db)).every((p) => p.sourceTitle.startsWith("Unfair"))).toBe(true);
    expect(await searchPassages({ countryId: 1, issueId: 5, query: "bond landlord" }, database.db)).toEqual([]);
  });

  it("adds markdown, PDF and Word sources; a country-wide source serves every issue of its country", async () => {
    const pages = await pdf([
      "Notice to vacate. A landlord must give written notice to vacate. The notice period depends on the reason for ending the tenancy.",
      "Repairs. Urgent repairs such as a burst water service must be arranged quickly.",
    ]);
    const added = await addSource({ countryId: 3, issueId: null, title: "Renting guide", url: "https://example.org/renting" }, { file: { name: "guide.pdf", type: "application/pdf", bytes: pages } }, actor, database.db);
    expect(added).toMatchObject({ ok: true, passages: 2 });
    const found = await searchPassages({ countryId: 3, issueId: 10, query: "burst water repairs" }, database.db);
    expect(found[0]).toMatchObject({ sourceTitle: "Renting guide", page: 2, sourceUrl: "https://example.org/renting" });

    const word = docx([{ heading: "Redundancy pay" }, "An employee made redundant may be owed redundancy pay depending on years of service."]);
    expect(await addSource({ countryId: 3, issueId: 10, title: "Redundancy", url: "https://example.org/r" }, { file: { name: "r.docx", type: "", bytes: word } }, actor, database.db)).toMatchObject({ ok: true, passages: 1 });
    expect((await searchPassages({ countryId: 3, issueId: 10, query: "redundant years of service" }, database.db))[0]).toMatchObject({ sourceTitle: "Redundancy", heading: "Redundancy pay" });

    expect(await addSource({ countryId: 3, issueId: 5, title: "x", url: "https://example.org" }, { markdown: "Words." }, actor, database.db)).toEqual({ ok: false, field: "issueId", message: sourceProblems.issueNotInCountry });
    expect(await addSource({ countryId: 99, issueId: null, title: "x", url: "https://example.org" }, { markdown: "Words." }, actor, database.db)).toMatchObject({ ok: false, field: "countryId" });
    expect(await addSource({ countryId: 3, issueId: null, title: "Scan", url: "https://example.org" }, { file: { name: "scan.pdf", type: "application/pdf", bytes: await pdf([null]) } }, actor, database.db)).toEqual({ ok: false, field: "file", message: extractionMessages["no-text"] });
    expect((await listSources(database.db)).some((s) => s.title === "Scan")).toBe(false);
    // Never cut silently: a source of more passages than are kept is refused whole.
    const statute = Array.from({ length: 2001 }, (_, i) => `## Section ${i}\n\nText of section ${i}.`).join("\n\n");
    expect(await addSource({ countryId: 3, issueId: null, title: "Statute", url: "https://example.org" }, { markdown: statute }, actor, database.db)).toEqual({ ok: false, field: "markdown", message: sourceProblems.tooLong });
  });

  it("never throws on what a person types, whatever it is", async () => {
    const hostile = ['"', '""', "AND OR NOT", "bond*", "*", ")(", "(bond", "bond NEAR/2 landlord", "🏠🔑", "", "   ", "-bond", "^bond", "heading:bond", "bond:", "'; drop table passages; --", "ĉu ŝuldo", "x".repeat(2000), "bond ".repeat(400), "!&|<->:*"];
    for (const query of hostile) {
      const found = await searchPassages({ countryId: 3, issueId: 6, query }, database.db);
      expect(Array.isArray(found), query).toBe(true);
    }
    expect((await searchPassages({ countryId: 3, issueId: 6, query: '"bond" AND (landlord' }, database.db)).length).toBeGreaterThan(0);
    expect(await searchPassages({ countryId: 3, issueId: 6, query: "" }, database.db)).toEqual([]);
  });

  it("edits a source: its details alone keep its passages; new text replaces them in search at once; recorded with what changed", async () => {
    const added = await addSource({ countryId: 3, issueId: 10, title: "Leave guide", url: "https://example.org/leave" }, { markdown: "# Annual leave\n\nFull-time employees get four weeks of annual leave." }, actor, database.db);
    if (!added.ok) throw new Error(added.message);
    const passagesBefore = (await getSource(added.id, database.db))!.passageList;

    // Details only: a new title, link and place (every issue of the country); the passages stay as they were.
    expect(await updateSource(added.id, { countryId: 3, issueId: null, title: "Leave and holidays", url: "https://example.org/holidays" }, null, actor, database.db)).toEqual({ ok: true, passages: 1 });
    const renamed = await getSource(added.id, database.db);
    expect(renamed).toMatchObject({ title: "Leave and holidays", url: "https://example.org/holidays", countryId: 3, issueId: null });
    expect(renamed!.passageList).toEqual(passagesBefore);
    // Now a country-wide source: found for another issue of the country, under its new title and link.
    expect((await searchPassages({ countryId: 3, issueId: 6, query: "annual leave four weeks" }, database.db))[0]).toMatchObject({ sourceTitle: "Leave and holidays", sourceUrl: "https://example.org/holidays" });

    // New text: the old passages are gone from search, the new ones found.
    const changed = await updateSource(added.id, { countryId: 3, issueId: 10, title: "Leave and holidays", url: "https://example.org/holidays" }, { markdown: "# Personal leave\n\nPersonal leave covers sickness and caring for family.\n\n# Notice\n\nTell your employer as soon as you can." }, actor, database.db);
    expect(changed).toEqual({ ok: true, passages: 2 });
    expect((await searchPassages({ countryId: 3, issueId: 10, query: "annual four weeks full time" }, database.db)).some((p) => p.sourceTitle === "Leave and holidays")).toBe(false);
    expect((await searchPassages({ countryId: 3, issueId: 10, query: "sickness caring family" }, database.db))[0]).toMatchObject({ sourceTitle: "Leave and holidays", heading: "Personal leave" });
    expect((await getSource(added.id, database.db))!.passageList.map((p) => p.heading)).toEqual(["Personal leave", "Notice"]);

    // Refused, and nothing changes: an issue of another country, a country that does not exist, a file without text.
    expect(await updateSource(added.id, { countryId: 3, issueId: 5, title: "x", url: "https://example.org" }, null, actor, database.db)).toEqual({ ok: false, field: "issueId", message: sourceProblems.issueNotInCountry });
    expect(await updateSource(added.id, { countryId: 99, issueId: null, title: "x", url: "https://example.org" }, null, actor, database.db)).toMatchObject({ ok: false, field: "countryId" });
    expect(
      await updateSource(added.id, { countryId: 3, issueId: 10, title: "x", url: "https://example.org" }, { file: { name: "scan.pdf", type: "application/pdf", bytes: await pdf([null]) } }, actor, database.db),
    ).toEqual({ ok: false, field: "file", message: extractionMessages["no-text"] });
    expect((await getSource(added.id, database.db))).toMatchObject({ title: "Leave and holidays", issueId: 10 });
    expect(await updateSource(999_999, { countryId: 3, issueId: null, title: "x", url: "https://example.org" }, null, actor, database.db)).toBeNull();

    const { events } = await listAuditEvents(1, database.db);
    const changes = events.filter((e) => e.action === "source.changed" && e.subject === "Leave and holidays");
    expect(changes.map((e) => e.details)).toEqual([
      expect.objectContaining({ sourceId: added.id, issueId: 10, changed: ["place", "text"], passages: 2 }),
      expect.objectContaining({ sourceId: added.id, issueId: null, changed: ["title", "link", "place"] }),
    ]);
    expect(changes.every((e) => e.actorEmail === "lead@example.org")).toBe(true);
    await deleteSource(added.id, actor, database.db);
  });

  it("keeps the language a source is written in, found with its passages, and records a change of it", async () => {
    const added = await addSource({ countryId: 3, issueId: null, title: "Guide du locataire", url: "https://example.org/fr", language: "fr" }, { markdown: "# Dépôt\n\nLe dépôt de garantie est rendu à la fin du bail." }, actor, database.db);
    if (!added.ok) throw new Error(added.message);
    expect((await listSources(database.db)).find((s) => s.id === added.id)?.language).toBe("fr");
    expect((await searchPassages({ countryId: 3, query: "dépôt garantie" }, database.db))[0]).toMatchObject({ sourceTitle: "Guide du locataire", language: "fr" });
    // Saying nothing of the language keeps it; a source added without one is in the default language.
    expect(await updateSource(added.id, { countryId: 3, issueId: null, title: "Guide du locataire", url: "https://example.org/fr" }, null, actor, database.db)).toEqual({ ok: true, passages: 1 });
    expect((await getSource(added.id, database.db))?.language).toBe("fr");
    await updateSource(added.id, { countryId: 3, issueId: null, title: "Guide du locataire", url: "https://example.org/fr", language: "en" }, null, actor, database.db);
    const { events } = await listAuditEvents(1, database.db);
    expect(events.find((e) => e.action === "source.changed" && e.subject === "Guide du locataire")?.details).toMatchObject({ changed: ["language"] });
    const plain = await addSource({ countryId: 3, issueId: null, title: "Plain", url: "https://example.org/p" }, { markdown: "Words." }, actor, database.db);
    if (!plain.ok) throw new Error(plain.message);
    expect((await getSource(plain.id, database.db))?.language).toBe("en");
    await deleteSource(added.id, actor, database.db);
    await deleteSource(plain.id, actor, database.db);
  });

  it("finds a question in Chinese by its pairs of characters, and puts the person's language first among what matches", async () => {
    const chinese = await addSource({ countryId: 3, issueId: null, title: "押金指南", url: "https://example.org/zh", language: "zh-Hans" }, { markdown: "# 押金\n\n房东必须在租约结束后十四天内退还押金。\n\n# 维修\n\n房东负责房屋的主要维修。" }, actor, database.db);
    const english = await addSource({ countryId: 3, issueId: null, title: "Bond guide 押金", url: "https://example.org/en", language: "en" }, { markdown: "# Bond (押金)\n\nThe landlord returns the bond within fourteen days." }, actor, database.db);
    if (!chinese.ok || !english.ok) throw new Error("not added");
    expect(characterPairs("押金退还")).toEqual(["押金", "金退", "退还"]);
    const found = await searchPassages({ countryId: 3, query: "房东什么时候退还押金？" }, database.db);
    expect(found[0]).toMatchObject({ sourceTitle: "押金指南", heading: "押金", language: "zh-Hans" });
    expect(found.some((p) => p.heading === "维修")).toBe(true);
    // Another country's sources are not searched; nothing shared, nothing found.
    expect(await searchPassages({ countryId: 1, query: "退还押金" }, database.db)).toEqual([]);
    expect(await searchPassages({ countryId: 3, query: "离婚" }, database.db)).toEqual([]);
    // Both sources hold 押金: for a person reading English, the English passage comes first.
    const forEnglish = await searchPassages({ countryId: 3, query: "押金", language: "en" }, database.db);
    expect(forEnglish[0]?.language).toBe("en");
    expect((await searchPassages({ countryId: 3, query: "押金", language: "zh-Hans" }, database.db))[0]?.language).toBe("zh-Hans");
    await deleteSource(chinese.id, actor, database.db);
    await deleteSource(english.id, actor, database.db);
  });

  it("reads each passage with its language's stemming on PostgreSQL, changed with its source's language", async () => {
    const added = await addSource({ countryId: 3, issueId: null, title: "Expulsions", url: "https://example.org/expulsions", language: "fr" }, { markdown: "# Expulsions\n\nLes locataires peuvent contester les expulsions devant le tribunal." }, actor, database.db);
    if (!added.ok) throw new Error(added.message);
    expect((await searchPassages({ countryId: 3, query: "contester une expulsion" }, database.db))[0]).toMatchObject({ sourceTitle: "Expulsions", language: "fr" });
    const languages = await database.db.selectFrom("passages").select("language").where("source_id", "=", added.id).execute();
    expect(languages).toEqual([{ language: "fr" }]);
    if (dialect === "postgres") {
      const madeWith = async (config: string) =>
        (await sql<{ same: boolean }>`select p.search = (setweight(to_tsvector(${config}::regconfig, coalesce(p.heading, '')), 'A') || setweight(to_tsvector(${config}::regconfig, p.text), 'B')) as same from passages p where p.source_id = ${added.id}`.execute(database.db)).rows[0]?.same;
      expect(await madeWith("french")).toBe(true);
      await updateSource(added.id, { countryId: 3, issueId: null, title: "Expulsions", url: "https://example.org/expulsions", language: "vi" }, null, actor, database.db);
      expect(await madeWith("simple")).toBe(true);
    }
    await deleteSource(added.id, actor, database.db);
  });

  it("deletes a source with its passages, gone from search at once, and records who added and deleted it", async () => {
    const source = (await listSources(database.db)).find((s) => s.title === "Renting guide")!;
    expect(await deleteSource(source.id, actor, database.db)).toEqual({ title: "Renting guide" });
    expect(await deleteSource(source.id, actor, database.db)).toBeNull();
    expect((await searchPassages({ countryId: 3, issueId: 10, query: "burst water repairs" }, database.db)).some((p) => p.sourceTitle === "Renting guide")).toBe(false);
    expect(await database.db.selectFrom("passages").select("id").where("source_id", "=", source.id).execute()).toEqual([]);
    const { events } = await listAuditEvents(1, database.db);
    expect(events[0]).toMatchObject({ action: "source.deleted", subject: "Renting guide", actorEmail: "lead@example.org" });
    expect(events.filter((e) => e.action === "source.added").map((e) => e.subject)).toContain("Renting guide");
  });
});

it("the seed sources are plain markdown with a public link", () => {
  const bond = readFileSync(path.join(seedDir, "sources/rental-bond-australia.md"), "utf8");
  expect(bond).toMatch(/^---\ntitle: .+\nurl: https:\/\//);
});
