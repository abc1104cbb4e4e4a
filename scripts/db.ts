// Operator commands: `npm run db:migrate` and `npm run db:seed`, on the database DATABASE_URL names.
import { readConfig } from "../app/config.server";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase } from "../db/seed";
import { importSeedGuides } from "../app/interviews/guides.server";

const command = process.argv[2];
if (command !== "migrate" && command !== "seed") {
  console.error("Usage: tsx scripts/db.ts migrate|seed");
  process.exit(2);
}

const config = readConfig();
const { db, description } = openDatabase(config.DATABASE_URL);
try {
  const { results = [] } = await migrateToLatest(db);
  console.log(`${description}: ${results.length} migration(s) applied`);
  if (command === "seed") {
    await seedDatabase(db, config.SEED_DIR);
    const guides = await importSeedGuides(config.SEED_DIR, { onlyMissing: false }, db);
    console.log(`${description}: seed content from ${config.SEED_DIR} loaded (guides: ${guides.join(", ") || "none"})`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
