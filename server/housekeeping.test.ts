import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../tests/support/databases";
import { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3StandIn } from "../tests/support/s3-stand-in";
import { purgeSpentLinks } from "~/auth/accounts.server";
import { purgeOldRateLimitWindows } from "~/auth/rate-limit.server";
import { purgeExpiredSessions } from "~/auth/session.server";
import { type ObjectStorageLocation, parseStorageUrl } from "~/config.server";
import { purgeOrphanedAttachments } from "~/interviews/attachments.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { folderStorage } from "~/storage/folder-storage.server";
import { sealInterviewColumns } from "~/interviews/interviews.server";
import { runHousekeeping, startHousekeeping } from "./housekeeping";

const NOW = new Date("2031-03-01T12:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** An ISO time `ms` from NOW (negative: before). */
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

describe.each(dialects)("housekeeping on %s", (dialect) => {
  let handle: TestDatabase;
  let dataDir: string;
  let root: string;
  let storage: AttachmentStorage;
  const alice = randomUUID();

  const session = (id: string, expiresIn: number, lastSeenAgo: number) => ({
    id_hash: id,
    user_id: alice,
    pending_user_id: null,
    pending_totp_secret: null,
    created_at: at(-2 * DAY),
    expires_at: at(expiresIn),
    last_seen_at: at(-lastSeenAgo),
  });
  const token = (id: string, expiresIn: number, usedAgo: number | null) => ({
    id_hash: id,
    user_id: alice,
    purpose: "verify-email" as const,
    created_at: at(-10 * DAY),
    expires_at: at(expiresIn),
    used_at: usedAgo === null ? null : at(-usedAgo),
  });
  const window = (bucket: string, startedAgo: number) => ({ bucket, window_started_at: at(-startedAgo), hits: 3 });

  /** A file in the storage, last written `writtenAgo` before NOW. */
  async function plantFile(key: string, writtenAgo: number) {
    const file = path.join(root, key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "%PDF-1.7\n");
    const when = new Date(NOW.getTime() - writtenAgo);
    await utimes(file, when, when);
  }
  async function plantAttachment(id: string, interviewId: string | null, uploadedAgo: number) {
    const key = `${alice}/${id}.pdf`;
    await plantFile(key, uploadedAgo);
    await handle.db
      .insertInto("attachments")
      .values({ id, user_id: alice, interview_id: interviewId, file_name: "a.pdf", content_type: "application/pdf", size: 9, storage_key: key, created_at: at(-uploadedAgo) })
      .execute();
  }
  async function plantInterview(id: string, vars: string) {
    await handle.db
      .insertInto("interviews")
      .values({ id, user_id: alice, issue_id: 2, status: "Draft", ...sealInterviewColumns(id, { vars, engine_state: "{}" }), created_at: at(-3 * DAY), updated_at: at(-3 * DAY) })
      .execute();
  }
  const fileExists = (id: string) => existsSync(path.join(root, alice, `${id}.pdf`));
  const ids = async (table: "sessions" | "auth_tokens") =>
    (await handle.db.selectFrom(table).select("id_hash").orderBy("id_hash").execute()).map((row) => row.id_hash);

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, alice, "alice@example.org");
  });
  afterAll(() => handle?.drop());
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "lsh-housekeeping-"));
    root = path.join(dataDir, "attachments");
    storage = folderStorage(root);
    for (const table of ["attachments", "interviews", "sessions", "auth_tokens", "rate_limits"] as const) {
      await handle.db.deleteFrom(table).execute();
    }
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("removes exactly the expired, spent, old and orphaned rows and files, and nothing on a second run", async () => {
    await handle.db
      .insertInto("sessions")
      .values([
        session("s-live", 5 * DAY, 10 * MINUTE),
        session("s-ended-within-margin", -30 * MINUTE, 2 * HOUR),
        session("s-idle-within-margin", 5 * DAY, 8 * HOUR + 30 * MINUTE),
        session("s-ended", -2 * HOUR, 3 * HOUR),
        session("s-idle", 5 * DAY, 9 * HOUR + MINUTE),
        { ...session("s-pending-ended", -DAY, DAY), user_id: null, pending_user_id: alice },
      ])
      .execute();
    await handle.db
      .insertInto("auth_tokens")
      .values([
        token("t-live", 6 * DAY, null),
        token("t-expired-recently", -3 * DAY, null),
        token("t-used-recently", 6 * DAY, 2 * HOUR),
        token("t-expired-long-ago", -8 * DAY, null),
        token("t-used-long-ago", 6 * DAY, 2 * DAY),
        { ...token("t-reset-used", -DAY - HOUR, DAY + 2 * HOUR), purpose: "reset-password" as const },
      ])
      .execute();
    await handle.db
      .insertInto("rate_limits")
      .values([window("r-current", 10 * MINUTE), window("r-ended-within-margin", 90 * MINUTE), window("r-old", 2 * HOUR + MINUTE)])
      .execute();
    // AI call records: kept 365 days, their transcripts 30 (the defaults).
    const aiCall = (id: string, ago: number, transcript: string | null) => ({
      id, happened_at: at(-ago), purpose: "understand", issue_id: null, model: "m", prompt_tokens: 1, completion_tokens: 1, outcome: "answered", reading_grade: null, transcript,
    });
    await handle.db
      .insertInto("ai_calls")
      .values([aiCall("a-recent", DAY, "enc1:x"), aiCall("a-old-transcript", 31 * DAY, "enc1:x"), aiCall("a-expired", 366 * DAY, null)])
      .execute();

    const referenced = randomUUID();
    await plantInterview("kept", JSON.stringify({ evidence: { name: "Evidence", values: [null, `attachments/${referenced}.pdf`] } }));
    await plantInterview("deleted", "{}");
    const [adopted, fresh, abandoned, ofDeleted] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await plantAttachment(adopted, "kept", 3 * DAY);
    await plantAttachment(fresh, null, HOUR);
    await plantAttachment(abandoned, null, 2 * DAY);
    // Saved in an interview's answers, but never adopted (the save happened, the adoption did not).
    await plantAttachment(referenced, null, 2 * DAY);
    await plantAttachment(ofDeleted, "deleted", 2 * DAY);
    await handle.db.deleteFrom("interviews").where("id", "=", "deleted").execute(); // the row goes by cascade
    const [strayOld, strayNew] = [randomUUID(), randomUUID()];
    await plantFile(`${alice}/${strayOld}.pdf`, 25 * HOUR);
    await plantFile(`${alice}/${strayNew}.docx`, 10 * MINUTE); // an upload being written: its row comes next

    const log = vi.fn();
    expect(await runHousekeeping(handle.db, NOW, { storage, log })).toEqual({
      sessions: 3,
      links: 3,
      rateLimitWindows: 1,
      attachments: 1,
      strayFiles: 2,
      aiCalls: 2,
      preparedInterviews: 0,
      keptPosts: 0,
      reminders: 0,
    });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(
      /^\[housekeeping\] removed 3 expired sessions, 3 spent links, 1 old rate-limit windows, 1 orphaned attachments, 2 files without a row, 2 AI call records or transcripts past retention, 0 unclaimed prepared interviews, 0 kept forms past their hour; sent 0 reminders \(\d+ ms\)$/,
    );

    expect(await ids("sessions")).toEqual(["s-ended-within-margin", "s-idle-within-margin", "s-live"]);
    expect(await ids("auth_tokens")).toEqual(["t-expired-recently", "t-live", "t-used-recently"]);
    const windows = await handle.db.selectFrom("rate_limits").select("bucket").orderBy("bucket").execute();
    expect(windows.map((row) => row.bucket)).toEqual(["r-current", "r-ended-within-margin"]);
    const attachments = await handle.db.selectFrom("attachments").select("id").execute();
    expect(attachments.map((row) => row.id).sort()).toEqual([adopted, fresh, referenced].sort());
    expect([adopted, fresh, referenced].map(fileExists)).toEqual([true, true, true]);
    expect([abandoned, ofDeleted, strayOld].map(fileExists)).toEqual([false, false, false]);
    expect(existsSync(path.join(root, alice, `${strayNew}.docx`))).toBe(true);
    const aiCalls = await handle.db.selectFrom("ai_calls").select(["id", "transcript"]).orderBy("id").execute();
    expect(aiCalls).toEqual([{ id: "a-old-transcript", transcript: null }, { id: "a-recent", transcript: "enc1:x" }]);

    log.mockClear();
    expect(await runHousekeeping(handle.db, NOW, { storage, log })).toEqual({
      sessions: 0,
      links: 0,
      rateLimitWindows: 0,
      attachments: 0,
      strayFiles: 0,
      aiCalls: 0,
      preparedInterviews: 0,
      keptPosts: 0,
      reminders: 0,
    });
    expect(log).not.toHaveBeenCalled();
  });

  it("deletes in batches: more rows than one batch all go, the live ones stay", async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => session(`old-${String(i).padStart(4, "0")}`, -DAY, DAY));
    for (let i = 0; i < rows.length; i += 500) await handle.db.insertInto("sessions").values(rows.slice(i, i + 500)).execute();
    await handle.db.insertInto("sessions").values(session("s-live", DAY, MINUTE)).execute();
    expect(await purgeExpiredSessions(handle.db, NOW)).toBe(2500); // batches of 1,000
    expect(await ids("sessions")).toEqual(["s-live"]);

    // Every purge, with batches of 3 for 7 rows.
    await handle.db.insertInto("auth_tokens").values([...Array.from({ length: 7 }, (_, i) => token(`t-${i}`, -8 * DAY, null)), token("t-live", DAY, null)]).execute();
    await handle.db.insertInto("rate_limits").values([...Array.from({ length: 7 }, (_, i) => window(`r-${i}`, DAY)), window("r-live", MINUTE)]).execute();
    const abandoned = Array.from({ length: 7 }, () => randomUUID());
    for (const id of abandoned) await plantAttachment(id, null, 2 * DAY);
    for (let i = 0; i < 7; i++) await plantFile(`${alice}/stray-${i}.pdf`, 2 * DAY);
    await plantAttachment("fresh", null, MINUTE);

    expect(await purgeSpentLinks(handle.db, NOW, 3)).toBe(7);
    expect(await ids("auth_tokens")).toEqual(["t-live"]);
    expect(await purgeOldRateLimitWindows(handle.db, NOW, 3)).toBe(7);
    expect((await handle.db.selectFrom("rate_limits").select("bucket").execute()).map((row) => row.bucket)).toEqual(["r-live"]);
    expect(await purgeOrphanedAttachments(handle.db, NOW, storage, 3)).toEqual({ rows: 7, files: 7 });
    expect((await handle.db.selectFrom("attachments").select("id").execute()).map((row) => row.id)).toEqual(["fresh"]);
    expect(abandoned.some(fileExists)).toBe(false);
    expect(fileExists("fresh")).toBe(true);
  });

  it("never throws: a purge that fails is logged in one line, the others still run", async () => {
    await handle.db.insertInto("sessions").values(session("s-ended", -DAY, DAY)).execute();
    await plantFile(`${alice}/stray.pdf`, 2 * DAY);
    const broken: AttachmentStorage = {
      ...storage,
      async *list() {
        throw new Error("disk unreadable\n(EIO)");
      },
    };
    const log = vi.fn();
    const counts = await runHousekeeping(handle.db, NOW, { storage: broken, log });
    expect(counts).toMatchObject({ sessions: 1, strayFiles: 0 });
    expect(log.mock.calls.map((call) => call[0])).toEqual([
      expect.stringMatching(/^\[housekeeping\] removed 1 expired sessions, 0 spent links/),
      "[housekeeping] failed, will retry in the next round: attachments: disk unreadable (EIO)",
    ]);
    expect(await runHousekeeping(handle.db, NOW, { storage, log })).toMatchObject({ strayFiles: 1 });
  });
});

describe("housekeeping with the storages a deployment chooses (SQLite)", () => {
  let handle: TestDatabase;
  const alice = randomUUID();
  beforeAll(async () => {
    handle = await createTestDatabase("sqlite");
    await migrateToLatest(handle.db);
    await insertTestUser(handle.db, alice, "alice@example.org");
  });
  afterAll(() => handle?.drop());
  async function upload(storage: AttachmentStorage, uploadedAgo: number, now = NOW) {
    const id = randomUUID();
    const key = `${alice}/${id}.pdf`;
    await handle.db
      .insertInto("attachments")
      .values({ id, user_id: alice, interview_id: null, file_name: "a.pdf", content_type: "application/pdf", size: 9, storage_key: key, created_at: new Date(now.getTime() - uploadedAgo).toISOString() })
      .execute();
    await storage.put(key, Buffer.from("%PDF-1.7\n"));
    return key;
  }

  it("the database: an abandoned upload's bytes go with its row, a fresh one stays", async () => {
    const storage = storageFromConfig({}, handle.db);
    const [abandoned, fresh] = [await upload(storage, 2 * DAY), await upload(storage, HOUR)];
    expect(await runHousekeeping(handle.db, NOW, { storage, log: () => {} })).toMatchObject({ attachments: 1, strayFiles: 0 });
    expect(await storage.get(abandoned)).toBeNull();
    expect(await storage.get(fresh)).not.toBeNull();
  });

  it("a bucket: abandoned uploads and objects without a row are deleted once old enough", async () => {
    const standIn = await startS3StandIn();
    vi.stubEnv("AWS_ACCESS_KEY_ID", S3_ACCESS_KEY_ID);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_SECRET_ACCESS_KEY);
    try {
      const location = parseStorageUrl(`s3://test-bucket/files?endpoint=${standIn.url}`) as ObjectStorageLocation;
      const storage = storageFromConfig({ STORAGE_URL: location }, handle.db);
      // The stand-in's objects are written now, and housekeeping runs two days later.
      const later = new Date(Date.now() + 2 * DAY);
      const [abandoned, fresh] = [await upload(storage, 2 * DAY, later), await upload(storage, HOUR, later)];
      const stray = `${alice}/${randomUUID()}.pdf`;
      await storage.put(stray, Buffer.from("%PDF-1.7\n"));
      expect(await runHousekeeping(handle.db, later, { storage, log: () => {} })).toMatchObject({ attachments: 1, strayFiles: 1 });
      expect([...standIn.buckets.get("test-bucket")!.keys()]).toEqual([`files/${fresh}`]);
      expect(await storage.get(abandoned)).toBeNull();
      expect(await storage.get(stray)).toBeNull();
    } finally {
      vi.unstubAllEnvs();
      await standIn.close();
    }
  });
});

describe("the housekeeping timer", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs a minute after the start, then every hour, and stops", async () => {
    // A database that cannot be opened: each round is logged as failed, and the next one still comes.
    const db = vi.fn(() => {
      throw new Error("no database");
    });
    const log = vi.fn();
    const housekeeping = startHousekeeping({ db, storage: () => folderStorage("/nonexistent"), log });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(db).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(db).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith("[housekeeping] failed, will retry in the next round: no database");
    await vi.advanceTimersByTimeAsync(HOUR - 1_000);
    expect(db).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(db).toHaveBeenCalledTimes(2);
    await housekeeping.stop();
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(db).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
