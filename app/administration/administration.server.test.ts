import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { loadSession, startSession } from "~/auth/session.server";
import { AUDIT_PAGE_SIZE, listAuditEvents, recordAuditEvent } from "~/audit/audit.server";
import { grantAdministrator, isAdministrator, listAdministrators, revokeAdministrator, roleMessages } from "./roles.server";

const actor = { id: randomUUID(), email: "lead@example.org", address: "203.0.113.9" };

describe.each(dialects)("administrators and the audit on %s", (dialect) => {
  let database: TestDatabase;
  const ann = randomUUID();
  const bo = randomUUID();
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, ann, "ann@example.org");
    await insertTestUser(database.db, bo, "bo@example.org");
  });
  afterAll(() => database?.drop());

  it("makes administrators by email, refuses what cannot be done, and keeps at least one", async () => {
    expect(await isAdministrator(ann, database.db)).toBe(false);
    expect(await grantAdministrator("nobody@example.org", actor, database.db)).toEqual({ ok: false, message: roleMessages.noAccount });
    expect(await grantAdministrator(" ANN@example.org ", actor, database.db)).toEqual({ ok: true, email: "ann@example.org" });
    expect(await isAdministrator(ann, database.db)).toBe(true);
    expect(await grantAdministrator("ann@example.org", actor, database.db)).toEqual({ ok: false, message: roleMessages.alreadyAdministrator });
    expect(await revokeAdministrator("bo@example.org", actor, database.db)).toEqual({ ok: false, message: roleMessages.notAdministrator });
    expect(await revokeAdministrator("ann@example.org", actor, database.db)).toEqual({ ok: false, message: roleMessages.lastAdministrator });
    expect(await grantAdministrator("bo@example.org", actor, database.db)).toMatchObject({ ok: true });
    expect((await listAdministrators(database.db)).map((a) => a.email)).toEqual(["ann@example.org", "bo@example.org"]);
    expect(await revokeAdministrator("ann@example.org", actor, database.db)).toEqual({ ok: true, email: "ann@example.org" });
    expect((await listAdministrators(database.db)).map((a) => a.email)).toEqual(["bo@example.org"]);
  });

  it("tells the session who is an administrator, read afresh on every request", async () => {
    const setCookie = await startSession({ userId: bo }, null, database.db);
    const session = async () => (await loadSession(setCookie.split(";")[0]!, database.db)).session?.user;
    expect(await session()).toMatchObject({ id: bo, administrator: true });
    await grantAdministrator("ann@example.org", actor, database.db);
    await revokeAdministrator("bo@example.org", actor, database.db);
    expect(await session()).toMatchObject({ id: bo, administrator: false });
  });

  it("records every change with who, from where and when, newest first, and the database refuses to change a record", async () => {
    const { events, total } = await listAuditEvents(1, database.db);
    expect(total).toBe(5);
    expect(events[0]).toMatchObject({ actorEmail: "lead@example.org", address: "203.0.113.9", action: "role.revoked", subject: "bo@example.org" });
    expect(events.map((e) => e.action)).toEqual(["role.revoked", "role.granted", "role.revoked", "role.granted", "role.granted"]);

    await expect(database.db.updateTable("audit_events").set({ subject: "someone else" }).execute()).rejects.toThrow(/cannot be changed or deleted/);
    await expect(database.db.deleteFrom("audit_events").execute()).rejects.toThrow(/cannot be changed or deleted/);
    await expect(sql`delete from audit_events`.execute(database.db)).rejects.toThrow(/cannot be changed or deleted/);
    expect((await listAuditEvents(1, database.db)).total).toBe(5);
  });

  it("lists records written in the same millisecond in the order they were written", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00.000Z") });
    try {
      for (const subject of ["first", "second", "third", "fourth"]) await recordAuditEvent(actor, { action: "test.same-time", subject }, database.db);
    } finally {
      vi.useRealTimers();
    }
    const { events } = await listAuditEvents(1, database.db);
    expect(events.slice(0, 4).map((e) => e.subject)).toEqual(["fourth", "third", "second", "first"]);
  });

  it("lists the record a page at a time; a page past the end shows the last", async () => {
    for (let i = 0; i < AUDIT_PAGE_SIZE; i++) await recordAuditEvent(actor, { action: "test.event", subject: `item ${i}` }, database.db);
    const last = await listAuditEvents(99, database.db);
    expect(last).toMatchObject({ page: 2, pageCount: 2, total: AUDIT_PAGE_SIZE + 9 });
    expect(last.events).toHaveLength(9);
    expect(last.events.at(-1)).toMatchObject({ action: "role.granted", subject: "ann@example.org" });
  });
});
