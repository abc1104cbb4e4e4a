import { type Kysely, PostgresAdapter, sql } from "kysely";

// The organisation's sources (legislation extracts, court guides, fact sheets) and their passages, searched in the
// database itself: FTS5 on SQLite, a tsvector with a GIN index on PostgreSQL (docs/decisions/0031-sources-and-search.md).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (col: any) => (postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable("sources")
    .addColumn("id", "integer", id)
    .addColumn("country_id", "integer", (col) => col.notNull().references("categories.id").onDelete("cascade"))
    // Null: the source serves every issue of the country.
    .addColumn("issue_id", "integer", (col) => col.references("issues.id").onDelete("cascade"))
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull())
    // The uploaded file's name and type ("text/markdown" for pasted text); the file itself is not kept.
    .addColumn("file_name", "text")
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("created_by", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sources_country_issue").on("sources").columns(["country_id", "issue_id"]).execute();

  await db.schema
    .createTable("passages")
    .addColumn("id", "integer", id)
    .addColumn("source_id", "integer", (col) => col.notNull().references("sources.id").onDelete("cascade"))
    .addColumn("ordinal", "integer", (col) => col.notNull())
    .addColumn("heading", "text")
    .addColumn("page", "integer")
    .addColumn("text", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("passages_source").on("passages").columns(["source_id", "ordinal"]).execute();

  if (postgres) {
    // English stemming ("evicted" finds "eviction"); the heading weighs more than the text.
    await sql`alter table passages add column search tsvector generated always as (
      setweight(to_tsvector('english', coalesce(heading, '')), 'A') || setweight(to_tsvector('english', text), 'B')) stored`.execute(db);
    await sql`create index passages_search on passages using gin (search)`.execute(db);
  } else {
    // An external-content FTS5 table over passages, kept in step by triggers (also on a cascading delete).
    await sql`create virtual table passages_fts using fts5(heading, text, content='passages', content_rowid='id',
      tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger passages_fts_insert after insert on passages begin
      insert into passages_fts(rowid, heading, text) values (new.id, coalesce(new.heading, ''), new.text); end`.execute(db);
    await sql`create trigger passages_fts_delete after delete on passages begin
      insert into passages_fts(passages_fts, rowid, heading, text) values ('delete', old.id, coalesce(old.heading, ''), old.text); end`.execute(db);
    await sql`create trigger passages_fts_update after update on passages begin
      insert into passages_fts(passages_fts, rowid, heading, text) values ('delete', old.id, coalesce(old.heading, ''), old.text);
      insert into passages_fts(rowid, heading, text) values (new.id, coalesce(new.heading, ''), new.text); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await sql`drop table passages_fts`.execute(db);
  await db.schema.dropTable("passages").execute();
  await db.schema.dropTable("sources").execute();
}
