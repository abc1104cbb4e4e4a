import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { startInterview } from "~/a2j";
import { getIssue } from "~/content/content.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { getGuide } from "~/guides/guides.server";
import { loadInterview, saveInterview } from "~/interviews/interviews.server";
import { endSession, startSession } from "~/auth/session.server";
import { loadSessionAndInterview, openViewer } from "./viewer.server";

describe.each(dialects)("opening the viewer on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = { id: randomUUID(), firstName: "A", lastName: "B", email: "alice@example.org" };
  const bob = { id: randomUUID(), firstName: "A", lastName: "B", email: "bob@example.org" };
  let interviewId = "";

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    const db = handle.db;
    await migrateToLatest(db);
    await seedDatabase(db, "db/seed");
    await insertTestUser(db, alice.id, alice.email);
    await insertTestUser(db, bob.id, bob.email);
    await importGuide("step-test", await readGuideFolder("bench/fixtures/step-guide"), db);
    const issue = { category_id: 1, content: "", guide_path: "step-test/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" };
    await db.insertInto("issues").values([
      { id: 901, name: "With a guide", guide_id: "step-test", ...issue },
      { id: 902, name: "Same guide", guide_id: "step-test", ...issue },
      { id: 903, name: "Guide not imported", guide_id: "missing-guide", ...issue },
      { id: 904, name: "No guide", guide_id: null, ...issue },
    ]).execute();
    const guide = (await getGuide("step-test", db))!;
    const started = startInterview(guide, 20000);
    if (!started.ok) throw new Error("the guide does not start");
    interviewId = await saveInterview({ id: null, userId: alice.id, issueId: 901, status: "Draft", state: started.state, title: guide.title }, db);
  });
  afterAll(() => handle?.drop());

  it("reads the issue, the guide and the user's interview as the separate reads do", async () => {
    const opened = await openViewer(alice, { preview: false, issueId: 901, interviewId }, null, handle.db);
    const issue = (await getIssue(901, handle.db))!;
    const interview = (await loadInterview(alice.id, interviewId, handle.db))!;
    expect(opened).toEqual({
      issue: { ...issue, guideId: "step-test" },
      guide: await getGuide("step-test", handle.db),
      interviewId,
      status: "Draft",
      state: interview.state,
    });
  });

  it("reads the session and the interview in one query as loadSession and openViewer read them apart", async () => {
    const cookieOf = async (userId: string) => (await startSession({ userId }, null, handle.db)).split(";")[0]!;
    const [aliceCookie, bobCookie] = [await cookieOf(alice.id), await cookieOf(bob.id)];
    const target = { preview: false as const, issueId: 901, interviewId };
    const own = await loadSessionAndInterview(aliceCookie, target, handle.db);
    expect(own.stale).toBe(false);
    expect(own.session?.user).toEqual({ id: alice.id, firstName: "A", lastName: "B", email: alice.email });
    expect(own.opened).toEqual(await openViewer(alice, target, null, handle.db));
    // Another person's interview, another issue's, an unknown one: the session, and nothing opened.
    for (const [cookie, other] of [[bobCookie, target], [aliceCookie, { ...target, issueId: 902 }], [aliceCookie, { ...target, interviewId: randomUUID() }]] as const) {
      const read = await loadSessionAndInterview(cookie, other, handle.db);
      expect(read.session?.user?.email).toBe(cookie === bobCookie ? bob.email : alice.email);
      expect(read.opened).toBeNull();
    }
    // No interview named, or a preview: the session alone, the rest left to openViewer.
    expect(await loadSessionAndInterview(aliceCookie, { ...target, interviewId: null }, handle.db)).toEqual({ session: own.session, stale: false });
    // A revoked session is stale, and opens nothing.
    await endSession(own.session, handle.db);
    expect(await loadSessionAndInterview(aliceCookie, target, handle.db)).toEqual({ session: null, stale: true });
  });

  it("starts a fresh interview when the URL names none", async () => {
    const opened = await openViewer(alice, { preview: false, issueId: 902, interviewId: null }, null, handle.db);
    expect(opened).toMatchObject({ issue: { id: 902, guideId: "step-test" }, interviewId: null, status: "Draft" });
    expect(opened?.state.history).toHaveLength(1);
  });

  it("finds nothing for another user's interview, another issue, an unknown issue or a missing guide", async () => {
    const none = [
      openViewer(bob, { preview: false, issueId: 901, interviewId }, null, handle.db),
      openViewer(alice, { preview: false, issueId: 902, interviewId }, null, handle.db),
      openViewer(alice, { preview: false, issueId: 901, interviewId: randomUUID() }, null, handle.db),
      openViewer(alice, { preview: false, issueId: 999, interviewId: null }, null, handle.db),
      openViewer(alice, { preview: false, issueId: 903, interviewId: null }, null, handle.db),
      openViewer(alice, { preview: false, issueId: 904, interviewId: null }, null, handle.db),
    ];
    expect(await Promise.all(none)).toEqual([null, null, null, null, null, null]);
  });

  it("sees a guide imported again", async () => {
    const before = (await openViewer(alice, { preview: false, issueId: 901, interviewId }, null, handle.db))!.guide;
    const files = await readGuideFolder("bench/fixtures/step-guide");
    const source = JSON.parse(new TextDecoder().decode(files.get("Guide.json")!)) as { title: string };
    files.set("Guide.json", new TextEncoder().encode(JSON.stringify({ ...source, title: "Renamed" })));
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later import time
    await importGuide("step-test", files, handle.db);
    const after = (await openViewer(alice, { preview: false, issueId: 901, interviewId }, null, handle.db))!.guide;
    expect(before.title).toBe("Step benchmark guide");
    expect(after.title).toBe("Renamed");
  });
});
