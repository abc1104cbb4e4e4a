import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { LETTER_ANSWERS_JSON, scenarioGuideZip } from "../../tests/support/guide-fixtures";
import { answersFromJSON, type Answers } from "~/a2j";
import { uploadGuide } from "~/administration/guides.server";
import { listAuditEvents } from "~/audit/audit.server";
import { saveInterview } from "~/interviews/interviews.server";
import { listScenarios, scenarioRuns } from "./checks.server";
import { forgetGivenAnswers, giveAnswersForTesting, givenAnswersActor, withoutIdentity } from "./given-answers.server";

// "Help check this interview" (issue 32): a person's completed answers, by their choice and without who they
// are, become one of the guide's test scenarios.

const zipFile = (bytes: Uint8Array) => new File([Buffer.from(bytes)], "guide.zip", { type: "application/zip" });
const letterAnswers = (): Answers => {
  const read = answersFromJSON(LETTER_ANSWERS_JSON);
  if (!read.ok) throw new Error(read.error);
  return read.value;
};

describe("a copy without who gave it", () => {
  it("replaces words typed with placeholders (the same words the same placeholder), drops files, keeps choices, numbers, dates and A2J's bookkeeping", () => {
    const copy = withoutIdentity({
      "first name te": { name: "First name TE", type: "Text", repeating: false, values: [null, "Ada"] },
      "child name te": { name: "Child name TE", type: "Text", repeating: true, values: [null, "Ben", "Ada", ""] },
      "street te": { name: "Street TE", type: "Other", repeating: false, values: [null, "1 Main Street"] },
      "need mc": { name: "Need MC", type: "MC", repeating: false, values: [null, "letter"] },
      "amount nu": { name: "Amount NU", type: "Number", repeating: false, values: [null, 250] },
      "paid tf": { name: "Paid TF", type: "TF", repeating: false, values: [null, false] },
      "born da": { name: "Born DA", type: "Date", repeating: false, values: [null, "01/02/1990"] },
      "payslip at": { name: "Payslip AT", type: "Attachment", repeating: false, values: [null, "attachments/x.pdf"] },
      "a2j visited pages": { name: "A2J Visited Pages", type: "Text", repeating: false, values: [null, '[{"interviewPage":"Letter"}]'] },
    });
    expect(Object.fromEntries(Object.entries(copy).map(([key, v]) => [key, v.values]))).toEqual({
      "first name te": [null, "Answer 1"],
      "child name te": [null, "Answer 2", "Answer 1", ""],
      "street te": [null, "Answer 3"],
      "need mc": [null, "letter"],
      "amount nu": [null, 250],
      "paid tf": [null, false],
      "born da": [null, "01/02/1990"],
      "a2j visited pages": [null, '[{"interviewPage":"Letter"}]'],
    });
  });
});

describe.each(dialects)("answers a person gives for testing on %s", (dialect) => {
  let handle: TestDatabase;
  const admin = { id: randomUUID(), email: "checker@example.org", address: "203.0.113.9" };
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await insertTestUser(handle.db, admin.id, admin.email);
    await insertTestUser(handle.db, alice, "alice@example.org");
    await insertTestUser(handle.db, bob, "bob@example.org");
    expect(await uploadGuide(admin, { kind: "new", guideId: "letters" }, zipFile(scenarioGuideZip("Letters", "Please pay within 14 days.", false)), handle.db)).toMatchObject({ ok: true });
    await handle.db.insertInto("categories").values({ id: 1, name: "Singapore", sort_order: 1 }).execute();
    await handle.db.insertInto("issues").values({ id: 1, category_id: 1, name: "Debts", content: "", guide_id: "letters", guide_path: "letters/Guide.json", model_ai: "m", rephrase_content: "" }).execute();
  });
  afterAll(() => handle?.drop());

  it("makes a scenario of a completed interview's answers without who gave them, once, for its owner only", async () => {
    const interview = (status: "Draft" | "Completed") =>
      saveInterview({ id: null, userId: alice, issueId: 1, status, state: { answers: letterAnswers(), history: [] }, guide: { guideId: "letters", version: 1 } }, handle.db);
    const completed = await interview("Completed");
    const draft = await interview("Draft");

    expect(await giveAnswersForTesting(bob, completed, handle.db)).toBeNull();
    expect(await giveAnswersForTesting(alice, draft, handle.db)).toBeNull();
    expect(await giveAnswersForTesting(alice, randomUUID(), handle.db)).toBeNull();
    expect(await giveAnswersForTesting(alice, completed, handle.db)).toBe("given");
    expect(await giveAnswersForTesting(alice, completed, handle.db)).toBe("already-given");

    const scenarios = await listScenarios("letters", handle.db);
    expect(scenarios).toHaveLength(1);
    expect(scenarios[0]!.name).toMatch(/^Answers a person gave on \d{1,2} \w+ \d{4} \([0-9a-f]{8}\)$/);
    expect(scenarios[0]!.name).not.toContain(completed);
    expect(scenarios[0]!.createdByEmail).toBe(givenAnswersActor.email);
    const stored = await handle.db.selectFrom("guide_scenarios").select(["answers", "expectations"]).executeTakeFirstOrThrow();
    expect(stored.answers).not.toContain("Ada");
    expect(stored.answers).toContain("Answer 1");
    expect(stored.expectations).toBe("outcome: ASSEMBLE-SUCCESS");

    // It passes on the version the person used, and nothing in the audit names them.
    const runs = await scenarioRuns({ guideId: "letters", version: 1 }, handle.db);
    expect(runs?.map((r) => r.result.passed)).toEqual([true]);
    const { events } = await listAuditEvents(1, handle.db);
    const added = events.filter((e) => e.action === "guide.scenario-added");
    expect(added.map((e) => e.actorEmail)).toEqual([givenAnswersActor.email]);
    expect(JSON.stringify(events)).not.toContain("alice@example.org");
    expect(JSON.stringify(events)).not.toContain(completed);
  });

  it("removes what was given with the interview it came from, and nothing else", async () => {
    const given = await saveInterview({ id: null, userId: bob, issueId: 1, status: "Completed", state: { answers: letterAnswers(), history: [] }, guide: { guideId: "letters", version: 1 } }, handle.db);
    expect(await giveAnswersForTesting(bob, given, handle.db)).toBe("given");
    expect(await listScenarios("letters", handle.db)).toHaveLength(2);
    expect(await forgetGivenAnswers([randomUUID()], handle.db)).toBe(0);
    expect(await forgetGivenAnswers([given], handle.db)).toBe(1);
    expect(await listScenarios("letters", handle.db)).toHaveLength(1);
    const { events } = await listAuditEvents(1, handle.db);
    expect(events.filter((e) => e.action === "guide.scenario-deleted").map((e) => e.actorEmail)).toEqual([givenAnswersActor.email]);
  });
});
