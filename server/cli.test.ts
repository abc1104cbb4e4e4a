import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { extractText } from "unpdf";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../tests/support/databases";
import { LETTER_ANSWERS_ANX, LETTER_ANSWERS_JSON, scenarioGuideFiles, scenarioGuideZip } from "../tests/support/guide-fixtures";
import { readablePdf } from "../tests/support/pdf";
import { findAttachment, storeAttachment } from "~/interviews/attachments.server";
import { loadInterview, saveInterview } from "~/interviews/interviews.server";
import { openBytes, sealBytes } from "~/security/data-encryption.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { runCli } from "./cli";

// The operator commands as an operator runs them: settings from the environment, output on the console, an
// exit code. (tests/e2e/cli.spec.ts runs the same commands from the built bundle.)
const dir = mkdtempSync(path.join(tmpdir(), "lsh-cli-"));
const guideZip = path.join(dir, "guide.zip");
const currentKey = Buffer.alloc(32, 3).toString("base64");

function zipFolder(folder: string, top: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(folder)) files[`${top}/${name}`] = readFileSync(path.join(folder, name));
  return zipSync(files);
}

async function run(...argv: string[]) {
  const out: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, "error").mockImplementation((line: string) => void out.push(line));
  try {
    const code = await runCli(argv);
    return { code, output: out.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

beforeAll(() => {
  writeFileSync(guideZip, zipFolder("tests/fixtures/upload-guide", "upload-guide"));
  vi.stubEnv("SEED_DIR", "./db/seed");
  // The commands need no session secret, even where the server would (the container sets production).
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("SESSION_SECRET", "");
  vi.stubEnv("DATA_ENCRYPTION_KEY", currentKey);
  vi.stubEnv("DATA_ENCRYPTION_OLD_KEYS", "");
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(dialects)("the command-line entry on %s", (dialect) => {
  let database: TestDatabase;
  const query = <T>(read: (db: TestDatabase["db"]) => Promise<T>) => read(database.db);
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    vi.stubEnv("DATABASE_URL", database.url);
  });
  afterAll(() => database.drop());

  it("shows its usage, and exits 2 when called wrongly", async () => {
    expect(await run()).toMatchObject({ code: 2, output: expect.stringContaining("guide import <zip|folder|file> --id <guide-id>") });
    expect(await run("help")).toMatchObject({ code: 0, output: expect.stringContaining("db migrate") });
    expect(await run("db", "drop")).toMatchObject({ code: 2, output: expect.stringContaining("Unknown command: db drop") });
    expect(await run("db", "migrate", "now")).toMatchObject({ code: 2, output: expect.stringContaining("Unexpected argument: now") });
    expect(await run("guide", "import", guideZip)).toMatchObject({ code: 2, output: expect.stringContaining("needs a zip, folder or guide file and --id") });
    expect(await run("guide", "import", guideZip, "--id", "x", "--colour", "red")).toMatchObject({ code: 2, output: expect.stringContaining("--colour") });
    expect(await run("guide", "import", guideZip, "--id", "x", "--issue", "three")).toMatchObject({ code: 2, output: expect.stringContaining('not "three"') });
  });

  it("migrates, then seeds (again without duplicates)", async () => {
    expect(await run("db", "migrate")).toMatchObject({ code: 0, output: expect.stringMatching(/\d+ migration\(s\) applied/) });
    expect(await run("db", "seed")).toMatchObject({ code: 0, output: expect.stringContaining("seed content from ./db/seed loaded") });
    const once = await query((db) => db.selectFrom("issues").select("id").orderBy("id").execute());
    const sourcesOnce = await query((db) => db.selectFrom("sources").select(["id", "title"]).orderBy("id").execute());
    expect((await run("db", "seed")).code).toBe(0);
    const twice = await query((db) => db.selectFrom("issues").select("id").orderBy("id").execute());
    expect(once.length).toBeGreaterThan(0);
    expect(twice).toEqual(once);
    // The seed's sources are added once; the second run leaves them as they are.
    expect(sourcesOnce.length).toBeGreaterThan(0);
    expect(await query((db) => db.selectFrom("sources").select(["id", "title"]).orderBy("id").execute())).toEqual(sourcesOnce);
  });

  it("makes an account an administrator and back, recorded as done from the command line", async () => {
    await insertTestUser(database.db, randomUUID(), "Ops@Example.org");
    await insertTestUser(database.db, randomUUID(), "second@example.org");
    expect(await run("admin", "grant")).toMatchObject({ code: 2, output: expect.stringContaining("admin grant needs the account's email address") });
    expect(await run("admin", "grant", "nobody@example.org")).toMatchObject({ code: 1, output: "nobody@example.org: No account uses this email address." });
    expect(await run("admin", "grant", "ops@example.org")).toMatchObject({ code: 0, output: "Ops@Example.org is now an administrator." });
    expect(await run("admin", "grant", "ops@example.org")).toMatchObject({ code: 1, output: expect.stringContaining("already an administrator") });
    expect(await run("admin", "revoke", "ops@example.org")).toMatchObject({ code: 1, output: expect.stringContaining("The last administrator cannot be removed") });
    expect((await run("admin", "grant", "second@example.org")).code).toBe(0);
    expect(await run("admin", "revoke", "ops@example.org")).toMatchObject({ code: 0, output: "Ops@Example.org is no longer an administrator." });
    const roles = await query((db) => db.selectFrom("users").select(["email", "role"]).where("email", "in", ["Ops@Example.org", "second@example.org"]).orderBy("email").execute());
    expect(roles).toEqual([{ email: "Ops@Example.org", role: "person" }, { email: "second@example.org", role: "administrator" }]);
    const audit = await query((db) => db.selectFrom("audit_events").select(["actor_id", "actor_email", "action", "subject"]).orderBy("seq").execute());
    expect(audit).toEqual([
      { actor_id: null, actor_email: "command line", action: "role.granted", subject: "Ops@Example.org" },
      { actor_id: null, actor_email: "command line", action: "role.granted", subject: "second@example.org" },
      { actor_id: null, actor_email: "command line", action: "role.revoked", subject: "Ops@Example.org" },
    ]);
  });

  it("imports a guide zip and attaches it to an issue", async () => {
    const result = await run("guide", "import", guideZip, "--id", "cli-guide", "--issue", "3");
    expect(result).toMatchObject({ code: 0, output: expect.stringContaining('guide "Upload test guide" imported as cli-guide') });
    expect(result.output).toContain("attached to issue 3");
    const issue = await query((db) => db.selectFrom("issues").select(["guide_id", "guide_path"]).where("id", "=", 3).executeTakeFirstOrThrow());
    expect(issue).toEqual({ guide_id: "cli-guide", guide_path: "cli-guide/Guide.json" });
    const audit = await query((db) => db.selectFrom("audit_events").select(["actor_email", "action", "subject", "details"]).where("subject", "=", "cli-guide").orderBy("seq").execute());
    expect(audit.map((e) => [e.actor_email, e.action, JSON.parse(e.details)])).toEqual([
      ["command line", "guide.uploaded", { version: 1, warnings: expect.any(Number) }],
      ["command line", "guide.published", { version: 1 }],
      ["command line", "guide.attached", { issue: 3, version: 1 }],
    ]);
    // Again: a second version, published.
    expect((await run("guide", "import", guideZip, "--id", "cli-guide")).output).toContain("imported as cli-guide (version 2)");
    expect(await query((db) => db.selectFrom("guides").select("published_version").where("id", "=", "cli-guide").executeTakeFirstOrThrow())).toEqual({ published_version: 2 });
  });

  it("imports an A2J 4 guide file, converted, and prints what could not be converted", async () => {
    const result = await run("guide", "import", "app/a2j/__fixtures__/a2j4/Repair-request_Interview.xml", "--id", "a2j4-guide");
    expect(result).toMatchObject({ code: 0, output: expect.stringContaining('guide "Repair request (A2J 4 test guide)" imported as a2j4-guide (version 1) with 0 file(s)') });
    expect(result.output).toContain('  warning: question 10 "10 Finish": the rule "ASK Landlord" is neither SET nor GOTO');
    expect(result.output).toContain('  warning: page "3 Contact" field "County:": the pick list file "counties.xml" is not among the guide\'s files');
    expect(await query((db) => db.selectFrom("guide_versions").select(["format", "origin", "published_at"]).where("guide_id", "=", "a2j4-guide").executeTakeFirstOrThrow())).toMatchObject({ format: "json", origin: "command line", published_at: expect.any(String) });
  });

  it("refuses a guide it cannot use, and then changes nothing", async () => {
    expect(await run("guide", "import", guideZip, "--id", "other-guide", "--issue", "999")).toMatchObject({ code: 1, output: "Import refused: There is no issue 999." });
    expect(await query((db) => db.selectFrom("guides").select("id").where("id", "=", "other-guide").executeTakeFirst())).toBeUndefined();
    expect(await run("guide", "import", path.join(dir, "nothing.zip"), "--id", "other-guide")).toMatchObject({ code: 1, output: expect.stringContaining("No such file or folder") });
    writeFileSync(path.join(dir, "broken.zip"), "not a zip");
    expect(await run("guide", "import", path.join(dir, "broken.zip"), "--id", "other-guide")).toMatchObject({ code: 1, output: expect.stringContaining("not a readable zip") });
    expect(await run("guide", "import", guideZip, "--id", "Not An Id")).toMatchObject({ code: 1, output: expect.stringContaining("A guide id is 1 to 63") });
  });

  it("assembles a guide's documents from an answer file into a new file, and refuses what it cannot", async () => {
    const answers = path.join(dir, `answers-${dialect}.json`);
    writeFileSync(answers, JSON.stringify({ "User full name TE": { values: [null, "Ada Lovelace"] }, "Debtor name TE": { values: [null, "Babbage Ltd"] } }));
    const out = path.join(dir, `letter-${dialect}.pdf`);
    const assemble = (...rest: string[]) => run("guide", "assemble", "letter-of-demand", ...rest);
    expect(await assemble("--answers", answers)).toMatchObject({ code: 2, output: expect.stringContaining("needs the guide's id, --answers and --out") });
    expect(await assemble("--answers", answers, "--out", out)).toMatchObject({ code: 0, output: expect.stringMatching(/: application\/pdf, [\d.]+ kB, from guide letter-of-demand$/) });
    const { text } = await extractText(new Uint8Array(readFileSync(out)), { mergePages: true });
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("Babbage Ltd");
    expect(await assemble("--answers", answers, "--out", out)).toMatchObject({ code: 1, output: expect.stringContaining("already exists: name a new file") });
    expect(await run("guide", "assemble", "no-such-guide", "--answers", answers, "--out", `${out}.2`)).toMatchObject({ code: 1, output: "no-such-guide: There is no guide no-such-guide." });
    writeFileSync(`${answers}.bad`, "{not json");
    expect(await assemble("--answers", `${answers}.bad`, "--out", `${out}.2`)).toMatchObject({ code: 1, output: expect.stringContaining("answers are not valid JSON") });
    expect(await assemble("--answers", path.join(dir, "missing.json"), "--out", `${out}.2`)).toMatchObject({ code: 1, output: expect.stringContaining("missing.json: no such file") });
    expect(existsSync(`${out}.2`)).toBe(false);
  });

  it(`backs up ${dialect === "sqlite" ? "SQLite with its backup API" : "nothing on PostgreSQL, and says how with pg_dump"}`, async () => {
    expect(await run("db", "backup")).toMatchObject({ code: 2, output: expect.stringContaining("db backup needs the file") });
    const target = path.join(dir, `backup-${dialect}.db`);
    if (dialect === "postgres") {
      expect(await run("db", "backup", target)).toMatchObject({ code: 1, output: expect.stringContaining('pg_dump --format=custom --file=backup.dump "$DATABASE_URL"') });
      vi.stubEnv("STORAGE_URL", "s3://legal-files/prod");
      try {
        expect(await run("db", "backup", target)).toMatchObject({ code: 1, output: expect.stringContaining("Uploaded files are in s3://legal-files/prod/ (STORAGE_URL)") });
      } finally {
        vi.stubEnv("STORAGE_URL", "");
      }
      expect(existsSync(target)).toBe(false);
      return;
    }
    expect(await run("db", "backup", target)).toMatchObject({ code: 0, output: expect.stringContaining("The uploaded files are in it") });
    expect(await run("db", "backup", target)).toMatchObject({ code: 1, output: expect.stringContaining("already exists") });
    vi.stubEnv("STORAGE_URL", "s3://legal-files");
    try {
      expect(await run("db", "backup", `${target}.2`)).toMatchObject({ code: 0, output: expect.stringContaining("back that bucket up separately") });
    } finally {
      vi.stubEnv("STORAGE_URL", "");
    }
  });

  it("names a bad setting instead of failing somewhere later", async () => {
    vi.stubEnv("DATABASE_URL", "mysql://localhost/app");
    try {
      expect(await run("db", "migrate")).toMatchObject({ code: 1, output: expect.stringContaining("DATABASE_URL must start with file:") });
    } finally {
      vi.stubEnv("DATABASE_URL", database.url);
    }
  });
});

// Another process writing to the database the whole time, the way a running server does: each transaction
// adds an interview with an upload (its row and its bytes). Started here, stopped by closing its input.
const writerScript = `
  const Database = require("better-sqlite3");
  const db = new Database(process.argv[1]);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  const [user, issue] = [process.argv[2], Number(process.argv[3])];
  const addOne = db.transaction((n) => {
    const id = "writer-" + String(n).padStart(6, "0");
    const now = new Date().toISOString();
    db.prepare("insert into interviews (id, user_id, issue_id, status, vars, engine_state, created_at, updated_at) values (?, ?, ?, 'Draft', '{}', '{}', ?, ?)").run(id, user, issue, now, now);
    db.prepare("insert into attachments (id, user_id, interview_id, file_name, content_type, size, storage_key, created_at) values (?, ?, ?, 'w.pdf', 'application/pdf', 20000, ?, ?)").run(id, user, id, user + "/" + id + ".pdf", now);
    db.prepare("insert into attachment_files (attachment_id, bytes, written_at) values (?, ?, ?)").run(id, Buffer.alloc(20000, n % 251), now);
  });
  let n = 0, stopped = false;
  process.stdin.on("end", () => (stopped = true)).resume();
  (function next() { if (stopped) return db.close(); addOne(n++); setImmediate(next); })();
`;

describe("guide check (no database)", () => {
  const guideDir = path.join(dir, "check-guide");
  const scenarios = path.join(dir, "check-scenarios");
  beforeAll(() => {
    mkdirSync(guideDir, { recursive: true });
    mkdirSync(scenarios, { recursive: true });
    for (const [file, bytes] of Object.entries(scenarioGuideFiles("Letters", "Please pay within 7 days."))) writeFileSync(path.join(guideDir, file), bytes);
    writeFileSync(path.join(scenarios, "fourteen-days.json"), LETTER_ANSWERS_JSON);
    writeFileSync(path.join(scenarios, "fourteen-days.expect"), "outcome: ASSEMBLE-SUCCESS\ndocument contains: Please pay within 14 days.\n");
    writeFileSync(path.join(scenarios, "grace.anx"), LETTER_ANSWERS_ANX);
    writeFileSync(path.join(scenarios, "grace.expect"), "# the name reaches the letter\ndocument contains: I, Grace, ask you to pay 90 dollars.\n");
  });

  it("prints the health check and the scenarios, and exits 1 on a failing scenario or a finding that stops a person", async () => {
    const clean = await run("guide", "check", guideDir);
    expect(clean.code).toBe(0);
    expect(clean.output).toMatch(/^Guide "Letters": 2 of 2 pages reached, \d+ states, \d+\.\d\d seconds: every path the check could take was explored\.\nEndings reached: ASSEMBLE-SUCCESS\.\n0 errors \(a person is stopped\), 0 warnings\.\nResult: ready\.$/);

    const failing = await run("guide", "check", guideDir, "--scenarios", scenarios);
    expect(failing.code).toBe(1);
    expect(failing.output).toContain("Scenarios: 1 of 2 fails.\n  FAIL fourteen-days (ended with ASSEMBLE-SUCCESS after 2 pages)\n       pass Ends with ASSEMBLE-SUCCESS\n       FAIL A document contains \"Please pay within 14 days.\" (no document contains this text)\n  pass grace (ended with ASSEMBLE-SUCCESS after 2 pages)");
    expect(failing.output).toContain("Result: not ready (1 failing scenario).");

    const zip = path.join(dir, "problems.zip");
    writeFileSync(zip, scenarioGuideZip("Letters", "x", true));
    const blocked = await run("guide", "check", zip);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('error    page "Advice", field "County": The pick list names the list file "counties.xml"');
    expect(blocked.output).toContain('error    page "Opening hours": The page has no buttons: a person who reaches it cannot go on.');
    expect(blocked.output).toContain("Result: not ready (2 errors).");
  });

  it("says what is wrong with a scenario folder or the options", async () => {
    const lonely = mkdtempSync(path.join(dir, "lonely-"));
    writeFileSync(path.join(lonely, "lonely.anx"), LETTER_ANSWERS_ANX);
    expect(await run("guide", "check", guideDir, "--scenarios", lonely)).toMatchObject({ code: 1, output: "Scenarios: lonely.anx has no lonely.expect beside it." });
    expect(await run("guide", "check")).toMatchObject({ code: 2, output: expect.stringContaining("guide check needs a zip, folder or guide file.") });
    expect(await run("guide", "check", guideDir, "--seconds", "soon")).toMatchObject({ code: 2, output: expect.stringContaining('not "soon"') });
  });
});

describe("db backup on SQLite while another process writes", () => {
  let database: TestDatabase;
  const alice = randomUUID();
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    vi.stubEnv("DATABASE_URL", database.url);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, alice, "alice@example.org");
    await database.db.insertInto("categories").values({ id: 1, name: "Family", sort_order: 1 }).execute();
    await database.db
      .insertInto("issues")
      .values({ id: 1, category_id: 1, name: "Divorce", content: "", guide_id: null, guide_path: null, model_ai: "m", rephrase_content: "" })
      .execute();
  });
  afterAll(() => database?.drop());
  const writerRows = async (db = database.db) =>
    Number((await db.selectFrom("interviews").select((eb) => eb.fn.countAll().as("n")).where("id", "like", "writer-%").executeTakeFirstOrThrow()).n);

  it("copies every interview and every uploaded file as they were at one moment, and the copy restores", async () => {
    // Stored as the server stores them: answers and files sealed.
    const sealedAtRest = { seal: (bytes: Uint8Array) => sealBytes(bytes), open: (bytes: Buffer) => openBytes(bytes) };
    const storage = storageFromConfig({}, database.db, sealedAtRest);
    const made: { interviewId: string; attachmentId: string; bytes: Buffer }[] = [];
    for (let i = 0; i < 20; i++) {
      const interviewId = await saveInterview({ id: null, userId: alice, issueId: 1, status: "Draft", state: { answers: {}, history: [] } }, database.db);
      const noise = randomBytes(400_000);
      const bytes = readablePdf(400_000, (n) => noise[n]!);
      const stored = await storeAttachment({ userId: alice, interviewId }, new File([bytes], `${i}.pdf`), storage, database.db);
      if (!stored.ok) throw new Error(stored.message);
      made.push({ interviewId, attachmentId: stored.id, bytes });
    }

    const file = database.url.slice("file:".length);
    const writer = spawn(process.execPath, ["-e", writerScript, file, alice, "1"], { stdio: ["pipe", "inherit", "inherit"] });
    const writerEnded = new Promise((resolve) => writer.on("exit", resolve));
    const target = path.join(dir, "while-writing.db");
    let atBackupEnd: number;
    try {
      while ((await writerRows()) < 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const backup = await run("db", "backup", target);
      expect(backup, backup.output).toMatchObject({ code: 0, output: expect.stringMatching(/backed up to .*while-writing\.db: [\d.]+ MB in \d+ ms/) });
      atBackupEnd = await writerRows();
      while ((await writerRows()) < atBackupEnd + 20) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      writer.stdin.end();
      await writerEnded;
    }

    // Restoring is putting the file in place of the database (with the server stopped), as the README says.
    const restoredDir = mkdtempSync(path.join(tmpdir(), "lsh-restored-"));
    copyFileSync(target, path.join(restoredDir, "app.db"));
    const restored = openDatabase(`file:${path.join(restoredDir, "app.db")}`);
    try {
      const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(restored.db);
      expect(rows).toEqual([{ integrity_check: "ok" }]);
      await migrateToLatest(restored.db);
      const restoredStorage = storageFromConfig({}, restored.db, sealedAtRest);
      for (const { interviewId, attachmentId, bytes } of made) {
        expect(await loadInterview(alice, interviewId, restored.db), interviewId).not.toBeNull();
        const attachment = await findAttachment(alice, attachmentId, restored.db);
        expect((await restoredStorage.get(attachment!.storage_key))!.equals(bytes), attachmentId).toBe(true);
      }
      // The writer's work up to one moment: some of it (it wrote before and during the backup), not what came
      // after, and every interview it holds with its file (each was one transaction).
      const inBackup = await writerRows(restored.db);
      expect(inBackup).toBeGreaterThanOrEqual(20);
      expect(inBackup).toBeLessThanOrEqual(atBackupEnd!);
      expect(inBackup).toBeLessThan(await writerRows());
      const files = await restored.db.selectFrom("attachment_files").select((eb) => eb.fn.countAll().as("n")).where("attachment_id", "like", "writer-%").executeTakeFirstOrThrow();
      expect(Number(files.n)).toBe(inBackup);
    } finally {
      await restored.db.destroy();
      rmSync(restoredDir, { recursive: true, force: true });
    }
  });
});
