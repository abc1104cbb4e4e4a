import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, dialects, type TestDatabase } from "../tests/support/databases";
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
    expect(await run()).toMatchObject({ code: 2, output: expect.stringContaining("guide import <zip|folder> --id <guide-id>") });
    expect(await run("help")).toMatchObject({ code: 0, output: expect.stringContaining("db migrate") });
    expect(await run("db", "drop")).toMatchObject({ code: 2, output: expect.stringContaining("Unknown command: db drop") });
    expect(await run("db", "migrate", "now")).toMatchObject({ code: 2, output: expect.stringContaining("Unexpected argument: now") });
    expect(await run("guide", "import", guideZip)).toMatchObject({ code: 2, output: expect.stringContaining("needs a zip or folder and --id") });
    expect(await run("guide", "import", guideZip, "--id", "x", "--colour", "red")).toMatchObject({ code: 2, output: expect.stringContaining("--colour") });
    expect(await run("guide", "import", guideZip, "--id", "x", "--issue", "three")).toMatchObject({ code: 2, output: expect.stringContaining('not "three"') });
  });

  it("migrates, then seeds (again without duplicates)", async () => {
    expect(await run("db", "migrate")).toMatchObject({ code: 0, output: expect.stringMatching(/\d+ migration\(s\) applied/) });
    expect(await run("db", "seed")).toMatchObject({ code: 0, output: expect.stringContaining("seed content from ./db/seed loaded") });
    const once = await query((db) => db.selectFrom("issues").select("id").orderBy("id").execute());
    expect((await run("db", "seed")).code).toBe(0);
    const twice = await query((db) => db.selectFrom("issues").select("id").orderBy("id").execute());
    expect(once.length).toBeGreaterThan(0);
    expect(twice).toEqual(once);
  });

  it("imports a guide zip and attaches it to an issue", async () => {
    const result = await run("guide", "import", guideZip, "--id", "cli-guide", "--issue", "3");
    expect(result).toMatchObject({ code: 0, output: expect.stringContaining('guide "Upload test guide" imported as cli-guide') });
    expect(result.output).toContain("attached to issue 3");
    const issue = await query((db) => db.selectFrom("issues").select(["guide_id", "guide_path"]).where("id", "=", 3).executeTakeFirstOrThrow());
    expect(issue).toEqual({ guide_id: "cli-guide", guide_path: "cli-guide/Guide.json" });
  });

  it("refuses a guide it cannot use, and then changes nothing", async () => {
    expect(await run("guide", "import", guideZip, "--id", "other-guide", "--issue", "999")).toMatchObject({ code: 1, output: "Import refused: There is no issue 999." });
    expect(await query((db) => db.selectFrom("guides").select("id").where("id", "=", "other-guide").executeTakeFirst())).toBeUndefined();
    expect(await run("guide", "import", path.join(dir, "nothing.zip"), "--id", "other-guide")).toMatchObject({ code: 1, output: expect.stringContaining("No such file or folder") });
    writeFileSync(path.join(dir, "broken.zip"), "not a zip");
    expect(await run("guide", "import", path.join(dir, "broken.zip"), "--id", "other-guide")).toMatchObject({ code: 1, output: expect.stringContaining("not a readable zip") });
    expect(await run("guide", "import", guideZip, "--id", "Not An Id")).toMatchObject({ code: 1, output: expect.stringContaining("A guide id is 1 to 63") });
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
