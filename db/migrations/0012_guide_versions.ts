import { type Kysely, sql } from "kysely";

/**
 * Guides get versions (docs/decisions/0029-guide-versions.md). `guides` keeps one row per guide (its stable id,
 * the title the issue editor lists, which version is published); each upload is a row of `guide_versions`
 * with its own files. Today's guides become version 1, published; interviews record the version they run.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("guide_versions")
    .addColumn("guide_id", "text", (col) => col.notNull().references("guides.id").onDelete("cascade"))
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    // "json" (Guide.json) or "xml" (Guide.xml); `source` is its text (an A2J 4 guide is stored converted).
    .addColumn("format", "text", (col) => col.notNull())
    .addColumn("source", "text", (col) => col.notNull())
    // "seed" (the demo content), "upload" (an administrator) or "command line": the seed refreshes only its own.
    .addColumn("origin", "text", (col) => col.notNull())
    .addColumn("uploaded_by_id", "text")
    .addColumn("uploaded_by_email", "text", (col) => col.notNull())
    .addColumn("uploaded_at", "text", (col) => col.notNull())
    .addColumn("published_at", "text")
    // A pending version an administrator threw away: its files are gone, its number is never used again.
    .addColumn("discarded_at", "text")
    // The import report (pages, variables, templates, warnings), JSON.
    .addColumn("report", "text", (col) => col.notNull().defaultTo("{}"))
    .addPrimaryKeyConstraint("guide_versions_pk", ["guide_id", "version"])
    .execute();

  await sql`insert into guide_versions (guide_id, version, title, format, source, origin, uploaded_by_id, uploaded_by_email, uploaded_at, published_at, report)
    select id, 1, title, format, source, 'seed', null, 'seed', imported_at, imported_at, '{}' from guides`.execute(db);

  // The files of each version: guide_files gets a version column (a new table, as SQLite cannot change a primary key).
  await db.schema
    .createTable("guide_version_files")
    .addColumn("guide_id", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("path", "text", (col) => col.notNull())
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("guide_version_files_pk", ["guide_id", "version", "path"])
    .addForeignKeyConstraint("guide_version_files_version", ["guide_id", "version"], "guide_versions", ["guide_id", "version"], (fk) => fk.onDelete("cascade"))
    .execute();
  await sql`insert into guide_version_files (guide_id, version, path, content_type, content)
    select guide_id, 1, path, content_type, content from guide_files`.execute(db);
  await db.schema.dropTable("guide_files").execute();

  await db.schema.alterTable("guides").addColumn("published_version", "integer").execute();
  await sql`update guides set published_version = 1`.execute(db);
  for (const column of ["format", "source", "imported_at"]) await db.schema.alterTable("guides").dropColumn(column).execute();

  // The version an interview started on, kept while it runs (null: the issue had no guide when it started).
  await db.schema.alterTable("interviews").addColumn("guide_id", "text").execute();
  await db.schema.alterTable("interviews").addColumn("guide_version", "integer").execute();
  await sql`update interviews set
      guide_id = (select issues.guide_id from issues where issues.id = interviews.issue_id),
      guide_version = 1
    where exists (select 1 from issues join guides on guides.id = issues.guide_id where issues.id = interviews.issue_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("interviews").dropColumn("guide_version").execute();
  await db.schema.alterTable("interviews").dropColumn("guide_id").execute();
  await db.schema.alterTable("guides").addColumn("format", "text", (col) => col.notNull().defaultTo("json")).execute();
  await db.schema.alterTable("guides").addColumn("source", "text", (col) => col.notNull().defaultTo("")).execute();
  await db.schema.alterTable("guides").addColumn("imported_at", "text", (col) => col.notNull().defaultTo("")).execute();
  await sql`update guides set
      format = (select format from guide_versions v where v.guide_id = guides.id and v.version = guides.published_version),
      source = (select source from guide_versions v where v.guide_id = guides.id and v.version = guides.published_version),
      imported_at = (select published_at from guide_versions v where v.guide_id = guides.id and v.version = guides.published_version)
    where published_version is not null`.execute(db);
  await db.schema
    .createTable("guide_files")
    .addColumn("guide_id", "text", (col) => col.notNull().references("guides.id").onDelete("cascade"))
    .addColumn("path", "text", (col) => col.notNull())
    .addColumn("content_type", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("guide_files_pk", ["guide_id", "path"])
    .execute();
  await sql`insert into guide_files (guide_id, path, content_type, content)
    select f.guide_id, f.path, f.content_type, f.content from guide_version_files f join guides g on g.id = f.guide_id and g.published_version = f.version`.execute(db);
  await db.schema.dropTable("guide_version_files").execute();
  await db.schema.alterTable("guides").dropColumn("published_version").execute();
  await db.schema.dropTable("guide_versions").execute();
}
