import { type Migration, type MigrationResultSet, Migrator } from "kysely";
import type { Db } from "./database";
import * as m0001 from "./migrations/0001_content";
import * as m0002 from "./migrations/0002_accounts";
import * as m0003 from "./migrations/0003_interviews";
import * as m0004 from "./migrations/0004_guides_attachments";
import * as m0005 from "./migrations/0005_rephrase_variables";
import * as m0006 from "./migrations/0006_attachment_files";
import * as m0007 from "./migrations/0007_recovery_codes";
import * as m0008 from "./migrations/0008_country_dates";
import * as m0009 from "./migrations/0009_answers_anx_on_read";
import * as m0010 from "./migrations/0010_administration";
import * as m0011 from "./migrations/0011_content_versions";
import * as m0012 from "./migrations/0012_guide_versions";
import * as m0013 from "./migrations/0013_usage";
import * as m0014 from "./migrations/0014_sources";
import * as m0015 from "./migrations/0015_ai_calls";
import { type EarlierSecrets, secretsMigration } from "./migrations/0016_secrets_in_the_data_keyring";
import * as m0017 from "./migrations/0017_guide_checks";
import * as m0019 from "./migrations/0019_content_published_by";
import * as m0020 from "./migrations/0020_help";
import * as m0021 from "./migrations/0021_languages";
import * as m0022 from "./migrations/0022_content_translations";
import * as m0023 from "./migrations/0023_passage_languages";
import * as m0024 from "./migrations/0024_guide_languages";
import * as m0025 from "./migrations/0025_date_digits";
import * as m0026 from "./migrations/0026_reuse_answers";
import * as m0027 from "./migrations/0027_reminders";
import * as m0028 from "./migrations/0028_kept_posts";
import * as m0029 from "./migrations/0029_signing";
import * as m0030 from "./migrations/0030_signing_certificate";
import * as m0031 from "./migrations/0031_api_tokens";
import * as m0032 from "./migrations/0032_webhooks";

/**
 * Every migration, in order. Listed here (not read from a folder) so the same list runs from the server
 * bundle, the scripts and the tests, in the order of their names (the order Kysely applies them in). Never edit
 * one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  "0001_content": m0001,
  "0002_accounts": m0002,
  "0003_interviews": m0003,
  "0004_guides_attachments": m0004,
  "0005_rephrase_variables": m0005,
  "0006_attachment_files": m0006,
  "0007_recovery_codes": m0007,
  "0008_country_dates": m0008,
  "0009_answers_anx_on_read": m0009,
  "0010_administration": m0010,
  "0011_content_versions": m0011,
  "0012_guide_versions": m0012,
  "0013_usage": m0013,
  "0014_sources": m0014,
  "0015_ai_calls": m0015,
  "0016_secrets_in_the_data_keyring": secretsMigration(undefined),
  "0017_guide_checks": m0017,
  "0019_content_published_by": m0019,
  "0020_help": m0020,
  "0021_languages": m0021,
  "0022_content_translations": m0022,
  "0023_passage_languages": m0023,
  "0024_guide_languages": m0024,
  "0025_date_digits": m0025,
  "0026_reuse_answers": m0026,
  "0027_reminders": m0027,
  "0028_kept_posts": m0028,
  "0029_signing": m0029,
  "0030_signing_certificate": m0030,
  "0031_api_tokens": m0031,
  "0032_webhooks": m0032,
};

/**
 * The migrations with what those that move sealed values need from the application (0016: the earlier keys,
 * handed in by server/database-setup.ts). Without it, 0016 refuses a database that holds such values.
 */
export function migrationsWith(earlier: EarlierSecrets | undefined): Record<string, Migration> {
  return { ...migrations, "0016_secrets_in_the_data_keyring": secretsMigration(earlier) };
}

/** Brings the schema up to date; safe to run from several instances at once (Kysely takes a lock). */
export async function migrateToLatest(db: Db, earlier?: EarlierSecrets): Promise<MigrationResultSet> {
  // Numbers are handed out to lines of work that merge in any order: a database that ran
  // a later number first still runs an earlier one it has not run, instead of refusing to start.
  const all = migrationsWith(earlier);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all }, allowUnorderedMigrations: true });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`Migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}
