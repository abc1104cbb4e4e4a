// What the server does to its database before it listens, and what the operator commands do on demand.
import path from "node:path";
import type { DatabaseHandle } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase, seedIfEmpty } from "../db/seed";
import { importSeedGuides } from "~/guides/import.server";
import { moveFolderIntoStorage } from "~/interviews/attachments.server";
import { compactAfterResealing, resealAnswersAndFiles } from "~/interviews/sealing.server";
import { type DataKeyring, openBytes, sealBytes } from "~/security/data-encryption.server";
import { importSeedSources } from "~/sources/seed.server";
import { type AttachmentStorage, transformingStorage } from "~/storage/attachment-storage.server";

export type Log = (line: string) => void;

/** What sealing needs: the keys, and the storage whose files are sealed with the rows that name them. */
export interface Sealing {
  keys: DataKeyring;
  /** The files as stored (sealed): the commands seal and open them themselves. */
  storage: AttachmentStorage;
  /** DATA_DIR, where an earlier version kept uploaded files: they move into the storage, sealed. */
  dataDir?: string;
}

/**
 * Applies the pending migrations, then seals what an earlier version stored readable (answers, file names and
 * files), in batches; a database with nothing readable left costs one query per table.
 */
export async function migrateDatabase(handle: DatabaseHandle, sealing: Sealing, log: Log): Promise<void> {
  const { db, description } = handle;
  const { results = [] } = await migrateToLatest(db);
  log(`${description}: ${results.length} migration(s) applied`);
  if (sealing.dataDir) {
    const { keys } = sealing;
    const sealingStorage = transformingStorage(sealing.storage, { seal: (bytes) => sealBytes(bytes, keys), open: (bytes) => openBytes(bytes, keys) });
    await moveLocalUploads(handle, sealing.dataDir, sealingStorage, log);
  }
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
  const sources = await importSeedSources(seedDir, { onlyIfNone: true }, db);
  if (sources.length) log(`${description}: seed sources added: ${sources.length}`);
}

/** The seed command: migrations, then the whole seed folder again (the same rows updated, never duplicated). */
export async function reseedDatabase(handle: DatabaseHandle, seedDir: string, sealing: Sealing, log: Log): Promise<void> {
  await migrateDatabase(handle, sealing, log);
  const { db, description } = handle;
  await seedDatabase(db, seedDir);
  const guides = await importSeedGuides(seedDir, { onlyMissing: false }, db);
  log(`${description}: seed content from ${seedDir} loaded (guides: ${guides.join(", ") || "none"})`);
  const sources = await importSeedSources(seedDir, { onlyIfNone: false }, db);
  log(`${description}: seed sources added: ${sources.length} (those already there are kept as they are)`);
}

/**
 * After the migrations: uploads an older version kept under DATA_DIR/attachments move into the
 * configured storage (the database or the bucket), where every instance sees them.
 */
export async function moveLocalUploads({ db, description }: DatabaseHandle, dataDir: string, storage: AttachmentStorage, log: Log): Promise<void> {
  const root = path.resolve(dataDir, "attachments");
  const { moved, deleted } = await moveFolderIntoStorage(root, storage, db);
  if (moved || deleted) log(`${description}: ${moved} uploaded file(s) moved from ${root} into the storage, ${deleted} without a row deleted`);
}
