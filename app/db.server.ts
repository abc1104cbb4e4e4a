import { openDatabase, type DatabaseHandle, type Db } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedIfEmpty } from "../db/seed";
import { config } from "./config.server";
import { importSeedGuides } from "./interviews/guides.server";

// Kept on globalThis so the development server's module reloads reuse one connection pool.
const holder = globalThis as typeof globalThis & { __database?: DatabaseHandle };

function handle(): DatabaseHandle {
  holder.__database ??= openDatabase(config().DATABASE_URL);
  return holder.__database;
}

/** The application's database. */
export function database(): Db {
  return handle().db;
}

/** Runs at start-up: migrations, then the seed content if the database has none. */
export async function prepareDatabase(log: (line: string) => void = console.log): Promise<void> {
  const { db, description } = handle();
  const { results = [] } = await migrateToLatest(db);
  log(`${description}: ${results.length} migration(s) applied`);
  if (await seedIfEmpty(db, config().SEED_DIR)) log(`${description}: seed content loaded from ${config().SEED_DIR}`);
  const guides = await importSeedGuides(config().SEED_DIR, { onlyMissing: true }, db);
  if (guides.length) log(`${description}: demo guides imported: ${guides.join(", ")}`);
}

export async function closeDatabase(): Promise<void> {
  const current = holder.__database;
  holder.__database = undefined;
  await current?.db.destroy();
}
