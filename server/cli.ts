// The operator commands, bundled by the build into build/server/cli.js (they run where the server runs, with
// no development tools): `node build/server/cli.js <command>`, or `npm run cli -- <command>` from a checkout.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readDataConfig } from "~/config.server";
import { attachGuideToIssue, getIssue } from "~/content/content.server";
import { GuideImportError, importGuide, readGuideSource } from "~/guides/import.server";
import { localStorage } from "~/interviews/attachments.server";
import { compactAfterResealing, resealAnswersAndFiles } from "~/interviews/sealing.server";
import { DataDecryptionError, keyringFromConfig } from "~/security/data-encryption.server";
import { openDatabase } from "../db/database";
import { migrateDatabase, reseedDatabase, type Sealing } from "./database-setup";

const usage = `Usage: node build/server/cli.js <command>

Commands:
  db migrate                                 apply pending migrations to DATABASE_URL
  db seed                                    (re)load SEED_DIR: countries, issues, pages, demo guides
  db rotate-key                              seal every answer, file name and file still under an old key
                                             with DATA_ENCRYPTION_KEY (the old ones in DATA_ENCRYPTION_OLD_KEYS)
  guide import <zip|folder> --id <guide-id> [--issue <issue-id>]
                                             import a published A2J guide, and attach it to an issue

Settings come from the environment: DATABASE_URL (default file:./data/app.db), SEED_DIR (default ./db/seed),
DATA_DIR (default ./data), DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_OLD_KEYS (as the server has them).`;

/** A mistake in how the command was called: the usage is shown and the exit code is 2. */
class UsageError extends Error {}

type Command = (args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  "db migrate": async (args) => {
    if (args.length) throw new UsageError(`Unexpected argument: ${args[0]}`);
    await withDatabase((handle) => migrateDatabase(handle, sealing(), console.log));
  },
  "db seed": async (args) => {
    if (args.length) throw new UsageError(`Unexpected argument: ${args[0]}`);
    await withDatabase((handle) => reseedDatabase(handle, readDataConfig().SEED_DIR, sealing(), console.log));
  },
  "db rotate-key": async (args) => {
    if (args.length) throw new UsageError(`Unexpected argument: ${args[0]}`);
    const { keys, storage } = sealing();
    await withDatabase(async (handle) => {
      await migrateDatabase(handle, { keys, storage }, console.log);
      const moved = await resealAnswersAndFiles(handle.db, storage, keys, "rotate");
      if (moved.interviews + moved.fileNames + moved.files) await compactAfterResealing(handle);
      console.log(
        `${handle.description}: sealed again under key ${keys.current.id}: ${moved.interviews} interview(s), ${moved.fileNames} file name(s), ${moved.files} file(s)` +
          (moved.missingFiles ? `; ${moved.missingFiles} file(s) missing from the storage` : ""),
      );
      console.log(`Everything is under key ${keys.current.id}: the old keys can be dropped from DATA_ENCRYPTION_OLD_KEYS.`);
    });
  },
  "guide import": async (args) => {
    const { positionals, values } = parse(args, { id: { type: "string" }, issue: { type: "string" } });
    const [source, extra] = positionals;
    if (!source || !values.id) throw new UsageError("guide import needs a zip or folder and --id.");
    if (extra) throw new UsageError(`Unexpected argument: ${extra}`);
    const issueId = values.issue === undefined ? null : Number(values.issue);
    if (issueId !== null && !(Number.isSafeInteger(issueId) && issueId > 0)) {
      throw new UsageError(`--issue must be an issue's number, not "${values.issue}".`);
    }
    const files = await readGuideSource(source);
    await withDatabase(async (handle) => {
      await migrateDatabase(handle, sealing(), () => undefined);
      // Checked first, so that a wrong issue number changes nothing.
      if (issueId !== null && !(await getIssue(issueId, handle.db))) throw new GuideImportError(`There is no issue ${issueId}.`);
      const result = await importGuide(values.id!, files, handle.db);
      console.log(`${handle.description}: guide "${result.title}" imported as ${values.id} with ${result.files} file(s)`);
      for (const warning of result.warnings) console.log(`  warning: ${warning}`);
      if (issueId !== null) {
        await attachGuideToIssue(issueId, values.id!, handle.db);
        console.log(`  attached to issue ${issueId}`);
      }
    });
  },
};

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

/** The keys and the attachment folder, from the same settings the server reads. */
function sealing(): Sealing {
  const settings = readDataConfig();
  return { keys: keyringFromConfig(settings), storage: localStorage(path.resolve(settings.DATA_DIR, "attachments")) };
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
  process.exitCode = await runCli(process.argv.slice(2));
}
