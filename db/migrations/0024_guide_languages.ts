import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Guides per language (docs/decisions/0048-guides-per-language.md): a guide is written in a language (from its
 * A2J `language` on import; administrators may correct it) and may be the same interview as another guide in
 * another language. An interview keeps the language it started in, as it keeps its guide version, and the
 * anonymous usage events say in which language an interview was started, finished or given up.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("guides").addColumn("language", "text", (col) => col.notNull().defaultTo("en")).execute();
  await db.schema.alterTable("guides").addColumn("translation_of", "text").execute();
  await db.schema.alterTable("interviews").addColumn("language", "text", (col) => col.notNull().defaultTo("en")).execute();
  await db.schema.alterTable("usage_events").addColumn("language", "text").execute();

  // The guides already stored: the language their latest version's text names (JSON "language", XML <LANGUAGE>).
  const versions = await db
    .selectFrom("guide_versions")
    .select(["guide_id", "version", "source"])
    .orderBy("guide_id")
    .orderBy("version", "desc")
    .execute();
  const seen = new Set<string>();
  for (const row of versions as { guide_id: string; version: number; source: string }[]) {
    if (seen.has(row.guide_id)) continue;
    seen.add(row.guide_id);
    const tag = languageNamedIn(row.source);
    if (tag !== "en") await db.updateTable("guides").set({ language: tag }).where("id", "=", row.guide_id).execute();
  }
  await sql`update interviews set language = coalesce(
    (select g.language from guides g where g.id = coalesce(interviews.guide_id, (select i.guide_id from issues i where i.id = interviews.issue_id))),
    'en')`.execute(db);

  // The usage triggers of migration 0013 write the interview's language too.
  await writeUsageTriggers(db, { withLanguage: true });
}

/** Migration 0013's usage triggers, writing the interview's language or (going down) not. */
async function writeUsageTriggers(db: Kysely<any>, { withLanguage }: { withLanguage: boolean }) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const language = (row: "new" | "old") => (withLanguage ? `, ${row}.language` : "");
  const triggers = [
    ["usage_started", "after insert", null, `new.issue_id, substr(new.created_at, 1, 7), 'started', null${language("new")}`],
    ["usage_completed", "after update of status", "old.status <> 'Completed' and new.status = 'Completed'", `new.issue_id, substr(new.updated_at, 1, 7), 'completed', null${language("new")}`],
    ["usage_left", "after delete", "old.status <> 'Completed'", `old.issue_id, substr(old.updated_at, 1, 7), 'left', old.last_page${language("old")}`],
  ] as const;
  for (const [name, when, condition, values] of triggers) {
    const insert = `insert into usage_events (issue_id, month, kind, page${withLanguage ? ", language" : ""}) values (${values})`;
    if (postgres) {
      await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$ begin ${insert}; return null; end $$`).execute(db);
    } else {
      await sql.raw(`drop trigger ${name}`).execute(db);
      await sql.raw(`create trigger ${name} ${when} on interviews for each row ${condition ? `when ${condition}` : ""} begin ${insert}; end`).execute(db);
    }
  }
}

/** The language tag a guide's text names, canonical ("zh-cn" → "zh-CN"); English when it names none or no valid one. */
function languageNamedIn(source: string): string {
  const named = /"language"\s*:\s*"([^"]{1,35})"/.exec(source)?.[1] ?? /<LANGUAGE>\s*([^<]{1,35}?)\s*<\/LANGUAGE>/i.exec(source)?.[1];
  try {
    return named ? (Intl.getCanonicalLocales(named.trim())[0] ?? "en") : "en";
  } catch {
    return "en";
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await writeUsageTriggers(db, { withLanguage: false });
  await db.schema.alterTable("usage_events").dropColumn("language").execute();
  await db.schema.alterTable("interviews").dropColumn("language").execute();
  await db.schema.alterTable("guides").dropColumn("translation_of").execute();
  await db.schema.alterTable("guides").dropColumn("language").execute();
}
