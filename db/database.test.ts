import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getHomeContent, getIssue, getLegalDocument, listCountries } from "~/content/content.server";
import { createTestDatabase, dialects, type TestDatabase } from "../tests/support/databases";
import { migrateToLatest, migrations } from "./migrate";
import { applySeedContent, readSeedContent, seedDatabase, seedIfEmpty } from "./seed";

describe.each(dialects)("data layer on %s", (dialect) => {
  let handle: TestDatabase;

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await handle?.drop();
  });

  it("applies every migration once, and a second run applies none", async () => {
    const first = await migrateToLatest(handle.db);
    expect(first.results?.map((r) => r.migrationName)).toEqual(Object.keys(migrations));
    expect(first.results?.every((r) => r.status === "Success")).toBe(true);
    const second = await migrateToLatest(handle.db);
    expect(second.results).toEqual([]);
  });

  it("enforces the country of an issue (foreign keys are on)", async () => {
    await expect(
      handle.db
        .insertInto("issues")
        .values({ id: 9999, category_id: 424242, name: "Orphan", content: "", guide_id: null, guide_path: null, model_ai: "m", rephrase_content: "" })
        .execute(),
    ).rejects.toThrow();
  });

  it("seeds the content of db/seed on an empty database, once", async () => {
    expect(await seedIfEmpty(handle.db, "db/seed")).toBe(true);
    expect(await seedIfEmpty(handle.db, "db/seed")).toBe(false);
    // The seed command may run again at any time: same rows, no duplicates.
    await seedDatabase(handle.db, "db/seed");
    const seed = await readSeedContent("db/seed");
    const { count } = await handle.db
      .selectFrom("issues")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(seed.issues.length);
  });

  it("has at least 3 countries with 2 or more issues each, sorted by their order", async () => {
    const countries = await listCountries(handle.db);
    expect(countries.length).toBeGreaterThanOrEqual(3);
    for (const country of countries) expect(country.issues.length).toBeGreaterThanOrEqual(2);
    const orders = countries.map((c) => c.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    // Ids are not in display order in the seed, so this proves the sort is by order, not id.
    expect(countries.map((c) => c.id)).not.toEqual([...countries.map((c) => c.id)].sort((a, b) => a - b));
  });

  it("reads an issue with its country, and null for an unknown id", async () => {
    const issue = await getIssue(2, handle.db);
    expect(issue).toMatchObject({
      id: 2,
      country: { id: 2, name: "United Kingdom" },
      guideId: "re-entry-navigator",
      modelAI: "gpt-3.5-turbo",
    });
    expect(issue?.content).toContain("Sample content");
    expect(await getIssue(123456, handle.db)).toBeNull();
  });

  it("reads the home page and the legal documents", async () => {
    expect(await getHomeContent(handle.db)).toMatchObject({ headline: expect.any(String), bodyCopy: expect.any(String) });
    for (const [slug, name] of [
      ["terms", "Terms and Conditions"],
      ["privacy", "Privacy Policy"],
      ["about", "About"],
    ] as const) {
      expect((await getLegalDocument(slug, handle.db))?.name).toBe(name);
    }
  });

  it("updates seeded rows in place when the seed changes", async () => {
    const seed = await readSeedContent("db/seed");
    const renamed = { ...seed, countries: seed.countries.map((c) => (c.id === 1 ? { ...c, name: "Singapura" } : c)) };
    await applySeedContent(handle.db, renamed);
    const countries = await listCountries(handle.db);
    expect(countries.find((c) => c.id === 1)?.name).toBe("Singapura");
    expect(countries).toHaveLength(seed.countries.length);
  });

  it("stores text exactly, including quotes and non-Latin characters", async () => {
    const content = `Ünïcödé — 日本語 — "quotes" and 'apostrophes'; drop table issues; --`;
    await handle.db.updateTable("legal_documents").set({ content }).where("slug", "=", "about").execute();
    expect((await getLegalDocument("about", handle.db))?.content).toBe(content);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
    expect(Number(rows[0]?.one)).toBe(1);
  });
});
