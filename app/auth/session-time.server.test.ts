import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { loadSession, SESSION_IDLE_MS, sessionTimeLeft, startSession, touchSession } from "./session.server";

const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;

describe.each(dialects)("how long a session has left, on %s", (dialect) => {
  let database: TestDatabase;
  const userId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, userId, "time-left@example.org");
  });
  afterAll(() => database?.drop());

  it("is read without counting as a request; Stay signed in counts as one", async () => {
    const start = new Date("2026-11-26T08:00:00Z");
    const cookie = cookieHeader(await startSession({ userId }, null, database.db, start));
    const soon = new Date(start.getTime() + SESSION_IDLE_MS - 90_000);
    expect(await sessionTimeLeft(cookie, database.db, soon)).toBe(90_000);
    // Asking again later: still counting down (asking is no request).
    expect(await sessionTimeLeft(cookie, database.db, new Date(soon.getTime() + 30_000))).toBe(60_000);

    const { session } = await loadSession(cookie, database.db, new Date(soon.getTime() + 30_000));
    const endsAt = await touchSession(session!, database.db, new Date(soon.getTime() + 30_000));
    expect(endsAt).toBe(new Date(soon.getTime() + 30_000 + SESSION_IDLE_MS).toISOString());
    expect(await sessionTimeLeft(cookie, database.db, new Date(soon.getTime() + 30_000))).toBe(SESSION_IDLE_MS);
  });

  it("is nothing for no session, a forged cookie or an ended one, and the 7 days bound it", async () => {
    expect(await sessionTimeLeft(null, database.db)).toBe(0);
    expect(await sessionTimeLeft("session=forged", database.db)).toBe(0);
    const start = new Date("2026-11-26T08:00:00Z");
    const cookie = cookieHeader(await startSession({ userId }, null, database.db, start));
    expect(await sessionTimeLeft(cookie, database.db, new Date(start.getTime() + SESSION_IDLE_MS + 1))).toBe(0);
    // Near its 7 days, a session used a moment ago has only what is left of them.
    const late = new Date(start.getTime() + 7 * 24 * 60 * 60_000 - 60_000);
    await database.db.updateTable("sessions").set({ last_seen_at: late.toISOString() }).execute();
    expect(await sessionTimeLeft(cookie, database.db, late)).toBe(60_000);
  });

  it("a pending sign-in (password given, code not yet) has no time left to warn about", async () => {
    const cookie = cookieHeader(await startSession({ pendingUserId: userId }, null, database.db));
    expect(await sessionTimeLeft(cookie, database.db)).toBe(0);
  });
});
