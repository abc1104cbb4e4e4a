import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { formatDaysFor, startInterview } from "~/a2j";
import { getIssue } from "~/content/content.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { getGuide } from "~/guides/guides.server";
import { interviewAnswersAnx, loadInterview, saveInterview, today } from "~/interviews/interviews.server";
import { endSession, startSession } from "~/auth/session.server";
import { loadSessionAndInterview, openViewer, pressButton, viewerPage } from "./viewer.server";

describe.each(dialects)("opening the viewer on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = { id: randomUUID(), firstName: "A", lastName: "B", email: "alice@example.org", administrator: false, helper: false };
  const bob = { id: randomUUID(), firstName: "A", lastName: "B", email: "bob@example.org", administrator: false, helper: false };
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
    interviewId = await saveInterview({ id: null, userId: alice.id, issueId: 901, status: "Draft", state: started.state }, db);
  });
  afterAll(() => handle?.drop());

  it("reads the issue, the guide and the user's interview as the separate reads do", async () => {
    const opened = await openViewer(alice, { preview: false, issueId: 901, interviewId }, null, handle.db);
    const issue = (await getIssue(901, handle.db))!;
    const interview = (await loadInterview(alice.id, interviewId, handle.db))!;
    expect(opened).toEqual({
      issue: { ...issue, guideId: "step-test" },
      guide: await getGuide("step-test", handle.db),
      language: "en",
      pin: { guideId: "step-test", version: 1 },
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
    expect(own.session?.user).toEqual({ id: alice.id, firstName: "A", lastName: "B", email: alice.email, administrator: false, helper: false, language: null });
    expect(own.opened).toEqual(await openViewer(alice, target, null, handle.db));
    // Another person's interview, another issue's, an unknown one: the session, and nothing opened.
    for (const [cookie, other] of [[bobCookie, target], [aliceCookie, { ...target, issueId: 902 }], [aliceCookie, { ...target, interviewId: randomUUID() }]] as const) {
      const read = await loadSessionAndInterview(cookie, other, handle.db);
      expect(read.session?.user?.email).toBe(cookie === bobCookie ? bob.email : alice.email);
      expect(read.opened).toBeNull();
    }
    // No interview named, or a preview: the session alone, the rest left to openViewer.
    expect(await loadSessionAndInterview(aliceCookie, { ...target, interviewId: null }, handle.db)).toEqual({ session: own.session, stale: false, expiredUserId: null });
    // A revoked session is stale, and opens nothing.
    await endSession(own.session, handle.db);
    expect(await loadSessionAndInterview(aliceCookie, target, handle.db)).toEqual({ session: null, stale: true, expiredUserId: null });
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

/** A guide asking one date, then showing it back in a macro (A2J's own field label says month/day/year). */
const dateGuide = {
  title: "Dates",
  firstPage: "Born",
  steps: [{ number: "0", text: "About you" }, { number: "1", text: "Check" }],
  vars: { "birth date da": { name: "Birth date DA", type: "Date" }, "name te": { name: "Name TE", type: "Text" } },
  pages: {
    Born: {
      name: "Born",
      step: 0,
      text: "<p>When were you born?</p>",
      fields: [
        { type: "text", name: "Name TE", label: "Name", required: true },
        { type: "datemdy", name: "Birth date DA", label: "Date of birth (month/day/year)", required: true, max: "TODAY" },
      ],
      buttons: [{ label: "Continue", next: "Shown" }],
    },
    Shown: { name: "Shown", step: 1, text: "<p>You were born on %%[Birth date DA]%%.</p>", buttons: [{ label: "Done", next: "" }] },
  },
};

describe.each(dialects)("dates in the country's order on %s", (dialect) => {
  let handle: TestDatabase;
  const person = { id: randomUUID(), firstName: "D", lastName: "E", email: "dates@example.org", administrator: false, helper: false };

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    const db = handle.db;
    await migrateToLatest(db);
    await seedDatabase(db, "db/seed");
    await insertTestUser(db, person.id, person.email);
    await importGuide("dates", new Map([["Guide.json", new TextEncoder().encode(JSON.stringify(dateGuide))]]), db);
    // A country the content does not describe keeps A2J's month/day/year (the migration's default).
    await db.insertInto("categories").values({ id: 950, name: "United States", sort_order: 9 }).execute();
    const issue = { content: "", guide_id: "dates", guide_path: "dates/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" };
    await db.insertInto("issues").values([
      { id: 951, name: "In Singapore", category_id: 1, ...issue },
      { id: 952, name: "In the United States", category_id: 950, ...issue },
    ]).execute();
  });
  afterAll(() => handle?.drop());

  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries({ _page: "Born", _button: "0", "name te": "Ann", ...fields })) data.set(name, value);
    return data;
  };
  const open = async (issueId: number, interviewId: string | null = null) =>
    (await openViewer(person, { preview: false, issueId, interviewId }, null, handle.db))!;

  it("seeds each country's way of writing dates, and reads it with the issue", async () => {
    expect((await getIssue(1, handle.db))!.country).toEqual({ id: 1, name: "Singapore", dates: { order: "DMY", style: "long" } });
    expect((await getIssue(952, handle.db))!.country.dates).toEqual({ order: "MDY", style: "numeric" });
  });

  it("a Singapore date typed as 13, 1, 1990 is stored as A2J's 01/13/1990 (answers and ANX) and shown as 13 January 1990", async () => {
    const pressed = await pressButton(person, await open(951), form({ "birth date da-day": "13", "birth date da-month": "1", "birth date da-year": "1990" }), false, handle.db);
    if (pressed.kind !== "page") throw new Error(JSON.stringify(pressed));
    // Answers and ANX as stored (sealed at rest), opened the way the application opens them.
    const stored = await loadInterview(person.id, pressed.interviewId!, handle.db);
    expect(stored!.state.answers["birth date da"]!.values[1]).toBe("01/13/1990");
    expect(await interviewAnswersAnx(person.id, pressed.interviewId!, handle.db)).toContain("<DateValue>13/01/1990</DateValue>");
    const shown = viewerPage(await open(951, pressed.interviewId))!;
    expect(shown.text).toContain("You were born on 13 January 1990.");
  });

  it("a US issue keeps month/day/year: the same boxes make the same stored date, shown as A2J shows it", async () => {
    const first = viewerPage(await open(952))!;
    expect(first.dates).toEqual({ order: "MDY", style: "numeric", language: "en" });
    const pressed = await pressButton(person, await open(952), form({ "birth date da-month": "1", "birth date da-day": "13", "birth date da-year": "1990" }), false, handle.db);
    if (pressed.kind !== "page") throw new Error(JSON.stringify(pressed));
    expect(viewerPage(await open(952, pressed.interviewId))!.text).toContain("You were born on 01/13/1990.");
  });

  it("a form that posts the date whole, as A2J's own viewer does, is read as A2J reads it", async () => {
    const pressed = await pressButton(person, await open(951), form({ "birth date da": "1/13/1990" }), false, handle.db);
    if (pressed.kind !== "page") throw new Error(JSON.stringify(pressed));
    expect((await loadInterview(person.id, pressed.interviewId!, handle.db))!.state.answers["birth date da"]!.values[1]).toBe("01/13/1990");
  });

  it("a wrong box is named and is the only one marked; what was typed comes back; other fields are checked too", async () => {
    const pressed = await pressButton(person, await open(951), form({ "name te": "", "birth date da-day": "32", "birth date da-month": "1", "birth date da-year": "1990" }), false, handle.db);
    if (pressed.kind !== "invalid") throw new Error(JSON.stringify(pressed));
    expect(pressed.page.errors.map((e) => e.message)).toEqual([
      "You must type a response in the highlighted space before you can continue.",
      "The day must be a number from 1 to 31.",
    ]);
    expect(pressed.page.fields[1]).toMatchObject({ label: "Date of birth", date: { day: "32", month: "1", year: "1990" }, errorBoxes: ["day"] });

    // The engine's own checks write their dates the country's way too.
    const future = await pressButton(person, await open(951), form({ "birth date da-day": "1", "birth date da-month": "1", "birth date da-year": "9999" }), false, handle.db);
    if (future.kind !== "invalid") throw new Error(JSON.stringify(future));
    expect(future.page.fields[1]).toMatchObject({ errorBoxes: ["day", "month", "year"], date: { day: "1", month: "1", year: "9999" } });
    expect(future.page.errors[0]!.message).toBe(`Please enter a date on or before ${formatDaysFor(today(), { order: "DMY", style: "long" })}.`);
  });
});
