// What the server does to its database before it listens, and what the operator commands do on demand.
import path from "node:path";
import type { DatabaseHandle } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase, seedIfEmpty } from "../db/seed";
import { importSeedGuides } from "~/guides/import.server";
import { moveFolderIntoStorage } from "~/interviews/attachments.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";

export type Log = (line: string) => void;

/** Applies the pending migrations. */
export async function migrateDatabase({ db, description }: DatabaseHandle, log: Log): Promise<void> {
  const { results = [] } = await migrateToLatest(db);
  log(`${description}: ${results.length} migration(s) applied`);
}

/** At start-up: migrations, then the seed content if the database has none, and any demo guide it lacks. */
export async function prepareDatabase(handle: DatabaseHandle, seedDir: string, log: Log): Promise<void> {
  await migrateDatabase(handle, log);
  const { db, description } = handle;
  if (await seedIfEmpty(db, seedDir)) log(`${description}: seed content loaded from ${seedDir}`);
  const guides = await importSeedGuides(seedDir, { onlyMissing: true }, db);
  if (guides.length) log(`${description}: demo guides imported: ${guides.join(", ")}`);
}

/** The seed command: migrations, then the whole seed folder again (the same rows updated, never duplicated). */
export async function reseedDatabase(handle: DatabaseHandle, seedDir: string, log: Log): Promise<void> {
  await migrateDatabase(handle, log);
  const { db, description } = handle;
  await seedDatabase(db, seedDir);
  const guides = await importSeedGuides(seedDir, { onlyMissing: false }, db);
  log(`${description}: seed content from ${seedDir} loaded (guides: ${guides.join(", ") || "none"})`);
}

/**
 * At start-up, after the migrations: uploads an older version kept under DATA_DIR/attachments move into the
 * configured storage (the database or the bucket), where every instance sees them.
 */
export async function moveLocalUploads({ db, description }: DatabaseHandle, dataDir: string, storage: AttachmentStorage, log: Log): Promise<void> {
  const root = path.resolve(dataDir, "attachments");
  const { moved, deleted } = await moveFolderIntoStorage(root, storage, db);
  if (moved || deleted) log(`${description}: ${moved} uploaded file(s) moved from ${root} into the storage, ${deleted} without a row deleted`);
}
