import { randomUUID } from "node:crypto";
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { importSeedGuides } from "~/guides/import.server";
import { deleteInterview, saveInterview } from "~/interviews/interviews.server";
import { pageToken, pageTokenKey } from "./page-token.server";
import { CHECK_ANSWERS_PAGE, STOP_PAGE_MIN_COUNT } from "./usage";
import { issueUsage, pageNames, recentMonths, recordDownload, stopPages, usageOfAllIssues } from "./usage.server";

const at = (page: string) => ({
  interviewPage: page,
  repeatVarValue: null,
  outerLoopVarValue: null,
});
const state = (...pages: string[]) => ({ answers: {}, history: pages.map(at) });
const NOW = new Date("2030-03-15T12:00:00.000Z");
const ISSUE = 2;

describe.each(dialects)("usage on %s", (dialect) => {
  let handle: TestDatabase;
  const ann = randomUUID();
  const bo = randomUUID();

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: false }, handle.db);
    await insertTestUser(handle.db, ann, "ann@example.org");
    await insertTestUser(handle.db, bo, "bo@example.org");
    key = await pageTokenKey(handle.db);
  });
  afterAll(() => handle?.drop());
  let key: Buffer;
  const token = (page: string) => pageToken(page, key);

  let made = 0;
  /** An interview made at `created` on `page` (the events are written by the database, with the row's times). */
  async function interview(userId: string, created: string, page: string | null, issueId = ISSUE, language = "en"): Promise<string> {
    const id = `usage-${++made}`;
    await handle.db
      .insertInto("interviews")
      .values({
        id,
        user_id: userId,
        issue_id: issueId,
        status: "Draft",
        vars: "{}",
        engine_state: "{}",
        created_at: created,
        updated_at: created,
        last_page: page === null ? null : token(page),
        language,
      })
      .execute();
    return id;
  }
  const change = (id: string, updated: string, { page, ...set }: { status?: "Completed"; page?: string } = {}) =>
    handle.db
      .updateTable("interviews")
      .set({ ...set, ...(page === undefined ? {} : { last_page: token(page) }), updated_at: updated })
      .where("id", "=", id)
      .execute();

  it("keeps the page an interview is at on every save, as a keyed token, and counts it started once", async () => {
    const db = handle.db;
    const id = await saveInterview(
      {
        id: null,
        userId: ann,
        issueId: 6,
        status: "Draft",
        state: state("1-Introduction"),
      },
      db,
    );
    const page = async () => (await db.selectFrom("interviews").select("last_page").where("id", "=", id).executeTakeFirstOrThrow()).last_page;
    expect(await page()).toBe(token("1-Introduction"));
    expect(await page()).not.toContain("Introduction");
    await saveInterview(
      {
        id,
        userId: ann,
        issueId: 6,
        status: "Draft",
        state: state("1-Introduction", "1-Name and gender"),
      },
      db,
    );
    expect(await page()).toBe(token("1-Name and gender"));
    await saveInterview(
      {
        id,
        userId: ann,
        issueId: 6,
        status: "Draft",
        state: {
          ...state("1-Introduction", "7-Finish instructions"),
          review: {
            target: "SUCCESS",
            history: [at("1-Introduction")],
            changing: false,
          },
        },
      },
      db,
    );
    expect(await page()).toBe(token(CHECK_ANSWERS_PAGE));
    await saveInterview(
      {
        id,
        userId: ann,
        issueId: 6,
        status: "Completed",
        state: state("1-Introduction", "7-Finish instructions"),
      },
      db,
    );
    await saveInterview(
      {
        id,
        userId: ann,
        issueId: 6,
        status: "Completed",
        state: state("1-Introduction", "7-Finish instructions"),
      },
      db,
    );
    const kinds = await db.selectFrom("usage_events").select("kind").where("issue_id", "=", 6).orderBy("seq").execute();
    expect(kinds.map((k) => k.kind)).toEqual(["started", "completed"]);
  });

  it("counts started, completed, abandoned and downloaded by month, and where unfinished interviews stop", async () => {
    const db = handle.db;
    // January: ann starts and finishes one, and downloads it in January and February; bo stops on "1-Name and gender"
    // in January (abandoned: 30+ days without a change).
    const finished = await interview(ann, "2030-01-10T09:00:00.000Z", "1-Introduction");
    await change(finished, "2030-01-11T09:00:00.000Z", {
      status: "Completed",
      page: "7-Finish instructions",
    });
    await recordDownload(ISSUE, "en", db, new Date("2030-01-11T10:00:00.000Z"));
    await recordDownload(ISSUE, "en", db, new Date("2030-02-01T10:00:00.000Z"));
    // bo's is in French: the issue has a guide in French (docs/decisions/0048-guides-per-language.md).
    await interview(bo, "2030-01-20T09:00:00.000Z", "1-Name and gender", ISSUE, "fr");
    // March: bo's second one is on "Check your answers", changed yesterday: unfinished, not abandoned.
    const recent = await interview(bo, "2030-03-01T09:00:00.000Z", "1-Introduction");
    await change(recent, "2030-03-14T09:00:00.000Z", {
      page: CHECK_ANSWERS_PAGE,
    });

    const usage = await issueUsage(ISSUE, db, NOW);
    expect(usage?.issueName).toBe("Criminal records and spent convictions");
    expect(usage?.totals).toEqual({
      started: 3,
      completed: 1,
      abandoned: 1,
      downloaded: 2,
      signed: 0,
    });
    expect(usage?.months.map((m) => m.month)).toEqual(recentMonths(NOW));
    expect(usage?.months.slice(-3)).toEqual([
      {
        month: "2030-01",
        started: 2,
        completed: 1,
        abandoned: 1,
        downloaded: 1,
        signed: 0,
      },
      {
        month: "2030-02",
        started: 0,
        completed: 0,
        abandoned: 0,
        downloaded: 1,
        signed: 0,
      },
      {
        month: "2030-03",
        started: 1,
        completed: 0,
        abandoned: 0,
        downloaded: 0,
        signed: 0,
      },
    ]);
    expect(usage?.months.slice(0, -3).every((m) => m.started + m.completed + m.abandoned + m.downloaded === 0)).toBe(true);
    expect(usage?.languages).toEqual([
      { language: "en", started: 2, completed: 1, abandoned: 0, downloaded: 2, signed: 0 },
      { language: "fr", started: 1, completed: 0, abandoned: 1, downloaded: 0, signed: 0 },
    ]);
    expect(usage?.unfinished).toBe(2);
    // One interview on each page: under the minimum, so neither is named.
    expect(usage?.stopPages).toEqual([{ kind: "others", pages: 2, count: null }]);
    expect(await issueUsage(999_999, db, NOW)).toBeNull();
  });

  it("keeps the counts when interviews and accounts are deleted, with the page a deleted Draft was on", async () => {
    const db = handle.db;
    const before = (await issueUsage(ISSUE, db, NOW))!;
    // Four more stop on "1-Name and gender" in March (five with bo's): now named. Then ann deletes one and bo's account goes.
    const more = [];
    for (let i = 0; i < 4; i++) more.push(await interview(i < 2 ? ann : bo, "2030-03-10T09:00:00.000Z", "1-Name and gender"));
    expect((await issueUsage(ISSUE, db, NOW))?.stopPages).toEqual([
      { kind: "page", page: "1-Name and gender", count: 5 },
      { kind: "others", pages: 1, count: null },
    ]);
    expect(await deleteInterview(ann, more[0]!, db)).toBe(true);
    await db.deleteFrom("users").where("id", "=", bo).execute();
    expect(await db.selectFrom("interviews").select("id").where("user_id", "=", bo).execute()).toEqual([]);

    const after = (await issueUsage(ISSUE, db, NOW))!;
    // Every interview started or completed still counts. The deleted Drafts are abandoned, in their last change's
    // month: ann's one and bo's two from March, and bo's "Check your answers"; bo's January one was already.
    expect(after.totals).toEqual({
      ...before.totals,
      started: before.totals.started + 4,
      abandoned: 1 + 4,
    });
    expect(after.months.at(-1)).toEqual({
      month: "2030-03",
      started: 5,
      completed: 0,
      abandoned: 4,
      downloaded: 0,
      signed: 0,
    });
    expect(after.months.find((m) => m.month === "2030-01")).toMatchObject({
      started: 2,
      completed: 1,
      abandoned: 1,
    });
    // ann's remaining Draft is still on "1-Name and gender", with the four deleted there.
    expect(after.stopPages).toEqual([
      { kind: "page", page: "1-Name and gender", count: 5 },
      { kind: "others", pages: 1, count: null },
    ]);
    expect(after.unfinished).toBe(6);
    // Nothing in the events points at a person or an interview.
    const columns = Object.keys((await db.selectFrom("usage_events").selectAll().executeTakeFirstOrThrow()) as object).sort();
    expect(columns).toEqual(["issue_id", "kind", "language", "month", "page", "seq"]);
  });

  it("lists every issue with its totals, and every issue's by language", async () => {
    const { issues: all, languages } = await usageOfAllIssues(handle.db, NOW);
    expect(all.find((i) => i.issueId === ISSUE)).toMatchObject({
      issueName: "Criminal records and spent convictions",
      started: 7,
      completed: 1,
      abandoned: 5,
      downloaded: 2,
      signed: 0,
    });
    expect(all.find((i) => i.issueId === 6)).toMatchObject({
      started: 1,
      completed: 1,
      abandoned: 0,
      downloaded: 0,
      signed: 0,
    });
    expect(all.filter((i) => i.started === 0).length).toBeGreaterThan(0);
    const sum = (key: "started" | "completed" | "abandoned" | "downloaded", rows: readonly Record<typeof key, number>[]) => rows.reduce((n, row) => n + row[key], 0);
    for (const key of ["started", "completed", "abandoned", "downloaded"] as const) expect(sum(key, languages)).toBe(sum(key, all));
  });
});

describe.each(dialects)("usage back-filled from the interviews already there on %s", (dialect) => {
  let handle: TestDatabase;
  afterAll(() => handle?.drop());

  it("counts them started and completed, with no page known", async () => {
    handle = await createTestDatabase(dialect);
    // A database brought up to date before usage was counted (every migration but 0013, 0015 included; 0016 came after).
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== "0013_usage" && name < "0016"));
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => before } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const user = randomUUID();
    await insertTestUser(handle.db, user, "old@example.org");
    await handle.db.insertInto("categories").values({ id: 1, name: "Somewhere", sort_order: 1 }).execute();
    await handle.db
      .insertInto("issues")
      .values({
        id: 1,
        category_id: 1,
        name: "Old issue",
        content: "",
        guide_id: null,
        guide_path: null,
        model_ai: "",
        rephrase_content: "",
      })
      .execute();
    const old = (id: string, status: "Draft" | "Completed", created: string, updated: string) => ({
      id,
      user_id: user,
      issue_id: 1,
      status,
      vars: "{}",
      engine_state: "{}",
      created_at: created,
      updated_at: updated,
    });
    await handle.db
      .insertInto("interviews")
      .values([
        old("a", "Completed", "2029-11-02T00:00:00.000Z", "2029-12-01T00:00:00.000Z"),
        old("b", "Draft", "2029-11-05T00:00:00.000Z", "2029-11-06T00:00:00.000Z"),
      ])
      .execute();
    await migrateToLatest(handle.db);
    const usage = await issueUsage(1, handle.db, NOW);
    expect(usage?.totals).toEqual({
      started: 2,
      completed: 1,
      abandoned: 1,
      downloaded: 0,
      signed: 0,
    });
    expect(usage?.months.find((m) => m.month === "2029-11")).toMatchObject({
      started: 2,
      abandoned: 1,
    });
    expect(usage?.months.find((m) => m.month === "2029-12")).toMatchObject({
      completed: 1,
    });
    expect(usage?.stopPages).toEqual([{ kind: "unrecorded", count: 1 }]);
  });
});

describe("stop pages", () => {
  it("names pages with at least the minimum, most first, and groups the rest, showing their sum only when it reaches it", () => {
    const min = STOP_PAGE_MIN_COUNT;
    expect(
      stopPages([
        { page: "b", count: min },
        { page: "a", count: min + 3 },
        { page: "", count: min },
        { page: "c", count: min - 1 },
        { page: "d", count: 1 },
        { page: null, count: 2 },
        { page: undefined, count: 1 },
      ]),
    ).toEqual([
      { kind: "page", page: "a", count: min + 3 },
      { kind: "page", page: "b", count: min },
      { kind: "check-answers", count: min },
      { kind: "others", pages: 2, count: min },
      { kind: "retired", count: 1 },
      { kind: "unrecorded", count: 2 },
    ]);
    expect(stopPages([{ page: "c", count: min - 1 }])).toEqual([{ kind: "others", pages: 1, count: null }]);
    expect(stopPages([])).toEqual([]);
  });

  it("turns page tokens back into the guide's page names; a page the guide no longer has is unknown", () => {
    const key = Buffer.alloc(32, 9);
    const tokens = [
      { page: pageToken("1-Name and gender", key), count: 3 },
      { page: pageToken(CHECK_ANSWERS_PAGE, key), count: 2 },
      { page: pageToken("A page of the old version", key), count: 1 },
      { page: null, count: 4 },
    ];
    expect(pageNames(tokens, ["1-Introduction", "1-Name and gender"], key)).toEqual([
      { page: "1-Name and gender", count: 3 },
      { page: CHECK_ANSWERS_PAGE, count: 2 },
      { page: undefined, count: 1 },
      { page: null, count: 4 },
    ]);
  });
});
