import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedDatabase } from "../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../tests/support/databases";
import { readablePdf } from "../tests/support/pdf";
import { adoptAttachments, attachmentNamePlace, findAttachment, storeAttachment } from "~/interviews/attachments.server";
import { interviewAnswersAnx, interviewPlace, loadInterview, SEALED_INTERVIEW_COLUMNS, saveInterview } from "~/interviews/interviews.server";
import { bytesKeyId, DataDecryptionError, dataKeyring, openBytes, openText, sealBytes, textKeyId } from "~/security/data-encryption.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { runCli } from "./cli";
import { migrateDatabase } from "./database-setup";

// Issue 13, part 3: nothing a person answered or uploaded is readable in the database files, the PostgreSQL
// tables or the folder uploads were once kept in; values do not open elsewhere or changed; old rows are sealed at start-up;
// `cli db rotate-key` moves everything to a new key, after which the old one can go.
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const b64 = (key: Buffer) => key.toString("base64");
// What the application seals with in this file (app/security/data-encryption.server.ts reads it once).
vi.stubEnv("DATA_ENCRYPTION_KEY", b64(oldKey));
vi.stubEnv("DATA_ENCRYPTION_OLD_KEYS", "");
afterAll(() => vi.unstubAllEnvs());
const oldRing = dataKeyring(oldKey);
const newRing = dataKeyring(newKey);

async function cli(...argv: string[]) {
  const out: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, "error").mockImplementation((line: string) => void out.push(line));
  try {
    return { code: await runCli(argv), output: out.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const answerWith = (marker: string) => ({
  answers: {
    "client story te": { name: "Client story TE", type: "Text" as const, repeating: false, values: [null, `He hit me. ${marker}`] },
  },
  history: [{ interviewPage: `Page ${marker}`, repeatVarValue: null, outerLoopVarValue: null }],
});

describe.each(dialects)("answers and files at rest on %s", (dialect) => {
  let handle: TestDatabase;
  let dataDir: string;
  let storage: AttachmentStorage;
  const alice = randomUUID();
  const marker = `MARKER${randomBytes(6).toString("hex")}`;
  let interviewId: string;
  let attachmentId: string;
  let storageKey: string;

  /** Every place the data could be read from outside the application, as text. */
  async function rawData(): Promise<string> {
    const files: string[] = [];
    const walk = async (dir: string) => {
      if (!existsSync(dir)) return;
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else files.push((await readFile(full)).toString("latin1"));
      }
    };
    await walk(path.join(dataDir, "attachments"));
    if (dialect === "sqlite") {
      const db = handle.url.slice("file:".length);
      for (const file of [db, `${db}-wal`]) if (existsSync(file)) files.push(readFileSync(file).toString("latin1"));
    } else {
      // Each row as PostgreSQL prints it, every column as text: what a dump of the tables holds; files as bytes.
      for (const table of [sql`interviews`, sql`attachments`]) {
        const { rows } = await sql<{ row: string }>`select t::text as row from ${table} t`.execute(handle.db);
        files.push(...rows.map((r) => r.row));
      }
      const stored = await handle.db.selectFrom("attachment_files").select("bytes").execute();
      files.push(...stored.map((row) => Buffer.from(row.bytes).toString("latin1")));
    }
    return files.join("\n");
  }

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    dataDir = mkdtempSync(path.join(tmpdir(), "lsh-at-rest-"));
    // The files as stored (sealed); uploads go through the storage the server uses, which seals them.
    storage = storageFromConfig({}, handle.db);
    await migrateDatabase(handle, { keys: oldRing, storage, dataDir }, () => undefined);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, alice, "alice@example.org");
    vi.stubEnv("DATABASE_URL", handle.url);
    vi.stubEnv("DATA_DIR", dataDir);
  });
  afterAll(async () => {
    await handle?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("stores a saved answer, its page history, an upload and its name with no readable trace", async () => {
    const text = `% ${marker} statement\n`;
    const file = new File([readablePdf(420 + text.length, (i) => text.charCodeAt(i % text.length))], `${marker}.pdf`);
    const sealing = storageFromConfig({}, handle.db, { seal: (bytes) => sealBytes(bytes), open: (bytes) => openBytes(bytes) });
    const stored = await storeAttachment({ userId: alice, interviewId: null }, file, sealing, handle.db);
    if (!stored.ok) throw new Error(stored.message);
    attachmentId = stored.id;
    interviewId = await saveInterview({ id: null, userId: alice, issueId: 2, status: "Draft", state: answerWith(marker) }, handle.db);
    await adoptAttachments(alice, interviewId, [attachmentId], handle.db);

    // The application reads it all back…
    expect((await loadInterview(alice, interviewId, handle.db))?.state).toEqual(answerWith(marker));
    expect(await interviewAnswersAnx(alice, interviewId, handle.db)).toContain(marker);
    const attachment = (await findAttachment(alice, attachmentId, handle.db))!;
    expect(attachment.file_name).toBe(`${marker}.pdf`);
    storageKey = attachment.storage_key;
    expect(openBytes((await storage.get(storageKey))!).toString()).toContain(`${marker} statement`);

    // …and nothing outside it can: not the database file and its log, not the table, not the folder.
    const raw = await rawData();
    expect(raw).toContain(oldRing.current.id); // the check reads the right bytes: the sealed values are there
    expect(raw).not.toContain(marker);
    expect(raw).not.toContain("He hit me");
  });

  it("does not open a value copied to another row or column, or changed", async () => {
    const otherId = await saveInterview({ id: null, userId: alice, issueId: 2, status: "Draft", state: answerWith("other") }, handle.db);
    const other = await handle.db.selectFrom("interviews").select("vars").where("id", "=", otherId).executeTakeFirstOrThrow();
    const changed = other.vars.slice(0, -6) + (other.vars.at(-6) === "A" ? "B" : "A") + other.vars.slice(-5);
    await handle.db.updateTable("interviews").set({ vars: changed }).where("id", "=", otherId).execute();
    await expect(interviewAnswersAnx(alice, otherId, handle.db)).rejects.toThrow(/does not open/);

    const row = await handle.db.selectFrom("interviews").select("vars").where("id", "=", interviewId).executeTakeFirstOrThrow();
    await handle.db.updateTable("interviews").set({ vars: row.vars }).where("id", "=", otherId).execute();
    await expect(loadInterview(alice, otherId, handle.db)).rejects.toThrow(DataDecryptionError);
    expect(() => openText(row.vars, interviewPlace("engine_state", interviewId), oldRing)).toThrow(DataDecryptionError);
    await handle.db.deleteFrom("interviews").where("id", "=", otherId).execute();

    const file = (await storage.get(storageKey))!;
    const flipped = Buffer.from(file);
    flipped[flipped.length - 1]! ^= 1;
    expect(() => openBytes(flipped)).toThrow(/changed/);
  });

  it("seals rows and files an earlier version stored readable, once, and the application reads them", async () => {
    const plainId = randomUUID();
    const plainFileId = randomUUID();
    const key = `${alice}/${plainFileId}.pdf`;
    const now = new Date().toISOString();
    // Written the way the version before encryption wrote them.
    const vars = JSON.stringify({ "client story te": { name: "Client story TE", type: "Text", repeating: false, values: [null, `Old ${marker}`] } });
    await handle.db
      .insertInto("interviews")
      .values({ id: plainId, user_id: alice, issue_id: 2, status: "Draft", vars, engine_state: JSON.stringify({ history: [] }), created_at: now, updated_at: now })
      .execute();
    await handle.db
      .insertInto("attachments")
      .values({ id: plainFileId, user_id: alice, interview_id: plainId, file_name: `old-${marker}.pdf`, content_type: "application/pdf", size: 30, storage_key: key, created_at: now })
      .execute();
    await mkdir(path.join(dataDir, "attachments", alice), { recursive: true });
    await writeFile(path.join(dataDir, "attachments", key), `%PDF-1.4\n% Old ${marker}\n%%EOF\n`);
    expect(await rawData()).toContain(marker);

    const log: string[] = [];
    await migrateDatabase(handle, { keys: oldRing, storage, dataDir }, (line) => log.push(line));
    // The file moves from the folder into the storage, sealed on its way; then the rows are sealed.
    expect(log.join("\n")).toContain("1 uploaded file(s) moved from");
    expect(log.join("\n")).toContain("sealed what was stored readable: 1 interview(s), 1 file name(s), 0 file(s)");
    const row = await handle.db.selectFrom("interviews").selectAll().where("id", "=", plainId).executeTakeFirstOrThrow();
    for (const column of SEALED_INTERVIEW_COLUMNS) expect(textKeyId(row[column])).toBe(oldRing.current.id);
    expect((await loadInterview(alice, plainId, handle.db))?.state.answers["client story te"]?.values).toEqual([null, `Old ${marker}`]);
    expect(await interviewAnswersAnx(alice, plainId, handle.db)).toContain(`<TextValue>Old ${marker}</TextValue>`);
    expect((await findAttachment(alice, plainFileId, handle.db))?.file_name).toBe(`old-${marker}.pdf`);
    expect(openBytes((await storage.get(key))!).toString()).toContain(`Old ${marker}`);
    // SQLite is compacted after sealing: the text the rows held before is gone from its file and log too.
    if (dialect === "sqlite") expect(await rawData()).not.toContain(marker);

    const again: string[] = [];
    const before = await handle.db.selectFrom("interviews").selectAll().orderBy("id").execute();
    await migrateDatabase(handle, { keys: oldRing, storage, dataDir }, (line) => again.push(line));
    expect(again.join("\n")).not.toContain("sealed");
    expect(await handle.db.selectFrom("interviews").selectAll().orderBy("id").execute()).toEqual(before);
  });

  it("rotate-key moves every value and file to the new key; then the old key can be dropped", async () => {
    // Without the old key, a value sealed under it opens under no configured key: refused, exit 1.
    vi.stubEnv("DATA_ENCRYPTION_KEY", b64(newKey));
    vi.stubEnv("DATA_ENCRYPTION_OLD_KEYS", "");
    const refused = await cli("db", "rotate-key");
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`is sealed under key ${oldRing.current.id}, which is not configured`);
    expect(refused.output).toContain("DATA_ENCRYPTION_OLD_KEYS");

    vi.stubEnv("DATA_ENCRYPTION_OLD_KEYS", b64(oldKey));
    const rotated = await cli("db", "rotate-key");
    expect(rotated, rotated.output).toMatchObject({ code: 0 });
    expect(rotated.output).toContain(`sealed again under key ${newRing.current.id}: 2 interview(s), 2 file name(s), 2 file(s)`);

    const interviews = await handle.db.selectFrom("interviews").selectAll().execute();
    for (const row of interviews) {
      for (const column of SEALED_INTERVIEW_COLUMNS) {
        expect(textKeyId(row[column])).toBe(newRing.current.id);
        openText(row[column], interviewPlace(column, row.id), newRing); // opens with the new key alone
      }
    }
    expect(openText(interviews.find((r) => r.id === interviewId)!.vars, interviewPlace("vars", interviewId), newRing)).toContain(marker);
    for (const row of await handle.db.selectFrom("attachments").select(["id", "file_name", "storage_key"]).execute()) {
      expect(openText(row.file_name, attachmentNamePlace(row.id), newRing)).toContain(marker);
      const file = (await storage.get(row.storage_key))!;
      expect(bytesKeyId(file)).toBe(newRing.current.id);
      expect(openBytes(file, newRing).toString()).toContain(marker);
    }
    expect(await rawData()).not.toContain(marker);

    // The old key dropped: nothing left to move, nothing refused.
    vi.stubEnv("DATA_ENCRYPTION_OLD_KEYS", "");
    const dropped = await cli("db", "rotate-key");
    expect(dropped, dropped.output).toMatchObject({ code: 0, output: expect.stringContaining("0 interview(s), 0 file name(s), 0 file(s)") });
    vi.stubEnv("DATA_ENCRYPTION_KEY", b64(oldKey));
  });
});
