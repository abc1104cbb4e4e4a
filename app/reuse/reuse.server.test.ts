import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { answersFromJSON, loadGuide, loadGuideObject } from "~/a2j";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { versionedGuide } from "../../tests/support/guide-fixtures";
import { loadInterview, saveInterview } from "~/interviews/interviews.server";
import { answersFromCarried, carriedAnswer, offersReusedAnswers, reusableAnswers, setOffersReusedAnswers } from "./reuse.server";
import { addAnswersTo, draftInterviewOf, newInterviewOf, offeredCount, startInterviewWith, stillFitting } from "./start.server";

const loaded = loadGuide(readFileSync("tests/fixtures/guides/en-court-form/Guide.json", "utf8"));
if (!loaded.ok) throw new Error(loaded.error);
const court = loaded.guide;
const complete = answersFromJSON(readFileSync("tests/fixtures/guides/scenarios/en-small-claims/complete.json", "utf8"));
if (!complete.ok) throw new Error(complete.error);
const text = (name: string, value: string) => ({ name, type: "Text" as const, repeating: false, values: [null, value] });

describe.each(dialects)("answers reused on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importGuide("court-form", await readGuideFolder("tests/fixtures/guides/en-court-form"), handle.db);
    await handle.db
      .insertInto("issues")
      .values({ id: 901, name: "Court form", guide_id: "court-form", category_id: 1, content: "", guide_path: "court-form/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" })
      .execute();
    await insertTestUser(handle.db, alice, "alice@example.org");
    await insertTestUser(handle.db, bob, "bob@example.org");
    await handle.db.updateTable("users").set({ first_name: "Alice", last_name: "Ng" }).where("id", "=", alice).execute();
    // Alice finished a small claims interview; Bob answered one question, later, with his own name.
    await saveInterview({ id: null, userId: alice, issueId: 2, status: "Completed", state: { answers: complete.value, history: [] } }, handle.db);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await saveInterview({ id: null, userId: bob, issueId: 2, status: "Draft", state: { answers: { "nom te": text("Nom TE", "Bob Stone"), "delai nu": { name: "Delai NU", type: "Number", repeating: false, values: [null, "soon"] } }, history: [] } }, handle.db);
  });
  afterAll(() => handle?.drop());

  it("offers a person the answers of their own interviews that fit the guide, never another person's", async () => {
    const offered = await reusableAnswers(alice, court, handle.db);
    expect(offered.map((a) => [a.name, a.values])).toEqual([
      ["Nom TE", ["Mary Tremblay"]],
      ["Adresse TE", ["123 Main Street, Sherbrooke, Quebec"]],
      ["Date naissance DA", ["03/14/1985"]],
      ["Type reclamation MC", ["work that was done badly or not finished"]],
      ["Delai NU", [10]],
    ]);
    expect(offered[0]?.source).toMatchObject({ kind: "interview", issueName: "Criminal records and spent convictions" });
    // Bob's one answer that fits is his; his "soon" is no number, so it is not offered.
    const bobs = await reusableAnswers(bob, court, handle.db);
    expect(bobs.map((a) => [a.name, a.values])).toEqual([["Nom TE", ["Bob Stone"]]]);
    expect(JSON.stringify(bobs)).not.toContain("Tremblay");
  });

  it("offers the profile's names for the variables named after them, and nothing once the person turns it off", async () => {
    const named = loadGuideObject(versionedGuide("Names", 1));
    if (!named.ok) throw new Error(named.error);
    const offered = await reusableAnswers(alice, named.guide, handle.db);
    expect(offered.map((a) => [a.name, a.values, a.source.kind])).toEqual([["First name TE", ["Alice"], "profile"]]);
    expect(await offeredCount({ id: alice, administrator: false }, 901, null, handle.db)).toBe(5);
    expect(await offersReusedAnswers(alice, handle.db)).toBe(true);
    await setOffersReusedAnswers(alice, false, handle.db);
    expect(await offersReusedAnswers(alice, handle.db)).toBe(false);
    expect(await reusableAnswers(alice, court, handle.db)).toEqual([]);
    expect(await offersReusedAnswers(bob, handle.db)).toBe(true);
    await setOffersReusedAnswers(alice, true, handle.db);
  });

  it("starts an interview with only the confirmed answers, checked again against the guide", async () => {
    const user = { id: alice, administrator: false };
    const opened = (await newInterviewOf(user, 901, null, handle.db))!;
    const carried = [
      carriedAnswer({ name: "Nom TE", values: ["Alice Ng"] }),
      carriedAnswer({ name: "Delai NU", values: ["soon"] }),
      carriedAnswer({ name: "Not in this guide TE", values: ["x"] }),
      "{not json",
    ];
    const chosen = stillFitting(opened, answersFromCarried(carried));
    expect(chosen.map((a) => a.name)).toEqual(["Nom TE"]);
    const id = await startInterviewWith(user, opened, chosen, handle.db);
    const started = await loadInterview(alice, id, handle.db);
    expect(started).toMatchObject({ status: "Draft", issueId: 901, guide: { guideId: "court-form", version: 1 } });
    expect(started!.state.answers["nom te"]?.values).toEqual([null, "Alice Ng"]);
    expect(started!.state.answers["delai nu"]?.values ?? [null]).toEqual([null]);
    expect(started!.state.history.length).toBe(1);
    expect(await loadInterview(bob, id, handle.db)).toBeNull();

    // An answer file into the interview under way: only its owner's, and only while it is a Draft.
    expect(await draftInterviewOf({ id: bob, administrator: false }, 901, id, handle.db)).toBeNull();
    const draft = (await draftInterviewOf(user, 901, id, handle.db))!;
    await addAnswersTo(user, draft, stillFitting(draft, answersFromCarried([carriedAnswer({ name: "Adresse TE", values: ["9 Rue du Port"] })])), handle.db);
    const added = await loadInterview(alice, id, handle.db);
    expect(added!.state.answers["adresse te"]?.values).toEqual([null, "9 Rue du Port"]);
    expect(added!.state.answers["nom te"]?.values).toEqual([null, "Alice Ng"]);
    await saveInterview({ id, userId: alice, issueId: 901, status: "Completed", state: added!.state }, handle.db);
    expect(await draftInterviewOf(user, 901, id, handle.db)).toBeNull();
  });
});
