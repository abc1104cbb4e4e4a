// What the server does to its database before it listens, and what the operator commands do on demand.
import { resealHelpTexts } from "~/help/sealing.server";
import path from "node:path";
import type { DatabaseHandle } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import type { EarlierSecrets } from "../db/migrations/0016_secrets_in_the_data_keyring";
import { seedDatabase, seedIfEmpty } from "../db/seed";
import { TRANSCRIPT_COLUMN } from "~/ai/call-log.server";
import { TWO_FACTOR_COLUMNS } from "~/auth/crypto.server";
import { retireEarlierRecoveryCodeKey } from "~/auth/recovery-codes.server";
import { importSeedGuides } from "~/guides/import.server";
import { moveFolderIntoStorage } from "~/interviews/attachments.server";
import { compactAfterResealing, resealAnswersAndFiles } from "~/interviews/sealing.server";
import { APPLICATION_KEY_COLUMN } from "~/security/application-keys.server";
import { type DataKeyring, openBytes, sealBytes } from "~/security/data-encryption.server";
import { resealTextColumn, type SealedTextColumn } from "~/security/sealed-columns.server";
import { SIGNING_COLUMNS } from "~/signing/requests.server";
import { SIGNING_KEY_COLUMN } from "~/signing/certificate.server";
import { importSeedSources } from "~/sources/seed.server";
import { WEBHOOK_SECRET_COLUMNS } from "~/webhooks/endpoints.server";
import { type AttachmentStorage, transformingStorage } from "~/storage/attachment-storage.server";

export type Log = (line: string) => void;

/** What sealing needs: the keys, and the storage whose files are sealed with the rows that name them. */
export interface Sealing {
  keys: DataKeyring;
  /** The files as stored (sealed): the commands seal and open them themselves. */
  storage: AttachmentStorage;
  /** DATA_DIR, where an earlier version kept uploaded files: they move into the storage, sealed. */
  dataDir?: string;
  /** The keys an earlier version derived from SESSION_SECRET, for migration 0016 (app/auth/earlier-secrets.server.ts). */
  earlier?: EarlierSecrets;
}

/**
 * Applies the pending migrations, then seals what an earlier version stored readable (answers, file names and
 * files), in batches; a database with nothing readable left costs one query per table.
 */
export async function migrateDatabase(handle: DatabaseHandle, sealing: Sealing, log: Log): Promise<void> {
  const { db, description } = handle;
  const { results = [] } = await migrateToLatest(db, sealing.earlier);
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
  const { kept } = await seedDatabase(db, seedDir);
  if (kept.length) log(`${description}: kept as administrators changed them (not seeded): ${kept.join(", ")}`);
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

/** The sealed columns of one value per row, beside the interviews' and the files, with what each counts. */
const SEALED_COLUMNS: { counted: string; spec: SealedTextColumn }[] = [
  ...TWO_FACTOR_COLUMNS,
  { counted: "AI transcript(s)", spec: TRANSCRIPT_COLUMN },
  { counted: "application key(s) (recovery codes, usage pages)", spec: APPLICATION_KEY_COLUMN },
  // Signing (docs/decisions/0055): signers' names, emails, typed and drawn signatures, reasons; the signed PDFs.
  ...SIGNING_COLUMNS,
  { counted: "document seal key(s) (the self-signed signing certificate)", spec: SIGNING_KEY_COLUMN },
  ...WEBHOOK_SECRET_COLUMNS,
];

/**
 * `cli db rotate-key`: migrations first (so a database an earlier version left is moved too), then every sealed
 * value not under the current key is sealed again: answers, file names and files, two-factor secrets, what
 * sessions hold, AI transcripts, the application's keys, the self-signed document seal's key, webhook secrets, signers' details and signed documents, help requests' messages and helpers' replies. Says what it did, by kind; stops (DataDecryptionError,
 * the place named) at a value no configured key opens, what was done staying done.
 */
export async function rotateSealedValues(handle: DatabaseHandle, sealing: Sealing, log: Log): Promise<void> {
  const { db, description } = handle;
  const { keys, storage } = sealing;
  await migrateDatabase(handle, sealing, log);
  const moved = await resealAnswersAndFiles(db, storage, keys, "rotate");
  const counts = [`${moved.interviews} interview(s)`, `${moved.fileNames} file name(s)`, `${moved.files} file(s)`];
  let total = moved.interviews + moved.fileNames + moved.files;
  for (const { counted, spec } of SEALED_COLUMNS) {
    const written = await resealTextColumn(db, spec, keys);
    counts.push(`${written} ${counted}`);
    total += written;
  }
  const help = await resealHelpTexts(db, keys);
  counts.push(`${help.messages} help request message(s)`, `${help.replies} helper reply(ies)`);
  total += help.messages + help.replies;
  if (total) await compactAfterResealing(handle);
  log(`${description}: sealed again under key ${keys.current.id}: ${counts.join(", ")}` + (moved.missingFiles ? `; ${moved.missingFiles} file(s) missing from the storage` : ""));
  const earlierCodes = await retireEarlierRecoveryCodeKey(db);
  if (earlierCodes) {
    log(`${description}: ${earlierCodes} recovery code(s) made before this version still use the key they were made with (kept, sealed under ${keys.current.id}, until they are used or replaced)`);
  }
  log(`Everything is under key ${keys.current.id}: the old keys can be dropped from DATA_ENCRYPTION_OLD_KEYS.`);
}
