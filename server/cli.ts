// The operator commands, bundled by the build into build/server/cli.js (they run where the server runs, with
// no development tools): `node build/server/cli.js <command>`, or `npm run cli -- <command>` from a checkout.
// What a command prints is its answer to the operator, in plain text on standard output (errors on standard
// error); what the application logs meanwhile goes to standard error as JSON lines (docs/decisions/0035).
import { realpathSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import { type ObjectStorageLocation, readConfig, readDataConfig } from "~/config.server";
import { sendMail } from "~/mail/mail.server";
import { sendDueReminders } from "~/reminders/reminders.server";
import { commandLineActor } from "~/audit/audit.server";
import { earlierSecrets } from "~/auth/earlier-secrets.server";
import { importGuideFromCommandLine } from "~/administration/guides.server";
import { datAssemble } from "~/documents/dat.server";
import { grantAdministrator, revokeAdministrator } from "~/administration/roles.server";
import { GuideImportError, readGuideSource } from "~/guides/import.server";
import { checkGuideFilesWithScenarios, readScenarioFolder, ScenarioFolderError } from "~/guide-checks/check-files.server";
import { backupSqlite } from "../db/backup";
import { logToStandardError } from "~/observability/log.server";
import { DataDecryptionError, keyringFromConfig } from "~/security/data-encryption.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { type Db, openDatabase } from "../db/database";
import { migrateDatabase, reseedDatabase, rotateSealedValues, type Sealing } from "./database-setup";

const usage = `Usage: node build/server/cli.js <command>

Commands:
  db migrate                                 apply pending migrations to DATABASE_URL
  db seed                                    (re)load SEED_DIR: countries, issues, pages, demo guides
  db backup <file>                           copy the SQLite database, with the uploaded files, to a new file,
                                             while the server runs (PostgreSQL: pg_dump, see the README)
  db rotate-key                              seal everything still under an old key (answers, files, two-factor
                                             secrets, AI transcripts, the application's keys) with
                                             DATA_ENCRYPTION_KEY (the old ones in DATA_ENCRYPTION_OLD_KEYS)
  guide import <zip|folder|file> --id <guide-id> [--issue <issue-id>]
                                             import a published A2J guide (A2J 4 guides are converted) as
                                             a new published version, and attach it to an issue
  guide assemble <guide-id> --answers <answers.json> --out <file>
                                             assemble the published version's documents from A2J answers
                                             (JSON, as POST /assemble takes them) into a new file: a PDF,
                                             a Word file, or a zip of them
  guide check <zip|folder|file> [--scenarios <dir>] [--seconds <n>]
                                             the health check of every path, and the test scenarios of a
                                             folder (NAME.anx or NAME.json with NAME.expect); no database.
                                             Exit code 1 when a finding stops a person or a scenario fails
  reminders send [--now <time>]              email the reminders of unfinished interviews that are due (as
                                             housekeeping does every hour); --now: as if it were that time
                                             (an ISO 8601 time, e.g. 2031-03-01T12:00:00Z), to test a delay
  admin grant <email>                        make the account with this email an administrator
  admin revoke <email>                       make an administrator an ordinary account again

Settings come from the environment: DATABASE_URL (default file:./data/app.db), SEED_DIR (default ./db/seed),
DATA_DIR (default ./data), STORAGE_URL (unset: uploaded files are in the database), DATA_ENCRYPTION_KEY and
DATA_ENCRYPTION_OLD_KEYS (as the server has them); for reminders send, the mail settings (RESEND_API_KEY, MAIL_FROM,
PUBLIC_ORIGIN, and SESSION_SECRET in production) as the server has them; on a database an earlier version left, SESSION_SECRET (and
TOTP_ENCRYPTION_KEY if it was set) as the server has them, to move its two-factor secrets (migration 0016).`;

/** A mistake in how the command was called: the usage is shown and the exit code is 2. */
class UsageError extends Error {}

/** A command that cannot do what was asked here, and says what to do instead: exit code 1. */
class Refusal extends Error {}

const bucketName = (location: ObjectStorageLocation) => `s3://${location.bucket}/${location.prefix}`;

/** What an operator must know about uploaded files kept in a bucket: no database backup holds them. */
const bucketNote = (location: ObjectStorageLocation) =>
  `Uploaded files are in ${bucketName(location)} (STORAGE_URL), not in the database: back that bucket up ` +
  "separately (with versioning, replication, or a copy such as `aws s3 sync`).";

type Command = (args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  "db migrate": async (args) => {
    if (args.length) throw new UsageError(`Unexpected argument: ${args[0]}`);
    await withDatabase((handle) => migrateDatabase(handle, sealing(handle.db), console.log));
  },
  "db seed": async (args) => {
    if (args.length) throw new UsageError(`Unexpected argument: ${args[0]}`);
    await withDatabase((handle) => reseedDatabase(handle, readDataConfig().SEED_DIR, sealing(handle.db), console.log));
  },
  "db rotate-key": async (args) => {
    if (args.length) throw new UsageError(`Unexpected argument: ${args[0]}`);
    await withDatabase((handle) => rotateSealedValues(handle, sealing(handle.db), console.log));
  },
  "db backup": async (args) => {
    const [target, extra] = args;
    if (!target || target.startsWith("-")) throw new UsageError("db backup needs the file to write the backup to.");
    if (extra) throw new UsageError(`Unexpected argument: ${extra}`);
    const { DATABASE_URL, STORAGE_URL } = readDataConfig();
    if (!DATABASE_URL.startsWith("file:")) {
      throw new Refusal(
        [
          "db backup copies SQLite databases; DATABASE_URL names a PostgreSQL database. Back it up with PostgreSQL's own tool,",
          "which also copies a live database consistently:",
          '  pg_dump --format=custom --file=backup.dump "$DATABASE_URL"',
          'and restore it into an empty database with: pg_restore --no-owner --dbname="$DATABASE_URL" backup.dump',
          ...(STORAGE_URL ? [bucketNote(STORAGE_URL)] : []),
        ].join("\n"),
      );
    }
    const source = DATABASE_URL.slice("file:".length);
    if (source === ":memory:") throw new Refusal("DATABASE_URL is an in-memory database: there is nothing to back up.");
    const result = await backupSqlite(path.resolve(source), path.resolve(target));
    console.log(`SQLite ${source} backed up to ${target}: ${(result.bytes / 1024 / 1024).toFixed(1)} MB in ${result.ms} ms`);
    console.log(STORAGE_URL ? bucketNote(STORAGE_URL) : "The uploaded files are in it (they are kept in the database).");
  },
  "guide import": async (args) => {
    const { positionals, values } = parse(args, { id: { type: "string" }, issue: { type: "string" } });
    const [source, extra] = positionals;
    if (!source || !values.id) throw new UsageError("guide import needs a zip, folder or guide file and --id.");
    if (extra) throw new UsageError(`Unexpected argument: ${extra}`);
    const issueId = values.issue === undefined ? null : Number(values.issue);
    if (issueId !== null && !(Number.isSafeInteger(issueId) && issueId > 0)) {
      throw new UsageError(`--issue must be an issue's number, not "${values.issue}".`);
    }
    const files = await readGuideSource(source);
    await withDatabase(async (handle) => {
      await migrateDatabase(handle, sealing(handle.db), () => undefined);
      // A new version of the guide, published at once (recorded in the audit as the command line's).
      const result = await importGuideFromCommandLine(values.id!, files, issueId, handle.db);
      console.log(`${handle.description}: guide "${result.title}" imported as ${values.id} (version ${result.version}) with ${result.files} file(s)`);
      for (const warning of result.warnings) console.log(`  warning: ${warning}`);
      if (issueId !== null) console.log(`  attached to issue ${issueId}`);
    });
  },
  "guide assemble": async (args) => {
    const { positionals, values } = parse(args, { answers: { type: "string" }, out: { type: "string" } });
    const [guideId, extra] = positionals;
    if (!guideId || !values.answers || !values.out) throw new UsageError("guide assemble needs the guide's id, --answers and --out.");
    if (extra) throw new UsageError(`Unexpected argument: ${extra}`);
    const answers = await readFile(values.answers, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new Refusal(`Cannot read ${values.answers}: ${error.code === "ENOENT" ? "no such file" : error.message}`);
    });
    await withDatabase(async (handle) => {
      await migrateDatabase(handle, sealing(handle.db), () => undefined);
      // The same assembly as POST /assemble, A2J DAT's interface (app/documents/dat.server.ts).
      const request = new Request("http://localhost/assemble", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ guideId, answers }),
      });
      const response = await datAssemble(request, handle.db);
      if (!response.ok) throw new Refusal(`${guideId}: ${((await response.json()) as { error: string }).error}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      await writeFile(values.out!, bytes, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
        throw new Refusal(error.code === "EEXIST" ? `${values.out} already exists: name a new file.` : `Cannot write ${values.out}: ${error.message}`);
      });
      console.log(`${values.out}: ${response.headers.get("Content-Type")}, ${(bytes.length / 1024).toFixed(1)} kB, from guide ${guideId}`);
    });
  },
  "guide check": async (args) => {
    const { positionals, values } = parse(args, { scenarios: { type: "string" }, seconds: { type: "string" } });
    const [source, extra] = positionals;
    if (!source) throw new UsageError("guide check needs a zip, folder or guide file.");
    if (extra) throw new UsageError(`Unexpected argument: ${extra}`);
    const seconds = values.seconds === undefined ? undefined : Number(values.seconds);
    if (seconds !== undefined && !(Number.isFinite(seconds) && seconds > 0 && seconds <= 3600)) throw new UsageError(`--seconds must be a number of seconds, not "${values.seconds}".`);
    const files = await readGuideSource(source);
    const scenarios = values.scenarios ? await readScenarioFolder(values.scenarios) : [];
    const checked = await checkGuideFilesWithScenarios(files, scenarios, seconds);
    for (const line of checked.lines) console.log(line);
    if (checked.failed) throw new Refusal("The guide is not ready: see the errors and failing scenarios above.");
  },
  "reminders send": async (args) => {
    const { positionals, values } = parse(args, { now: { type: "string" } });
    if (positionals.length) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
    const now = values.now === undefined ? new Date() : new Date(values.now);
    if (Number.isNaN(now.getTime())) throw new UsageError(`--now must be an ISO 8601 time such as 2031-03-01T12:00:00Z, not "${values.now}".`);
    await withDatabase(async (handle) => {
      await migrateDatabase(handle, sealing(handle.db), () => undefined);
      const settings = readConfig();
      const sent = await sendDueReminders(handle.db, now, { origin: settings.PUBLIC_ORIGIN, send: (message) => sendMail(message, settings, handle.db) });
      console.log(`${handle.description}: ${sent} reminder(s) sent, as at ${now.toISOString()}`);
    });
  },
  "admin grant": (args) => changeRole("grant", args),
  "admin revoke": (args) => changeRole("revoke", args),
};

/** `admin grant|revoke <email>`: recorded in the audit as done from the command line. */
async function changeRole(change: "grant" | "revoke", args: string[]): Promise<void> {
  const [email, extra] = args;
  if (!email || email.startsWith("-")) throw new UsageError(`admin ${change} needs the account's email address.`);
  if (extra) throw new UsageError(`Unexpected argument: ${extra}`);
  await withDatabase(async (handle) => {
    await migrateDatabase(handle, sealing(handle.db), () => undefined);
    const changed = await (change === "grant" ? grantAdministrator : revokeAdministrator)(email, commandLineActor, handle.db);
    if (!changed.ok) throw new Refusal(`${email}: ${changed.message}`);
    console.log(change === "grant" ? `${changed.email} is now an administrator.` : `${changed.email} is no longer an administrator.`);
  });
}

function parse(args: string[], options: NonNullable<Parameters<typeof parseArgs>[0]>["options"]) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true }) as {
      positionals: string[];
      values: Record<string, string | undefined>;
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The keys (the earlier ones too, for migration 0016), and the uploaded files as stored: what sealing needs. */
function sealing(db: Db): Sealing {
  const settings = readDataConfig();
  const keys = keyringFromConfig(settings);
  return { keys, storage: storageFromConfig(settings, db), dataDir: settings.DATA_DIR, earlier: earlierSecrets(settings, keys) };
}

async function withDatabase(work: (handle: ReturnType<typeof openDatabase>) => Promise<void>): Promise<void> {
  const handle = openDatabase(readDataConfig().DATABASE_URL);
  try {
    await work(handle);
  } finally {
    await handle.db.destroy();
  }
}

/** Runs one command line; returns the process's exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function runCli(argv: string[]): Promise<number> {
  const [group = "", name = "", ...rest] = argv;
  if (["", "help", "-h", "--help"].includes(group)) {
    console.log(usage);
    return group === "" ? 2 : 0;
  }
  const command = commands[`${group} ${name}`];
  try {
    if (!command) throw new UsageError(`Unknown command: ${[group, name].filter(Boolean).join(" ")}`);
    await command(rest);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof GuideImportError) console.error(`Import refused: ${error.message}`);
    else if (error instanceof ScenarioFolderError) console.error(`Scenarios: ${error.message}`);
    else if (error instanceof Refusal) console.error(error.message);
    else if (error instanceof DataDecryptionError) {
      const remedy = error.message.includes("not configured")
        ? "Give the key it was sealed with in DATA_ENCRYPTION_OLD_KEYS"
        : "The value was changed or copied from elsewhere: restore it from a backup or delete its row";
      console.error(`Stopped: ${error.message}. ${remedy}, then run the command again (what was done so far stays done).`);
    }
    else if ((error as Error)?.name === "ConfigError") console.error((error as Error).message);
    else console.error(`Failed: ${(error as Error)?.message ?? error}`);
    return 1;
  }
}

// Run when this file is the program (node build/server/cli.js), not when a test imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  logToStandardError();
  process.exitCode = await runCli(process.argv.slice(2));
}
