// Imports a published A2J guide (a zip or a folder with Guide.json or Guide.xml, templates, PDFs, pick lists,
// media) and attaches it to an issue:  npm run guide:import -- <zip|folder> --id <guideId> [--issue <issueId>]
import { parseArgs } from "node:util";
import { readConfig } from "../app/config.server";
import { GuideImportError, importGuide, readGuideSource } from "../app/interviews/guides.server";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";

const usage = "Usage: npm run guide:import -- <zip|folder> --id <guide-id> [--issue <issue-id>]";
let args;
try {
  args = parseArgs({ allowPositionals: true, options: { id: { type: "string" }, issue: { type: "string" } } });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const [source] = args.positionals;
const guideId = args.values.id;
if (!source || !guideId) {
  console.error(usage);
  process.exit(2);
}

const { db, description } = openDatabase(readConfig().DATABASE_URL);
try {
  await migrateToLatest(db);
  const issueId = args.values.issue === undefined ? null : Number(args.values.issue);
  if (issueId !== null && !(await db.selectFrom("issues").select("id").where("id", "=", issueId).executeTakeFirst())) {
    throw new GuideImportError(`There is no issue ${args.values.issue}.`);
  }
  const result = await importGuide(guideId, await readGuideSource(source), db);
  console.log(`${description}: guide "${result.title}" imported as ${guideId} with ${result.files} file(s)`);
  for (const warning of result.warnings) console.log(`  warning: ${warning}`);
  if (issueId !== null) {
    await db.updateTable("issues").set({ guide_id: guideId, guide_path: `${guideId}/Guide.json` }).where("id", "=", issueId).execute();
    console.log(`  attached to issue ${issueId}`);
  }
} catch (error) {
  console.error(error instanceof GuideImportError ? `Import refused: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
