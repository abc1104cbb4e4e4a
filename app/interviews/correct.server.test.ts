import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { readablePdf } from "../../tests/support/pdf";
import { attachmentPath, createAnswers, getRaw, varSet, type Guide } from "~/a2j";
import { getGuide } from "~/guides/guides.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { adoptAttachments, findAttachment, storeAttachment } from "./attachments.server";
import { draftFromCompleted } from "./correct.server";
import { deleteInterview, loadInterview, saveInterview } from "./interviews.server";

describe.each(dialects)("correcting a completed interview on %s", (dialect) => {
  let database: TestDatabase;
  let storage: AttachmentStorage;
  let guide: Guide;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, alice, "alice@example.org");
    await insertTestUser(database.db, bob, "bob@example.org");
    storage = storageFromConfig({}, database.db);
    await importGuide("case-summary", await readGuideFolder("db/seed/guides/case-summary"), database.db);
    guide = (await getGuide("case-summary", database.db))!;
    await database.db.insertInto("categories").values({ id: 1, name: "Singapore", sort_order: 1 }).execute();
    await database.db.insertInto("issues").values({ id: 1, category_id: 1, name: "Divorce", content: "", guide_id: "case-summary", guide_path: "case-summary/Guide.json", model_ai: "m", rephrase_content: "" }).execute();
  });
  afterAll(() => database?.drop());

  /** A completed interview that finished on the guide's last page with a file attached. */
  async function completedWithFile(userId: string) {
    const bytes = readablePdf(2000, () => randomBytes(1)[0]!);
    const stored = await storeAttachment({ userId, interviewId: null }, new File([bytes], "payslip.pdf"), storage, database.db);
    if (!stored.ok) throw new Error(stored.message);
    const answers = createAnswers(guide);
    varSet(answers, "First name TE", "Alex");
    varSet(answers, "Supporting document AT", stored.path);
    const history = ["01-Welcome", "02-About you", "12-Documents", "13-Review"].map((interviewPage) => ({ interviewPage, repeatVarValue: null, outerLoopVarValue: null }));
    const id = await saveInterview({ id: null, userId, issueId: 1, status: "Completed", state: { answers, history }, guide: { guideId: "case-summary", version: 1 } }, database.db);
    await adoptAttachments(userId, id, [stored.id], database.db);
    return { id, stored, bytes };
  }

  it("makes a new draft from it, on Check your answers, with copies of its answers and files; the completed one stays", async () => {
    const completed = await completedWithFile(alice);
    const draft = await draftFromCompleted(alice, completed.id, database.db, storage);
    expect(draft).toMatchObject({ issueId: 1 });
    expect(draft!.id).not.toBe(completed.id);

    const copy = (await loadInterview(alice, draft!.id, database.db))!;
    expect(copy).toMatchObject({ status: "Draft", guide: { guideId: "case-summary", version: 1 } });
    expect(copy.state.review).toMatchObject({ target: "ASSEMBLE-SUCCESS", changing: false });
    expect(copy.state.history.at(-1)?.interviewPage).toBe("13-Review");
    expect(getRaw(copy.state.answers, "First name TE")).toBe("Alex");
    expect(getRaw(copy.state.answers, "A2J Interview Incomplete TF")).toBe(true);
    const copiedPath = attachmentPath(copy.state.answers, "Supporting document AT")!;
    expect(copiedPath).toMatch(/^attachments\/[0-9a-f-]{36}\.pdf$/);
    expect(copiedPath).not.toBe(completed.stored.path);
    const copiedId = copiedPath.slice("attachments/".length, -".pdf".length);
    const copiedFile = (await findAttachment(alice, copiedId, database.db))!;
    expect(copiedFile.file_name).toBe("payslip.pdf");
    expect((await storage.get(copiedFile.storage_key))!.equals(completed.bytes)).toBe(true);

    const original = (await loadInterview(alice, completed.id, database.db))!;
    expect(original.status).toBe("Completed");
    expect(attachmentPath(original.state.answers, "Supporting document AT")).toBe(completed.stored.path);
    // Each keeps its own file: deleting the completed one leaves the draft's.
    expect(await deleteInterview(alice, completed.id, database.db)).toBe(true);
    expect((await storage.get(copiedFile.storage_key))!.equals(completed.bytes)).toBe(true);
  });

  it("only for the person's own completed interviews", async () => {
    const completed = await completedWithFile(alice);
    expect(await draftFromCompleted(bob, completed.id, database.db, storage)).toBeNull();
    const draft = await draftFromCompleted(alice, completed.id, database.db, storage);
    expect(await draftFromCompleted(alice, draft!.id, database.db, storage)).toBeNull();
    expect(await draftFromCompleted(alice, randomUUID(), database.db, storage)).toBeNull();
  });
});
