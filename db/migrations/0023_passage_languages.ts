import { type Kysely, PostgresAdapter, sql } from "kysely";
import { availableSearchConfigs, searchConfigExpression } from "../text-search";

export async function up(db: Kysely<any>): Promise<void> {
  // Each passage is in its source's language (docs/decisions/0045): on PostgreSQL its search vector is made with
  // that language's configuration, not always English's.
  await db.schema.alterTable("passages").addColumn("language", "text", (col) => col.notNull().defaultTo("en")).execute();
  await sql`update passages set language = (select s.language from sources s where s.id = passages.source_id)`.execute(db);
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const config = searchConfigExpression("language", await availableSearchConfigs(db));
  await sql`drop index if exists passages_search`.execute(db);
  await sql`alter table passages drop column search`.execute(db);
  await sql`alter table passages add column search tsvector generated always as (
    setweight(to_tsvector(${config}, coalesce(heading, '')), 'A') || setweight(to_tsvector(${config}, text), 'B')) stored`.execute(db);
  await sql`create index passages_search on passages using gin (search)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists passages_search`.execute(db);
    await sql`alter table passages drop column search`.execute(db);
    await sql`alter table passages add column search tsvector generated always as (
      setweight(to_tsvector('english', coalesce(heading, '')), 'A') || setweight(to_tsvector('english', text), 'B')) stored`.execute(db);
    await sql`create index passages_search on passages using gin (search)`.execute(db);
  }
  await db.schema.alterTable("passages").dropColumn("language").execute();
}
