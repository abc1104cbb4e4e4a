import { randomBytes, randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { SIGNING_GUIDE_ID, SIGNING_ISSUE_ID, signingGuide, signingGuideFiles } from "../../tests/support/signing-guide";
import { sealInterviewColumns } from "~/interviews/interviews.server";
import { configuredKeyring, dataKeyring } from "~/security/data-encryption.server";
import { resealTextColumn } from "~/security/sealed-columns.server";
import type { MailMessage } from "~/mail/mail.server";
import { shareInterview } from "~/help/shares.server";
import { registerEndpoint } from "~/webhooks/endpoints.server";
import { signAndInvite, sendCode, signThroughLink, declineThroughLink, tryCode } from "./flow.server";
import { answersChanging, CODE_TRIES, currentRequest, LINK_DAYS, linkState, SIGNING_COLUMNS, signingSummaries, storedSignedDocument as signedDocument } from "./requests.server";

const NOW = new Date("2031-03-01T12:00:00.000Z");
const DAY = 86_400_000;
const later = (ms: number) => new Date(NOW.getTime() + ms);
const actor = (id: string) => ({ id, email: "ana@example.org", address: "203.0.113.5" });

describe.each(dialects)("signing requests on %s", (dialect) => {
  let handle: TestDatabase;
  const ana = randomUUID();
  let outbox: MailMessage[];
  const send = async (message: MailMessage) => void outbox.push(message);
  const linkCode = (message: MailMessage) => new URL(message.text.match(/https?:\/\/\S+\/sign\?code=\S+/)![0]).searchParams.get("code")!;
  const oneTime = (message: MailMessage) => message.text.match(/\b(\d{6})\b/)![1]!;
  const person = { id: ana, email: "ana@example.org", firstName: "Ana", lastName: "Lim", language: "en" };
  const own = { typedName: "Ana Lim", drawing: null, others: [{ name: "Ben Ong", email: "ben@example.org" }] };

  async function plantCompleted(): Promise<string> {
    const id = randomUUID();
    const vars = JSON.stringify({ "name te": { name: "Name TE", type: "Text", repeating: false, values: [null, "Ana Lim"] } });
    await handle.db
      .insertInto("interviews")
      .values({ id, user_id: ana, issue_id: SIGNING_ISSUE_ID, status: "Completed", ...sealInterviewColumns(id, { vars, engine_state: "{}" }), created_at: NOW.toISOString(), updated_at: NOW.toISOString() })
      .execute();
    return id;
  }

  /** Signed by Ana, Ben invited; Ben's link code. */
  async function invited(interviewId: string): Promise<string> {
    outbox = [];
    const result = await signAndInvite(person, interviewId, own, actor(ana), NOW, send, handle.db);
    expect(result).toMatchObject({ kind: "signed", complete: false });
    const invitation = outbox.find((m) => m.to === "ben@example.org")!;
    return linkCode(invitation);
  }

  /** Ben asks for a code and gives it; returns the browser's visit key. */
  async function verified(code: string, at = NOW): Promise<string> {
    outbox = [];
    expect(await sendCode(code, "198.51.100.7", at, send, handle.db)).toBe(true);
    const checked = await tryCode(code, oneTime(outbox[0]!), "198.51.100.7", at, handle.db);
    expect(checked.kind).toBe("ok");
    return (checked as { visit: string }).visit;
  }

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, ana, "ana@example.org");
    const at = NOW.toISOString();
    await handle.db.insertInto("guides").values({ id: SIGNING_GUIDE_ID, title: "Joint application", published_version: 1 }).execute();
    await handle.db
      .insertInto("guide_versions")
      .values({ guide_id: SIGNING_GUIDE_ID, version: 1, title: "Joint application", format: "json", source: JSON.stringify(signingGuide()), origin: "seed", uploaded_by_id: null, uploaded_by_email: "seed", uploaded_at: at, published_at: at, discarded_at: null })
      .execute();
    for (const file of signingGuideFiles()) await handle.db.insertInto("guide_version_files").values({ guide_id: SIGNING_GUIDE_ID, version: 1, ...file }).execute();
    await handle.db
      .insertInto("issues")
      .values({ id: SIGNING_ISSUE_ID, category_id: 1, name: "Joint application", content: "", guide_id: SIGNING_GUIDE_ID, guide_path: `${SIGNING_GUIDE_ID}/Guide.json`, model_ai: "gpt-3.5-turbo", rephrase_content: "" })
      .execute();
  });
  afterAll(() => handle?.drop());
  beforeEach(async () => {
    outbox = [];
    await handle.db.deleteFrom("signing_requests").execute();
    await handle.db.deleteFrom("rate_limits").execute();
  });

  it("the person signs and names the other parent, who signs through the emailed link and code: the document is complete, sealed at rest, counted, and the person told", async () => {
    const interviewId = await plantCompleted();
    const code = await invited(interviewId);
    const invitation = outbox.find((m) => m.to === "ben@example.org")!;
    expect(invitation.subject).toBe("Ana Lim asks you to sign a document");
    expect(invitation.text).toContain(`The link works once, for ${LINK_DAYS} days.`);

    // Sealed at rest: no name, email or typed signature in clear; links kept as hashes.
    const rows = await handle.db.selectFrom("signers").selectAll().execute();
    for (const row of rows) for (const value of [row.name, row.email, row.typed_name]) if (value) expect(value).toMatch(/^enc1:/);
    expect(rows.some((row) => row.link_hash === code)).toBe(false);

    // Opening the link changes nothing; without the code the browser may not sign.
    expect(await linkState(code, null, NOW, handle.db)).toMatchObject({ kind: "active", ownerName: "Ana Lim", verified: false, codeSent: false, signer: { role: "Other parent", name: "Ben Ong" } });
    expect(await signThroughLink(code, null, { typedName: "Ben Ong", drawing: null }, "198.51.100.7", NOW, send, handle.db)).toEqual({ kind: "gone" });
    const visit = await verified(code);
    expect((await currentRequest(ana, interviewId, handle.db))!.signers.map((s) => s.status)).toEqual(["signed", "waiting"]);
    expect(await signingSummaries(ana, handle.db)).toEqual(new Map([[interviewId, { signed: 1, waiting: 1, declined: 0, complete: false }]]));

    outbox = [];
    const signed = await signThroughLink(code, visit, { typedName: "Ben Ong", drawing: null }, "198.51.100.7", later(30 * 60_000), send, handle.db);
    expect(signed).toMatchObject({ kind: "signed", complete: true });
    expect(outbox.map((m) => [m.to, m.subject])).toEqual([["ana@example.org", "Everyone has signed your document"]]);
    // Single use: the link now says it was signed, and signs nothing again.
    expect(await linkState(code, visit, later(DAY), handle.db)).toEqual({ kind: "signed" });
    expect(await signThroughLink(code, visit, { typedName: "Ben Ong", drawing: null }, "198.51.100.7", later(31 * 60_000), send, handle.db)).toEqual({ kind: "gone" });

    const request = (await currentRequest(ana, interviewId, handle.db))!;
    expect(request.status).toBe("complete");
    const stored = await handle.db.selectFrom("signing_requests").select("signed_pdf").executeTakeFirstOrThrow();
    expect(stored.signed_pdf).toMatch(/^enc1:/);
    const pdf = (await signedDocument(ana, interviewId, handle.db))!.bytes;
    const text = execFileSync("pdftotext", ["-", "-"], { input: pdf }).toString();
    expect(text).toContain("/s/ Ana Lim");
    expect(text).toContain("/s/ Ben Ong");
    // Each date in its place, in the country's way (Singapore's seed country: "1 March 2031"); the record page.
    expect(text).toMatch(/1 March 2031|March 1, 2031|01\/03\/2031/);
    expect(text).toMatch(/ben@example\.org/);
    const usage = await handle.db.selectFrom("usage_events").select(["kind", "issue_id"]).where("kind", "=", "signed").execute();
    expect(usage).toEqual([{ kind: "signed", issue_id: SIGNING_ISSUE_ID }]);
    const audit = await handle.db.selectFrom("audit_events").select(["action", "actor_email", "address"]).where("action", "like", "signing.%").orderBy("seq").execute();
    expect(audit.slice(-2)).toEqual([
      { action: "signing.signed", actor_email: "ana@example.org", address: "203.0.113.5" },
      { action: "signing.signed", actor_email: "ben@example.org", address: "198.51.100.7" },
    ]);
  });

  it("a link expires after 14 days; a code stops after its wrong tries", async () => {
    const interviewId = await plantCompleted();
    const code = await invited(interviewId);
    outbox = [];
    await sendCode(code, "198.51.100.7", NOW, send, handle.db);
    const right = oneTime(outbox[0]!);
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 1; i < CODE_TRIES; i++) expect(await tryCode(code, wrong, "198.51.100.7", NOW, handle.db)).toEqual({ kind: "wrong", triesLeft: CODE_TRIES - i });
    expect(await tryCode(code, wrong, "198.51.100.7", NOW, handle.db)).toEqual({ kind: "no-code" });
    expect(await tryCode(code, right, "198.51.100.7", NOW, handle.db)).toEqual({ kind: "no-code" });
    // A new code works again; past the link's days nothing does.
    await verified(code);
    expect(await linkState(code, null, later(LINK_DAYS * DAY + 1), handle.db)).toEqual({ kind: "expired" });
    expect(await sendCode(code, "198.51.100.7", later(LINK_DAYS * DAY + 1), send, handle.db)).toBe(false);
  });

  it("a signer declines with a reason the person sees, and the person is told", async () => {
    const interviewId = await plantCompleted();
    const code = await invited(interviewId);
    const visit = await verified(code);
    outbox = [];
    expect(await declineThroughLink(code, visit, "I have not agreed to this.", "198.51.100.7", NOW, send, handle.db)).toMatchObject({ kind: "declined" });
    expect(outbox.map((m) => [m.to, m.subject])).toEqual([["ana@example.org", "Someone declined to sign your document"]]);
    expect(outbox[0]!.text).not.toContain("I have not agreed");
    const request = (await currentRequest(ana, interviewId, handle.db))!;
    expect(request.status).toBe("open");
    expect(request.signers[1]).toMatchObject({ status: "declined", declineReason: "I have not agreed to this." });
    expect(await linkState(code, visit, NOW, handle.db)).toEqual({ kind: "declined" });
    const stored = await handle.db.selectFrom("signers").select("decline_reason").where("status", "=", "declined").executeTakeFirstOrThrow();
    expect(stored.decline_reason).toMatch(/^enc1:/);
  });

  it("changing answers stops a request still waiting (its link says so); a complete one stays signed", async () => {
    const waiting = await plantCompleted();
    const code = await invited(waiting);
    expect(await answersChanging(ana, waiting, handle.db)).toEqual({ wasSigned: true });
    expect(await linkState(code, null, NOW, handle.db)).toEqual({ kind: "replaced" });
    expect(await currentRequest(ana, waiting, handle.db)).toBeNull();

    const done = await plantCompleted();
    const doneCode = await invited(done);
    await signThroughLink(doneCode, await verified(doneCode), { typedName: "Ben Ong", drawing: null }, "198.51.100.7", NOW, send, handle.db);
    expect(await answersChanging(ana, done, handle.db)).toEqual({ wasSigned: true });
    expect((await currentRequest(ana, done, handle.db))!.status).toBe("complete");
    expect(await signedDocument(ana, done, handle.db)).not.toBeNull();
    expect(await answersChanging(ana, await plantCompleted(), handle.db)).toEqual({ wasSigned: false });
  });

  it("a document signed by everyone while shared with the organisation queues documents.signed, in the same transaction; an unshared one queues nothing", async () => {
    await handle.db.deleteFrom("webhook_endpoints").execute();
    const made = await registerEndpoint({ url: "https://127.0.0.1:9/in", description: "Case system", events: ["documents.signed"] }, actor(ana), handle.db, { now: NOW, allowPrivate: true });
    expect(made.ok).toBe(true);
    const signedEvents = () => handle.db.selectFrom("webhook_deliveries").select(["event_type", "payload"]).where("event_type", "=", "documents.signed").execute();

    const alone = await plantCompleted();
    const aloneCode = await invited(alone);
    expect(await signThroughLink(aloneCode, await verified(aloneCode), { typedName: "Ben Ong", drawing: null }, "198.51.100.7", later(60_000), send, handle.db)).toMatchObject({ complete: true });
    expect(await signedEvents()).toEqual([]);

    const shared = await plantCompleted();
    const share = (await shareInterview(ana, shared, { answers: true, documents: true, files: false, message: null }, handle.db, NOW))!;
    const code = await invited(shared);
    const visit = await verified(code);
    expect(await signedEvents()).toEqual([]);
    expect(await signThroughLink(code, visit, { typedName: "Ben Ong", drawing: null }, "198.51.100.7", later(60_000), send, handle.db)).toMatchObject({ complete: true });
    const events = await signedEvents();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ type: "documents.signed", data: { share_id: share.id } });
    expect(events[0]!.payload).not.toMatch(/Ana|Ben|example\.org/);
  });

  it("another person's interview, or one signed already, cannot be signed again", async () => {
    const interviewId = await plantCompleted();
    await invited(interviewId);
    expect(await signAndInvite(person, interviewId, own, actor(ana), NOW, send, handle.db)).toEqual({ kind: "already" });
    expect(await signAndInvite({ ...person, id: randomUUID() }, interviewId, own, actor(ana), NOW, send, handle.db)).toEqual({ kind: "not-found" });
    expect(await signAndInvite(person, await plantCompleted(), { ...own, others: [] }, actor(ana), NOW, send, handle.db)).toEqual({ kind: "others", expected: 1 });
  });

  it("seals every signing column again under a new key (cli db rotate-key), and they open under it alone", async () => {
    const interviewId = await plantCompleted();
    const code = await invited(interviewId);
    const visit = await verified(code);
    await signThroughLink(code, visit, { typedName: "Ben Ong", drawing: "data:image/png;base64,iVBORw0KGgo=" }, "198.51.100.7", NOW, send, handle.db);
    const oldKey = configuredKeyring().current.key.export();
    const newKey = randomBytes(32);
    let written = 0;
    for (const { spec } of SIGNING_COLUMNS) written += await resealTextColumn(handle.db, spec, dataKeyring(newKey, [oldKey]));
    // Names, emails, typed names and addresses of both, one drawing, one signed PDF.
    expect(written).toBe(2 + 2 + 2 + 2 + 1 + 1);
    const onlyNew = dataKeyring(newKey);
    expect((await currentRequest(ana, interviewId, handle.db, onlyNew))!.signers.map((s) => s.name)).toEqual(["Ana Lim", "Ben Ong"]);
    expect(await signedDocument(ana, interviewId, handle.db, onlyNew)).not.toBeNull();
    for (const { spec } of SIGNING_COLUMNS) await resealTextColumn(handle.db, spec, dataKeyring(oldKey, [newKey]));
  });
});
