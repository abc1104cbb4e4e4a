import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { startInterview } from "~/a2j";
import { grantAdministrator, helperScope, removeHelper, roleMessages, saveHelper } from "~/administration/roles.server";
import { checkLink, signUpThroughInvitation } from "~/auth/accounts.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { configuredKeyring, dataKeyring, openText } from "~/security/data-encryption.server";
import { resealHelpTexts } from "./sealing.server";
import { getGuide } from "~/guides/guides.server";
import { latestInterviewOnIssue, listInterviews, saveInterview } from "~/interviews/interviews.server";
import { cancelPrepared, checkInvitation, claimInvitation, findPrepared, INVITATION_TTL_MS, prepareInterview, purgeUnclaimedPrepared, sendInvitation } from "./prepared.server";
import {
  aboutPlace,
  closeRequest,
  messagePlace,
  replyPlace,
  deskRequests,
  interviewNotes,
  openRequest,
  recordView,
  replyPages,
  replyToRequest,
  shareInterview,
  sharedFiles,
  sharingOfInterview,
  stopSharing,
  takeRequest,
} from "./shares.server";

// The outbox files of these tests go to a scratch folder.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-help-"));

const DAY = 86_400_000;
const actor = { id: null, email: "lead@example.org", address: "203.0.113.7" };
const person = (id: string, first: string, email: string) => ({ id, firstName: first, lastName: "Test", email });

describe.each(dialects)("help from a person on %s", (dialect) => {
  let handle: TestDatabase;
  const ann = person(randomUUID(), "Ann", "ann@example.org");
  const bo = person(randomUUID(), "Bo", "bo@example.org");
  const hal = person(randomUUID(), "Hal", "hal@example.org");
  const ida = person(randomUUID(), "Ida", "ida@example.org");
  const eve = person(randomUUID(), "Eve", "eve@example.org");
  const limitsOf = async (who: { id: string }) => (await helperScope(who.id, handle.db))!;
  let interviewId = "";

  /** An interview of the step guide with Ann's name answered on page A, saved as the viewer saves it. */
  async function plantInterview(userId: string, issueId: number, name: string) {
    const guide = (await getGuide("step-test", handle.db))!;
    const started = startInterview(guide, 20000);
    if (!started.ok) throw new Error("the guide does not start");
    const answers = { ...started.state.answers, "name te": { name: "Name TE", type: "Text" as const, repeating: false, values: [null, name] } };
    return saveInterview({ id: null, userId, issueId, status: "Draft", state: { ...started.state, answers }, guide: { guideId: "step-test", version: 1 } }, handle.db);
  }

  const outbox = (to: string) => handle.db.selectFrom("outbox_messages").selectAll().where("to_address", "=", to).orderBy("created_at").execute();

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    const db = handle.db;
    await migrateToLatest(db);
    await seedDatabase(db, "db/seed");
    for (const who of [ann, bo, hal, ida, eve]) await insertTestUser(db, who.id, who.email);
    await importGuide("step-test", await readGuideFolder("bench/fixtures/step-guide"), db);
    const issue = { content: "", guide_id: "step-test", guide_path: "step-test/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" };
    await db.insertInto("issues").values([
      { id: 901, category_id: 1, name: "Wages", ...issue },
      { id: 902, category_id: 2, name: "Tenancy", ...issue },
      { id: 903, category_id: 2, name: "Short-lived", ...issue },
    ]).execute();
    await grantAdministrator(bo.email, actor, db);
  });
  afterAll(() => handle?.drop());

  it("makes helpers with limits on the roles page's terms, audited, and a deleted issue never widens what a helper sees", async () => {
    const db = handle.db;
    expect(await saveHelper(bo.email, { countryIds: [], issueIds: [] }, actor, db)).toEqual({ ok: false, message: roleMessages.administratorNotHelper });
    expect(await saveHelper("nobody@example.org", { countryIds: [], issueIds: [] }, actor, db)).toEqual({ ok: false, message: roleMessages.noAccount });
    expect(await saveHelper(hal.email, { countryIds: [99999], issueIds: [] }, actor, db)).toEqual({ ok: false, message: roleMessages.unknownLimit });
    expect(await helperScope(hal.id, db)).toBeNull();
    expect(await saveHelper(hal.email, { countryIds: [1], issueIds: [] }, actor, db)).toEqual({ ok: true, email: hal.email, granted: true });
    expect(await saveHelper(ida.email, { countryIds: [], issueIds: [902, 903] }, actor, db)).toMatchObject({ ok: true, granted: true });
    expect(await saveHelper(eve.email, { countryIds: [], issueIds: [] }, actor, db)).toMatchObject({ ok: true, granted: true });
    expect(await limitsOf(hal)).toEqual({ everywhere: false, countryIds: [1], issueIds: [] });
    expect(await limitsOf(eve)).toEqual({ everywhere: true, countryIds: [], issueIds: [] });
    expect(await helperScope(ann.id, db)).toBeNull();

    // Changing the limits replaces them; removing the role takes the desk away at the next read.
    expect(await saveHelper(ida.email, { countryIds: [], issueIds: [903] }, actor, db)).toEqual({ ok: true, email: ida.email, granted: false });
    await db.deleteFrom("issues").where("id", "=", 903).execute();
    expect(await limitsOf(ida), "a helper whose only issue was deleted").toEqual({ everywhere: false, countryIds: [], issueIds: [] });
    expect(await saveHelper(ida.email, { countryIds: [], issueIds: [902] }, actor, db)).toMatchObject({ ok: true, granted: false });
    expect(await removeHelper(ann.email, actor, db)).toEqual({ ok: false, message: roleMessages.notHelper });
    expect(await removeHelper(eve.email, actor, db)).toEqual({ ok: true, email: eve.email });
    expect(await helperScope(eve.id, db)).toBeNull();
    await saveHelper(eve.email, { countryIds: [], issueIds: [] }, actor, db);

    const events = await db.selectFrom("audit_events").select(["action", "subject", "details"]).where("action", "like", "helper.%").orderBy("seq").execute();
    expect(events.map((event) => `${event.action} ${event.subject}`)).toEqual([
      `helper.granted ${hal.email}`,
      `helper.granted ${ida.email}`,
      `helper.granted ${eve.email}`,
      `helper.limits-changed ${ida.email}`,
      `helper.limits-changed ${ida.email}`,
      `helper.revoked ${eve.email}`,
      `helper.granted ${eve.email}`,
    ]);
    expect(JSON.parse(events[0]!.details)).toEqual({ role: "helper", countries: ["Singapore"], issues: [] });

    // An administrator made from a helper is no longer one.
    await insertTestUser(db, "temp-helper", "temp@example.org");
    await saveHelper("temp@example.org", { countryIds: [1], issueIds: [] }, actor, db);
    await grantAdministrator("temp@example.org", actor, db);
    expect(await helperScope("temp-helper", db)).toBeNull();
    expect(await db.selectFrom("helper_limits").select("user_id").where("user_id", "=", "temp-helper").execute()).toEqual([]);
  });

  it("shares what the person chose, sealed, for the helpers of its country or issue only, until the person stops", async () => {
    const db = handle.db;
    const now = new Date();
    interviewId = await plantInterview(ann.id, 901, "Ann Secretname");
    expect(await shareInterview(bo.id, interviewId, { answers: true, documents: false, files: false, message: null }, db), "another person's interview").toBeNull();
    const shared = await shareInterview(ann.id, interviewId, { answers: true, documents: true, files: true, message: "Please check my wages claim" }, db, now, 30);
    expect(shared).toMatchObject({ created: true });
    const shareId = shared!.id;
    expect(await shareInterview(ann.id, interviewId, { answers: true, documents: false, files: false, message: null }, db, now, 30)).toEqual({ id: shareId, created: false });
    const row = await db.selectFrom("interview_shares").selectAll().where("id", "=", shareId).executeTakeFirstOrThrow();
    expect(row.message).not.toContain("wages");
    // A document exists only once the interview is finished: a Draft shares none.
    expect({ answers: row.answers, documents: row.documents, files: row.files, language: row.language }).toEqual({ answers: 1, documents: 0, files: 1, language: "en" });
    expect(new Date(row.expires_at).getTime() - now.getTime()).toBe(30 * DAY);

    const listed = async (who: { id: string }, filters: Partial<Parameters<typeof deskRequests>[1]> = {}) =>
      (await deskRequests(await limitsOf(who), { status: "new", countryId: null, issueId: null, language: null, ...filters }, db)).requests.map((r) => r.id);
    expect(await listed(hal)).toEqual([shareId]);
    expect(await listed(eve)).toEqual([shareId]);
    expect(await listed(ida), "a helper for another issue").toEqual([]);
    expect(await listed(hal, { countryId: 2 })).toEqual([]);
    expect(await listed(hal, { issueId: 901, language: "en" })).toEqual([shareId]);
    expect(await listed(hal, { language: "fr" })).toEqual([]);
    expect(await listed(hal, { status: "taken" })).toEqual([]);
    expect(await openRequest(ida.id, await limitsOf(ida), shareId, db)).toBeNull();
    expect(await openRequest(hal.id, await limitsOf(hal), "not-a-uuid", db)).toBeNull();
    const seen = (await openRequest(hal.id, await limitsOf(hal), shareId, db))!;
    expect(seen).toMatchObject({ message: "Please check my wages claim", mine: false, issueName: "Wages", countryName: "Singapore" });

    // One helper takes it; the second is too late.
    expect(await takeRequest(seen, hal, actor, db)).toBe(true);
    expect(await takeRequest(seen, eve, actor, db)).toBe(false);
    const mine = (await openRequest(hal.id, await limitsOf(hal), shareId, db))!;
    expect(mine.mine).toBe(true);
    expect((await openRequest(eve.id, await limitsOf(eve), shareId, db))!.mine).toBe(false);
    expect(await listed(hal, { status: "taken" })).toEqual([shareId]);

    // Replies: about the whole interview, or a page the answers were given on; sealed; the email says only that there is one.
    const pages = await replyPages(mine, db);
    expect(pages).toEqual([{ page: "0:A", label: expect.stringMatching(/^Details: /) }]);
    await replyToRequest(mine, hal, { body: "Your claim looks complete.", about: pages[0]! }, actor, db);
    await replyToRequest(mine, hal, { body: "Bring your payslips.", about: null }, actor, db);
    const stored = await db.selectFrom("share_replies").select(["body", "about"]).where("share_id", "=", shareId).execute();
    expect(JSON.stringify(stored)).not.toMatch(/payslips|complete|Details/);
    const emails = await outbox(ann.email);
    expect(emails.map((email) => email.subject)).toEqual(["A helper has replied to you", "A helper has replied to you"]);
    expect(emails[0]!.text).toContain(`/account/interview/${interviewId}/help`);
    expect(emails.map((email) => email.text + email.html).join()).not.toMatch(/payslips|complete|Wages/);

    await recordView(mine, hal, "answers", null, db);
    expect(await interviewNotes(ann.id, [interviewId], db)).toEqual({ [interviewId]: { sharedUntil: row.expires_at, unreadReplies: 2, preparedWith: null } });
    expect(await interviewNotes(bo.id, [interviewId], db), "notes of another person's interview").toEqual({});
    expect(await sharingOfInterview(bo.id, interviewId, { db })).toBeNull();
    const page = (await sharingOfInterview(ann.id, interviewId, { markRead: true, db }))!;
    expect(page.share).toMatchObject({ id: shareId, status: "taken", takenByName: "Hal Test", message: "Please check my wages claim", files: true });
    expect(page.replies.map((reply) => [reply.body, reply.about?.page ?? null, reply.read])).toEqual(
      expect.arrayContaining([["Your claim looks complete.", "0:A", false], ["Bring your payslips.", null, false]]),
    );
    expect(page.views.map((view) => `${view.helperName} ${view.what}`)).toEqual(["Hal Test answers"]);
    expect((await interviewNotes(ann.id, [interviewId], db))[interviewId]!.unreadReplies).toBe(0);
    expect(await sharedFiles(mine, db)).toEqual([]);

    // The person stops: from then on the helpers see nothing, and the person keeps the replies and the record.
    expect(await stopSharing(bo.id, interviewId, db)).toBe(false);
    expect(await stopSharing(ann.id, interviewId, db)).toBe(true);
    expect(await openRequest(hal.id, await limitsOf(hal), shareId, db)).toBeNull();
    expect(await listed(hal, { status: "taken" })).toEqual([]);
    const after = (await sharingOfInterview(ann.id, interviewId, { db }))!;
    expect(after.share).toBeNull();
    expect(after.replies).toHaveLength(2);
    expect(after.views).toHaveLength(1);
  });

  it("ends a share when its days are up, and closing a request ends the helper's access to what was shared", async () => {
    const db = handle.db;
    const now = new Date();
    const { id: shareId } = (await shareInterview(ann.id, interviewId, { answers: true, documents: false, files: false, message: null }, db, now, 2))!;
    const halLimits = await limitsOf(hal);
    expect(await openRequest(hal.id, halLimits, shareId, db, new Date(now.getTime() + DAY))).not.toBeNull();
    expect(await openRequest(hal.id, halLimits, shareId, db, new Date(now.getTime() + 2 * DAY)), "on its last moment").toBeNull();
    expect((await deskRequests(halLimits, { status: "new", countryId: null, issueId: null, language: null }, db, new Date(now.getTime() + 3 * DAY))).total).toBe(0);
    expect((await interviewNotes(ann.id, [interviewId], db, new Date(now.getTime() + 3 * DAY)))[interviewId]?.sharedUntil ?? null).toBeNull();

    const request = (await openRequest(hal.id, halLimits, shareId, db))!;
    await takeRequest(request, hal, actor, db);
    const taken = (await openRequest(hal.id, halLimits, shareId, db))!;
    expect(await closeRequest(taken, eve, actor, db), "closed by another helper").toBe(false);
    expect(await closeRequest(taken, hal, actor, db)).toBe(true);
    expect(await openRequest(hal.id, halLimits, shareId, db)).toMatchObject({ status: "closed", mine: false });
    const actions = await db.selectFrom("audit_events").select("action").where("subject", "=", `request ${shareId}`).orderBy("seq").execute();
    expect(actions.map((row) => row.action)).toEqual(["help.taken", "help.closed"]);
    await stopSharing(ann.id, interviewId, db);
  });

  it("prepares an interview for someone, invites them, and lets only that address claim it, once, within 7 days", async () => {
    const db = handle.db;
    const eveLimits = await limitsOf(eve);
    const cy = { firstName: "Cy", lastName: "Lim", email: "Cy@Example.org" };
    expect(await prepareInterview(ida, await limitsOf(ida), 901, cy, actor, db), "an issue outside the helper's limits").toBeNull();
    const { interviewId: prepared } = (await prepareInterview(eve, eveLimits, 901, cy, actor, db))!;
    // The helper holds it, but it is not theirs to list or resume.
    expect((await listInterviews(eve.id, { page: 1, pageSize: 25 }, db)).items).toEqual([]);
    expect(await latestInterviewOnIssue(eve.id, 901, db)).toBeNull();
    expect(await findPrepared(eve.id, prepared, db)).toMatchObject({ state: "not-sent", issueName: "Wages", person: cy });
    expect(await findPrepared(hal.id, prepared, db), "another helper's").toBeNull();
    const attachment = randomUUID();
    await db.insertInto("attachments").values({ id: attachment, user_id: eve.id, interview_id: prepared, file_name: "x", content_type: "application/pdf", size: 1, storage_key: `${eve.id}/${attachment}.pdf`, created_at: new Date().toISOString() }).execute();

    expect(await sendInvitation(hal, prepared, actor, db), "not this helper's").toBe(false);
    expect(await sendInvitation(eve, prepared, actor, db)).toBe(true);
    const codeOf = async () => /[?&]code=([\w-]+)/.exec((await outbox("Cy@Example.org")).at(-1)!.text)![1]!;
    const first = await codeOf();
    const email = (await outbox("Cy@Example.org")).at(-1)!;
    expect(email.subject).toBe("An interview was prepared for you");
    expect(email.text).toContain("Eve Test");
    expect(email.text).not.toContain("Wages");
    expect(await checkInvitation(first, db)).toEqual({ status: "valid", interviewId: prepared, helperName: "Eve Test", person: cy });
    expect(await checkInvitation("made-up", db)).toEqual({ status: "unknown" });

    // Another account cannot take it, even with the link.
    expect(await claimInvitation(first, { id: bo.id, email: bo.email }, db)).toEqual({ ok: false, check: { status: "other-account" } });
    const cyId = randomUUID();
    await insertTestUser(db, cyId, "cy@example.org");
    expect(await claimInvitation(first, { id: cyId, email: "cy@example.org" }, db)).toEqual({ ok: true, interviewId: prepared, issueId: 901 });
    expect(await claimInvitation(first, { id: cyId, email: "cy@example.org" }, db), "the link works once").toEqual({ ok: false, check: { status: "used" } });
    expect((await listInterviews(cyId, { page: 1, pageSize: 25 }, db)).items.map((item) => item.id)).toEqual([prepared]);
    expect(await interviewNotes(cyId, [prepared], db)).toEqual({ [prepared]: { sharedUntil: null, unreadReplies: 0, preparedWith: "Eve Test" } });
    expect(await db.selectFrom("attachments").select("user_id").where("id", "=", attachment).executeTakeFirstOrThrow()).toEqual({ user_id: cyId });
    expect(await findPrepared(eve.id, prepared, db)).toMatchObject({ state: "claimed" });
    expect(await sendInvitation(eve, prepared, actor, db), "claimed").toBe(false);
    expect(await cancelPrepared(eve, prepared, actor, db), "claimed").toBe(false);

    // A new invitation replaces the one before; none works after 7 days; housekeeping then removes the interview.
    const now = new Date();
    const { interviewId: second } = (await prepareInterview(eve, eveLimits, 901, { ...cy, email: "dee@example.org" }, actor, db, now))!;
    await sendInvitation(eve, second, actor, db, now);
    const replaced = /[?&]code=([\w-]+)/.exec((await outbox("dee@example.org")).at(-1)!.text)![1]!;
    await sendInvitation(eve, second, actor, db, now);
    const latest = /[?&]code=([\w-]+)/.exec((await outbox("dee@example.org")).at(-1)!.text)![1]!;
    expect(await checkInvitation(replaced, db)).toEqual({ status: "unknown" });
    const late = new Date(now.getTime() + INVITATION_TTL_MS);
    expect(await checkInvitation(latest, db, late)).toEqual({ status: "expired", helperName: "Eve Test" });
    expect(await claimInvitation(latest, { id: cyId, email: "dee@example.org" }, db, late)).toMatchObject({ ok: false, check: { status: "expired" } });
    const { interviewId: neverSent } = (await prepareInterview(eve, eveLimits, 901, { ...cy, email: "fay@example.org" }, actor, db, now))!;
    const { interviewId: cancelled } = (await prepareInterview(eve, eveLimits, 901, { ...cy, email: "gus@example.org" }, actor, db, now))!;
    expect(await cancelPrepared(hal, cancelled, actor, db)).toBe(false);
    expect(await cancelPrepared(eve, cancelled, actor, db)).toBe(true);
    expect(await purgeUnclaimedPrepared(db, new Date(late.getTime() - 1))).toBe(0);
    expect(await purgeUnclaimedPrepared(db, late)).toBe(2);
    const left = await db.selectFrom("interviews").select("id").where("id", "in", [prepared, second, neverSent, cancelled]).execute();
    expect(left.map((row) => row.id)).toEqual([prepared]);
    const audit = await db.selectFrom("audit_events").select("action").where("action", "in", ["help.prepared", "help.invited", "help.cancelled"]).execute();
    expect(audit.length).toBe(4 + 3 + 1);
  });

  it("seals the messages and replies again under a new key (cli db rotate-key), and they open under it alone", async () => {
    const db = handle.db;
    const oldKey = configuredKeyring().current.key.export();
    const newKey = randomBytes(32);
    const newKeys = dataKeyring(newKey, [oldKey]);
    const first = await resealHelpTexts(db, newKeys);
    expect(first.messages).toBeGreaterThan(0);
    expect(first.replies).toBe(2);
    expect(await resealHelpTexts(db, newKeys), "nothing left to do").toEqual({ messages: 0, replies: 0 });
    const onlyNew = dataKeyring(newKey);
    const reply = await db.selectFrom("share_replies").select(["id", "body", "about"]).where("about", "is not", null).executeTakeFirstOrThrow();
    expect(openText(reply.body, replyPlace(reply.id), onlyNew)).toBe("Your claim looks complete.");
    expect(JSON.parse(openText(reply.about!, aboutPlace(reply.id), onlyNew))).toMatchObject({ page: "0:A" });
    const share = await db.selectFrom("interview_shares").select(["id", "message"]).where("message", "is not", null).executeTakeFirstOrThrow();
    expect(openText(share.message!, messagePlace(share.id), onlyNew)).toBe("Please check my wages claim");
    // Back under the configured key, for the tests after this one.
    await resealHelpTexts(db, dataKeyring(oldKey, [newKey]));
  });

  it("signs up through an invitation: an unverified account and the code that chooses its password", async () => {
    const made = await signUpThroughInvitation({ firstName: "Hui", lastName: "Tan", email: "hui@example.org", phoneCountry: "SG", phoneNumber: "91234567" }, "203.0.113.50", handle.db);
    if ("field" in made) throw new Error(made.message);
    expect(await checkLink(made.code, "verify-email", handle.db)).toMatchObject({ status: "valid", user: { id: made.userId, email_verified_at: null } });
    expect(await outbox("hui@example.org"), "no verification email: the invitation proved the address").toEqual([]);
    expect(await signUpThroughInvitation({ firstName: "Hui", lastName: "Tan", email: "HUI@example.org", phoneCountry: "SG", phoneNumber: "1" }, "203.0.113.51", handle.db)).toMatchObject({ field: "email" });
  });
});
