// PostgreSQL's text search configuration for each language a source may be written in (its stemming: "évictions"
// finds "éviction" in French), where the server has that configuration; every other language, and Chinese
// (searched by pairs of characters in app/sources/sources.server.ts), uses `simple`. SQLite's FTS5 has one
// tokeniser for the whole table (porter over unicode61: English stemming, accents folded) and is unchanged.
import { type Kysely, type RawBuilder, sql } from "kysely";

/** The configurations PostgreSQL ships that match a product language (Malay is read as Indonesian, its twin). */
export const SEARCH_CONFIGS: Readonly<Record<string, string>> = { en: "english", fr: "french", es: "spanish", ms: "indonesian", ta: "tamil", ar: "arabic" };

/** Those of SEARCH_CONFIGS the server has (all from PostgreSQL 13 on), by language. */
export async function availableSearchConfigs(db: Kysely<any>): Promise<[string, string][]> {
  const { rows } = await sql<{ cfgname: string }>`select cfgname from pg_ts_config`.execute(db);
  const present = new Set(rows.map((row) => row.cfgname));
  return Object.entries(SEARCH_CONFIGS).filter(([, config]) => present.has(config));
}

/** The configuration of a row whose language is in `column`, as an SQL expression (immutable: it can be generated). */
export function searchConfigExpression(column: string, configs: readonly [string, string][]): RawBuilder<unknown> {
  if (!configs.length) return sql`'simple'::regconfig`;
  const whens = configs.map(([language, config]) => sql`when ${sql.lit(language)} then ${sql.lit(config)}::regconfig`);
  return sql`(case ${sql.ref(column)} ${sql.join(whens, sql` `)} else 'simple'::regconfig end)`;
}
