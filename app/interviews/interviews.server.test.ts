import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { deleteInterview, findInterview, listInterviews, loadInterview, saveInterview } from "./interviews.server";

describe.each(dialects)("interviews on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, alice, "alice@example.org");
    await insertTestUser(handle.db, bob, "bob@example.org");
    const day = 86_400_000;
    const rows = Array.from({ length: 12 }, (_, i) => ({
      id: `alice-${String(i).padStart(2, "0")}`,
      user_id: alice,
      issue_id: i % 2 ? 2 : 6,
      status: (i % 4 === 0 ? "Completed" : "Draft") as "Completed" | "Draft",
      vars: "{}",
      engine_state: "{}",
      created_at: new Date(Date.UTC(2030, 0, 1) + i * day).toISOString(),
      updated_at: new Date(Date.UTC(2030, 0, 1) + i * day).toISOString(),
    }));
    rows.push({ ...rows[0]!, id: "bob-0", user_id: bob });
    await handle.db.insertInto("interviews").values(rows).execute();
  });
  afterAll(() => handle?.drop());

  it("lists one user's interviews newest first, with the issue name, page by page", async () => {
    const first = await listInterviews(alice, { page: 1, pageSize: 5 }, handle.db);
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 5, pageCount: 3 });
    expect(first.items.map((i) => i.id)).toEqual(["alice-11", "alice-10", "alice-09", "alice-08", "alice-07"]);
    expect(first.items[0]).toMatchObject({ issueId: 2, issueName: "Criminal records and spent convictions", status: "Draft" });
    const last = await listInterviews(alice, { page: 3, pageSize: 5 }, handle.db);
    expect(last.items.map((i) => i.id)).toEqual(["alice-01", "alice-00"]);
    expect((await listInterviews(alice, { page: 9, pageSize: 10 }, handle.db)).page).toBe(2);
    expect((await listInterviews(bob, { page: 1, pageSize: 25 }, handle.db)).items.map((i) => i.id)).toEqual(["bob-0"]);
  });

  it("finds and deletes only the owner's interviews", async () => {
    expect(await findInterview(bob, "alice-03", handle.db)).toBeNull();
    expect(await deleteInterview(bob, "alice-03", handle.db)).toBe(false);
    expect(await findInterview(alice, "alice-03", handle.db)).toMatchObject({ id: "alice-03", status: "Draft" });
    expect(await deleteInterview(alice, "alice-03", handle.db)).toBe(true);
    expect(await findInterview(alice, "alice-03", handle.db)).toBeNull();
  });

  it("keeps an open Check your answers with the history, so a resumed interview is not completed unconfirmed", async () => {
    const history = [{ interviewPage: "7-Finish instructions", repeatVarValue: null, outerLoopVarValue: null }];
    const review = { target: "ASSEMBLE-SUCCESS" as const, history, changing: false };
    const id = await saveInterview({ id: null, userId: alice, issueId: 2, status: "Draft", state: { answers: {}, history, review } }, handle.db);
    expect((await loadInterview(alice, id, handle.db))?.state).toMatchObject({ history, review });
    await saveInterview({ id, userId: alice, issueId: 2, status: "Completed", state: { answers: {}, history } }, handle.db);
    expect((await loadInterview(alice, id, handle.db))?.state.review).toBeUndefined();
  });

  it("goes when its user goes", async () => {
    await handle.db.deleteFrom("users").where("id", "=", bob).execute();
    expect((await listInterviews(bob, { page: 1, pageSize: 5 }, handle.db)).total).toBe(0);
  });
});
