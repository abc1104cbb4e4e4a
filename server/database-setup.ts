// What the server does to its database before it listens, and what the operator commands do on demand.
import type { DatabaseHandle } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase, seedIfEmpty } from "../db/seed";
import { importSeedGuides } from "~/guides/import.server";
import type { AttachmentStorage } from "~/interviews/attachments.server";
import { compactAfterResealing, resealAnswersAndFiles } from "~/interviews/sealing.server";
import type { DataKeyring } from "~/security/data-encryption.server";

export type Log = (line: string) => void;

/** What sealing needs: the keys, and the storage whose files are sealed with the rows that name them. */
export interface Sealing {
  keys: DataKeyring;
  storage: AttachmentStorage;
}

/**
 * Applies the pending migrations, then seals what an earlier version stored readable (answers, file names and
 * files), in batches; a database with nothing readable left costs one query per table.
 */
export async function migrateDatabase(handle: DatabaseHandle, sealing: Sealing, log: Log): Promise<void> {
  const { db, description } = handle;
  const { results = [] } = await migrateToLatest(db);
  log(`${description}: ${results.length} migration(s) applied`);
  const sealed = await resealAnswersAndFiles(db, sealing.storage, sealing.keys, "plain");
  if (sealed.interviews + sealed.fileNames + sealed.files === 0) return;
  await compactAfterResealing(handle);
  log(
    `${description}: sealed what was stored readable: ${sealed.interviews} interview(s), ${sealed.fileNames} file name(s), ${sealed.files} file(s)` +
      (sealed.missingFiles ? ` (${sealed.missingFiles} file(s) missing from the storage)` : ""),
  );
}

/** At start-up: migrations, then the seed content if the database has none, and any demo guide it lacks. */
export async function prepareDatabase(handle: DatabaseHandle, seedDir: string, sealing: Sealing, log: Log): Promise<void> {
  await migrateDatabase(handle, sealing, log);
  const { db, description } = handle;
  if (await seedIfEmpty(db, seedDir)) log(`${description}: seed content loaded from ${seedDir}`);
  const guides = await importSeedGuides(seedDir, { onlyMissing: true }, db);
  if (guides.length) log(`${description}: demo guides imported: ${guides.join(", ")}`);
}

/** The seed command: migrations, then the whole seed folder again (the same rows updated, never duplicated). */
export async function reseedDatabase(handle: DatabaseHandle, seedDir: string, sealing: Sealing, log: Log): Promise<void> {
  await migrateDatabase(handle, sealing, log);
  const { db, description } = handle;
  await seedDatabase(db, seedDir);
  const guides = await importSeedGuides(seedDir, { onlyMissing: false }, db);
  log(`${description}: seed content from ${seedDir} loaded (guides: ${guides.join(", ") || "none"})`);
}
