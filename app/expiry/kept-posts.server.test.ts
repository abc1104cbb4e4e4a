import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { formOf, KEPT_POST_MAX_CHARS, KEPT_POST_MS, keepPost, purgeKeptPosts, takeKeptPost } from "./kept-posts.server";

describe.each(dialects)("forms kept after a session expired, on %s", (dialect) => {
  let database: TestDatabase;
  const alice = randomUUID();
  const bob = randomUUID();
  const page = { purpose: "interview" as const, path: "/issues/1/interviews/abc" };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, alice, "alice@example.org");
    await insertTestUser(database.db, bob, "bob@example.org");
  });
  afterAll(() => database?.drop());

  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [name, value] of Object.entries(fields)) f.append(name, value);
    return f;
  };

  it("keeps the form sealed, and gives it back once, to its account, on its page", async () => {
    const id = await keepPost({ userId: alice, interviewId: null, ...page }, form({ _page: "02-About you", "First name TE": "Alex Tan" }), database.db);
    expect(id).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const [row] = await database.db.selectFrom("kept_posts").selectAll().execute();
    expect(row!.form.startsWith("enc1:")).toBe(true);
    expect(row!.form).not.toContain("Alex");
    expect(row!.id_hash).not.toBe(id);

    const taken = await takeKeptPost(id!, { userId: alice, ...page }, database.db);
    expect(taken?.fields).toEqual([["_page", "02-About you"], ["First name TE", "Alex Tan"]]);
    expect(formOf(taken!.fields).get("First name TE")).toBe("Alex Tan");
    // Used once.
    expect(await takeKeptPost(id!, { userId: alice, ...page }, database.db)).toBeNull();
  });

  it("gives nothing to another account, another purpose or another page, and keeps it for its own", async () => {
    const id = (await keepPost({ userId: alice, interviewId: null, ...page }, form({ text: "mine" }), database.db))!;
    expect(await takeKeptPost(id, { userId: bob, ...page }, database.db)).toBeNull();
    expect(await takeKeptPost(id, { userId: alice, purpose: "rephrase", path: page.path }, database.db)).toBeNull();
    expect(await takeKeptPost(id, { userId: alice, purpose: "interview", path: "/issues/1/interviews/other" }, database.db)).toBeNull();
    expect(await takeKeptPost("not-an-id", { userId: alice, ...page }, database.db)).toBeNull();
    expect((await takeKeptPost(id, { userId: alice, ...page }, database.db))?.fields).toEqual([["text", "mine"]]);
  });

  it("is bound to its interview, which takes it along when it is deleted", async () => {
    const now = new Date().toISOString();
    const interviewId = randomUUID();
    await database.db.insertInto("categories").values({ id: 1, name: "Singapore", sort_order: 1 }).execute();
    await database.db.insertInto("issues").values({ id: 1, category_id: 1, name: "Divorce", content: "", guide_id: null, guide_path: null, model_ai: "m", rephrase_content: "" }).execute();
    await database.db.insertInto("interviews").values({ id: interviewId, user_id: alice, issue_id: 1, status: "Draft", vars: "{}", engine_state: "{}", guide_id: null, guide_version: null, created_at: now, updated_at: now }).execute();
    const place = { userId: alice, purpose: "rephrase" as const, path: `/ai/rephrase/${interviewId}?variable=X`, interviewId };
    const id = (await keepPost(place, form({ text: "kept" }), database.db))!;
    const taken = await takeKeptPost(id, place, database.db);
    expect(taken).toEqual({ fields: [["text", "kept"]], interviewId });
    const again = (await keepPost(place, form({ text: "kept" }), database.db))!;
    await database.db.deleteFrom("interviews").where("id", "=", interviewId).execute();
    expect(await takeKeptPost(again, place, database.db)).toBeNull();
  });

  it("expires after its hour, and housekeeping removes it", async () => {
    const then = new Date("2026-01-01T10:00:00Z");
    const id = (await keepPost({ userId: alice, interviewId: null, ...page }, form({ a: "1" }), database.db, then))!;
    const late = new Date(then.getTime() + KEPT_POST_MS + 1000);
    expect(await takeKeptPost(id, { userId: alice, ...page }, database.db, late)).toBeNull();
    const other = (await keepPost({ userId: alice, interviewId: null, ...page }, form({ a: "2" }), database.db, then))!;
    expect(await purgeKeptPosts(database.db, new Date(then.getTime() + 1000))).toBe(0);
    expect(await purgeKeptPosts(database.db, late)).toBeGreaterThanOrEqual(1);
    expect(await takeKeptPost(other, { userId: alice, ...page }, database.db, then)).toBeNull();
  });

  it("goes with the account, and keeps no form too big to keep", async () => {
    expect(await keepPost({ userId: bob, interviewId: null, ...page }, form({ text: "x".repeat(KEPT_POST_MAX_CHARS + 1) }), database.db)).toBeNull();
    const id = (await keepPost({ userId: bob, interviewId: null, ...page }, form({ text: "bob's" }), database.db))!;
    await database.db.deleteFrom("users").where("id", "=", bob).execute();
    expect(await database.db.selectFrom("kept_posts").select("id_hash").where("user_id", "=", bob).execute()).toEqual([]);
    expect(id).toBeTruthy();
  });
});
