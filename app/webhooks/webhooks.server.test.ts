import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { startInterview } from "~/a2j";
import { getGuide } from "~/guides/guides.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { shareInterview, stopSharing } from "~/help/shares.server";
import { deleteInterview, saveInterview } from "~/interviews/interviews.server";
import { configuredKeyring, dataKeyring, openText } from "~/security/data-encryption.server";
import { resealTextColumn } from "~/security/sealed-columns.server";
import { claimDueDeliveries, deliverClaimed, KEEP_ATTEMPTS_MS, nextAttemptAt, purgeOldWebhookAttempts, RESPONSE_KEPT, RETRY_DELAYS_S, runDeliveryRound } from "./delivery.server";
import {
  deleteEndpoint,
  endpointDeliveries,
  findEndpoint,
  listEndpoints,
  PREVIOUS_SECRET_MS,
  registerEndpoint,
  rotateSecret,
  secretPlace,
  sendAgain,
  setEndpointEnabled,
  WEBHOOK_SECRET_COLUMNS,
} from "./endpoints.server";
import { queueDocumentsSigned, queueExpiredShares, queueInterviewCompleted, queueWebhookEvent } from "./queue.server";

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-webhooks-"));

const actor = { id: null, email: "lead@example.org", address: "203.0.113.7" };
const SCALE = 0.0001; // 24 hours → 8.64 s; the first retry after 0.5 ms.
const settings = { allowPrivate: true, leaseSeconds: 30, retryScale: SCALE };

interface Received {
  id: string;
  body: string;
  headers: Record<string, string>;
}

/** A receiver that answers `plan(n)` to the n-th request (from 1). */
async function receiver() {
  const received: Received[] = [];
  let plan: (n: number) => { status: number; body?: string } = () => ({ status: 204 });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ id: headers["webhook-id"]!, body: Buffer.concat(chunks).toString("utf8"), headers });
      const answer = plan(received.length);
      response.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?token=abc`,
    received,
    answer(next: typeof plan) {
      plan = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialects)("webhooks on %s", (dialect) => {
  let handle: TestDatabase;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  const ann = randomUUID();

  async function plantInterview(): Promise<string> {
    const guide = (await getGuide("step-test", handle.db))!;
    const started = startInterview(guide, 20000);
    if (!started.ok) throw new Error("the guide does not start");
    return saveInterview({ id: null, userId: ann, issueId: 901, status: "Draft", state: started.state, guide: { guideId: "step-test", version: 1 } }, handle.db);
  }

  const register = async (events: string[], url = hooks.url) => {
    const made = await registerEndpoint({ url, description: "Case system", events }, actor, handle.db, { allowPrivate: true });
    if (!made.ok) throw new Error(made.message);
    return made;
  };

  const deliveries = () => handle.db.selectFrom("webhook_deliveries").selectAll().orderBy("created_at").orderBy("event_type").execute();

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, ann, "ann@example.org");
    await importGuide("step-test", await readGuideFolder("bench/fixtures/step-guide"), handle.db);
    await handle.db
      .insertInto("issues")
      .values({ id: 901, category_id: 1, name: "Wages", content: "", guide_id: "step-test", guide_path: "step-test/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" })
      .execute();
    hooks = await receiver();
  });
  afterAll(async () => {
    await hooks?.close();
    await handle?.drop();
  });
  beforeEach(async () => {
    await handle.db.deleteFrom("webhook_attempts").execute();
    await handle.db.deleteFrom("webhook_deliveries").execute();
    await handle.db.deleteFrom("webhook_endpoints").execute();
    hooks.received.length = 0;
    hooks.answer(() => ({ status: 204 }));
  });

  it("registers endpoints (secret shown once, kept sealed), refuses bad ones, rotates, disables and deletes, each audited", async () => {
    const db = handle.db;
    expect(await registerEndpoint({ url: "https://127.0.0.1/in", description: "", events: ["share.ended"] }, actor, db, { allowPrivate: false })).toMatchObject({
      ok: false,
      field: "url",
    });
    expect(await registerEndpoint({ url: hooks.url, description: "", events: [] }, actor, db, { allowPrivate: true })).toMatchObject({ ok: false, field: "events" });
    expect(await registerEndpoint({ url: hooks.url, description: "", events: ["share.ended", "person.born"] }, actor, db, { allowPrivate: true })).toMatchObject({
      ok: false,
      field: "events",
    });
    const made = await register(["interview.shared", "share.ended"]);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = await db.selectFrom("webhook_endpoints").selectAll().where("id", "=", made.endpoint.id).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(made.secret.slice(6));
    expect(openText(row.secret, secretPlace(row.id))).toBe(made.secret);
    expect(await findEndpoint(made.endpoint.id, db)).toMatchObject({
      url: hooks.url,
      description: "Case system",
      events: ["interview.shared", "share.ended"],
      enabled: true,
      previousSecretUntil: null,
    });

    const rotated = (await rotateSecret(made.endpoint.id, actor, db))!;
    expect(rotated).not.toBe(made.secret);
    expect((await findEndpoint(made.endpoint.id, db))!.previousSecretUntil).not.toBeNull();
    expect(await setEndpointEnabled(made.endpoint.id, false, actor, db)).toBe(true);
    expect(await listEndpoints(db)).toMatchObject([{ id: made.endpoint.id, enabled: false, pending: 0, failed: 0 }]);
    expect(await setEndpointEnabled(made.endpoint.id, true, actor, db)).toBe(true);
    expect(await deleteEndpoint(made.endpoint.id, actor, db)).toBe(true);
    expect(await deleteEndpoint(made.endpoint.id, actor, db)).toBe(false);
    expect(await rotateSecret("not-an-id", actor, db)).toBeNull();
    const audit = await db.selectFrom("audit_events").select(["action", "details"]).where("action", "like", "webhook.%").orderBy("seq").execute();
    expect(audit.map((event) => event.action)).toEqual(["webhook.registered", "webhook.secret-rotated", "webhook.disabled", "webhook.enabled", "webhook.deleted"]);
    expect(audit.map((event) => event.details).join(" ")).not.toContain("whsec_");
  });

  it("queues events in the transaction of the change: a share, its end, completion and signing while shared; nothing for a disabled endpoint or a rolled-back change", async () => {
    const db = handle.db;
    const all = await register(["help.requested", "interview.shared", "interview.completed", "documents.signed", "share.ended"]);
    const endsOnly = await register(["share.ended"]);
    const off = await register(["interview.shared"]);
    await setEndpointEnabled(off.endpoint.id, false, actor, db);
    const interviewId = await plantInterview();

    // Not shared: completion and signing send nothing.
    expect(await queueInterviewCompleted(db, interviewId)).toBe(0);
    expect(await queueDocumentsSigned(db, interviewId)).toBe(0);

    const shared = (await shareInterview(ann, interviewId, { answers: true, documents: false, files: false, message: "My name is Ann and I need help" }, db))!;
    let rows = await deliveries();
    expect(rows.map((row) => `${row.endpoint_id === all.endpoint.id ? "all" : "other"} ${row.event_type}`).sort()).toEqual(["all help.requested", "all interview.shared"]);
    const payload = JSON.parse(rows.find((row) => row.event_type === "interview.shared")!.payload);
    expect(payload).toEqual({ type: "interview.shared", timestamp: expect.any(String), data: { share_id: shared.id, links: { self: `/api/v1/shared-interviews/${shared.id}` } } });
    // Ids and links only: nothing the person wrote or answered.
    expect(rows.map((row) => row.payload).join(" ")).not.toMatch(/Ann|need|ann@/);
    expect(JSON.parse(rows.find((row) => row.event_type === "help.requested")!.payload).data.links.self).toBe(`/api/v1/help-requests/${shared.id}`);

    expect(await queueInterviewCompleted(db, interviewId)).toBe(1);
    expect(await queueDocumentsSigned(db, interviewId)).toBe(1);
    // A change rolled back takes its events with it.
    await expect(
      db.transaction().execute(async (trx) => {
        await queueInterviewCompleted(trx, interviewId);
        throw new Error("the save failed");
      }),
    ).rejects.toThrow("the save failed");
    expect(await stopSharing(ann, interviewId, db)).toBe(true);
    rows = await deliveries();
    expect(rows.map((row) => `${row.endpoint_id === all.endpoint.id ? "all" : row.endpoint_id === endsOnly.endpoint.id ? "ends" : "off"} ${row.event_type}`).sort()).toEqual([
      "all documents.signed",
      "all help.requested",
      "all interview.completed",
      "all interview.shared",
      "all share.ended",
      "ends share.ended",
    ]);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    // After the share ended, completion sends nothing again.
    expect(await queueInterviewCompleted(db, interviewId)).toBe(0);
  });

  it("ends shares with share.ended when their interview is deleted, and once (whatever the instances) when they reach their last day", async () => {
    const db = handle.db;
    const made = await register(["share.ended"]);
    const deleted = await plantInterview();
    const shared = (await shareInterview(ann, deleted, { answers: true, documents: false, files: false, message: null }, db))!;
    expect(await deleteInterview(ann, deleted, db)).toBe(true);
    expect((await deliveries()).map((row) => JSON.parse(row.payload).data.share_id)).toEqual([shared.id]);

    const expiring = await plantInterview();
    const now = new Date();
    const old = (await shareInterview(ann, expiring, { answers: true, documents: false, files: false, message: null }, db, new Date(now.getTime() - 3 * 86_400_000), 1))!;
    // Three instances look at once: one delivery, dated when the share expired.
    const counts = await Promise.all([0, 1, 2].map(() => queueExpiredShares(db, { now: new Date(now.getTime() + 60_000), retryScale: SCALE })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(0);
    // The endpoint was made after that share expired: nothing. One made before it does get it.
    await db.updateTable("webhook_endpoints").set({ created_at: new Date(now.getTime() - 4 * 86_400_000).toISOString() }).where("id", "=", made.endpoint.id).execute();
    const again = await Promise.all([0, 1, 2].map(() => queueExpiredShares(db, { now, retryScale: SCALE })));
    expect(again.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await queueExpiredShares(db, { now, retryScale: SCALE })).toBe(0);
    const ended = (await deliveries()).filter((row) => JSON.parse(row.payload).data.share_id === old.id);
    expect(ended).toHaveLength(1);
    expect(JSON.parse(ended[0]!.payload)).toMatchObject({ type: "share.ended", timestamp: new Date(now.getTime() - 2 * 86_400_000).toISOString() });
  });

  it("sends each delivery signed, retries with backoff until the receiver takes it, logs every attempt, and gives up after the window", async () => {
    const db = handle.db;
    const made = await register(["share.ended"]);
    await queueWebhookEvent(db, "share.ended", { share_id: "s1", links: { self: "/api/v1/shared-interviews/s1" } }, { retryScale: SCALE });
    // The first two attempts fail (a 500 with a long body, then a 503); the third is taken.
    hooks.answer((n) => (n === 1 ? { status: 500, body: "x".repeat(5000) } : n === 2 ? { status: 503, body: "busy" } : { status: 200, body: "thanks" }));
    const deadline = Date.now() + 5000;
    while ((await deliveries())[0]!.status === "pending" && Date.now() < deadline) {
      await runDeliveryRound(db, settings);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: "delivered", lease_until: null });
    expect(Number(delivery!.attempts)).toBe(3);
    expect(hooks.received).toHaveLength(3);
    expect(new Set(hooks.received.map((r) => r.id))).toEqual(new Set([delivery!.id]));
    for (const request of hooks.received) expect(new Webhook(made.secret).verify(request.body, request.headers)).toMatchObject({ type: "share.ended" });
    const shown = await endpointDeliveries(made.endpoint.id, db);
    expect(shown[0]!.recent.map((attempt) => attempt.statusCode)).toEqual([200, 503, 500]);
    expect(shown[0]!.recent[2]!.response).toHaveLength(RESPONSE_KEPT);

    // A receiver that never answers 2xx: retried until the window closes, then failed for good.
    await queueWebhookEvent(db, "share.ended", { share_id: "s2", links: { self: "/api/v1/shared-interviews/s2" } }, { retryScale: 0.00002 });
    hooks.answer(() => ({ status: 410 }));
    const until = Date.now() + 6000;
    let failing = (await deliveries()).find((row) => row.payload.includes("s2"))!;
    while (failing.status === "pending" && Date.now() < until) {
      await runDeliveryRound(db, settings);
      await new Promise((resolve) => setTimeout(resolve, 20));
      failing = (await deliveries()).find((row) => row.payload.includes("s2"))!;
    }
    expect(failing.status).toBe("failed");
    expect(Number(failing.attempts)).toBeGreaterThan(3);
    expect(await listEndpoints(db)).toMatchObject([{ failed: 1, pending: 0 }]);

    // Send again: the same id, now, and retried for another window.
    hooks.answer(() => ({ status: 200 }));
    const before = hooks.received.length;
    expect(await sendAgain(made.endpoint.id, failing.id, actor, db, new Date(), SCALE)).toBe(true);
    expect(await sendAgain(randomUUID(), failing.id, actor, db)).toBe(false);
    await runDeliveryRound(db, settings);
    expect(hooks.received.slice(before).map((r) => r.id)).toEqual([failing.id]);
    expect((await deliveries()).find((row) => row.id === failing.id)!.status).toBe("delivered");
  });

  it("backs off along the schedule, within the 24-hour window", () => {
    const now = new Date("2031-03-01T12:00:00.000Z");
    const window = new Date(now.getTime() + 86_400_000);
    const none = () => 0;
    expect(RETRY_DELAYS_S.map((_, i) => (nextAttemptAt(i + 1, now, window, 1, none)!.getTime() - now.getTime()) / 1000)).toEqual(RETRY_DELAYS_S);
    expect((nextAttemptAt(1, now, window, 1, () => 0.999)!.getTime() - now.getTime()) / 1000).toBeCloseTo(5.5, 1);
    // Never past the window; nothing once it is over.
    const late = new Date(window.getTime() - 60_000);
    expect(nextAttemptAt(8, late, window, 1, none)).toEqual(window);
    expect(nextAttemptAt(9, window, window, 1, none)).toBeNull();
    // The schedule adds up to about a day (11 attempts in all).
    let at = now;
    let attempts = 1;
    for (let next = nextAttemptAt(1, at, window, 1, none); next; next = nextAttemptAt(attempts, at, window, 1, none)) {
      at = next;
      attempts += 1;
    }
    expect(at).toEqual(window);
    expect(attempts).toBe(11);
  });

  it("leases: concurrent workers never claim one delivery twice; a worker that died leaves it to another after the lease, with the same id", async () => {
    const db = handle.db;
    const made = await register(["share.ended"]);
    for (let i = 0; i < 30; i++) await queueWebhookEvent(db, "share.ended", { share_id: `s${i}`, links: {} }, { retryScale: SCALE });
    const now = new Date(Date.now() + 1000);
    const claims = await Promise.all(Array.from({ length: 6 }, () => claimDueDeliveries(db, now, 30, 10)));
    const ids = claims.flat().map((claim) => claim.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(await claimDueDeliveries(db, now, 30), "all are leased").toEqual([]);

    // Worker A "dies" holding a lease: nothing is sent until its lease is over, then B sends it.
    const held = claims.flat()[0]!;
    expect(await claimDueDeliveries(db, new Date(now.getTime() + 29_000), 30)).toEqual([]);
    const retaken = await claimDueDeliveries(db, new Date(now.getTime() + 31_000), 30, 100);
    expect(retaken.map((claim) => claim.id)).toContain(held.id);
    const again = retaken.find((claim) => claim.id === held.id)!;
    expect(again.lease_token).not.toBe(held.lease_token);
    await deliverClaimed(db, again, settings);
    expect(hooks.received.map((r) => r.id)).toEqual([held.id]);
    expect(new Webhook(made.secret).verify(hooks.received[0]!.body, hooks.received[0]!.headers)).toBeTruthy();
    // A's late write (its lease long gone) does not undo what B recorded.
    hooks.answer(() => ({ status: 500 }));
    await deliverClaimed(db, held, settings);
    expect((await deliveries()).find((row) => row.id === held.id)).toMatchObject({ status: "delivered" });
  });

  it("signs with the new and the rotated secret for a day; cli db rotate-key seals the secrets again", async () => {
    const db = handle.db;
    const made = await register(["share.ended"]);
    const rotated = (await rotateSecret(made.endpoint.id, actor, db))!;
    await queueWebhookEvent(db, "share.ended", { share_id: "s1", links: {} });
    await runDeliveryRound(db, settings);
    const [request] = hooks.received;
    expect(new Webhook(rotated).verify(request!.body, request!.headers)).toBeTruthy();
    expect(new Webhook(made.secret).verify(request!.body, request!.headers)).toBeTruthy();
    expect(PREVIOUS_SECRET_MS).toBe(86_400_000);

    const oldKey = configuredKeyring().current.key.export();
    const newKey = randomBytes(32);
    const counts = [];
    for (const { spec } of WEBHOOK_SECRET_COLUMNS) counts.push(await resealTextColumn(db, spec, dataKeyring(newKey, [oldKey])));
    expect(counts).toEqual([1, 1]);
    const row = await db.selectFrom("webhook_endpoints").select(["id", "secret"]).executeTakeFirstOrThrow();
    expect(openText(row.secret, secretPlace(row.id), dataKeyring(newKey))).toBe(rotated);
    for (const { spec } of WEBHOOK_SECRET_COLUMNS) await resealTextColumn(db, spec, dataKeyring(oldKey, [newKey]));
  });

  it("purges attempts older than 30 days and deliveries finished that long ago", async () => {
    const db = handle.db;
    const made = await register(["share.ended"]);
    const old = new Date(Date.now() - KEEP_ATTEMPTS_MS - 60_000);
    await queueWebhookEvent(db, "share.ended", { share_id: "old", links: {} }, { now: old, retryScale: SCALE });
    await queueWebhookEvent(db, "share.ended", { share_id: "new", links: {} }, { retryScale: SCALE });
    const [claimedOld] = await claimDueDeliveries(db, old, 30, 1);
    await deliverClaimed(db, claimedOld!, settings, () => old);
    await runDeliveryRound(db, settings);
    expect(await db.selectFrom("webhook_attempts").select("id").execute()).toHaveLength(2);
    expect(await purgeOldWebhookAttempts(db, new Date())).toEqual({ attempts: 1, deliveries: 1 });
    const left = await endpointDeliveries(made.endpoint.id, db);
    expect(left.map((delivery) => JSON.parse(delivery.payload).data.share_id)).toEqual(["new"]);
    expect(left[0]!.recent).toHaveLength(1);
  });
});
