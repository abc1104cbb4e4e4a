import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * How the service is used, without personal data (docs/decisions/0030-usage-counts.md): the page each interview
 * is at, as a keyed token of its name (app/usage/page-token.server.ts), and an anonymous table of what happened,
 * by issue and month. The database writes the events itself, so every way an interview is made, finished or deleted
 * (the viewer, a merge, an account deleted with its interviews by cascade) counts alike, in the same statement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // The token of the page the interview is at after its last save; null before this migration: the history is
  // sealed, and counting must not open every interview.
  await db.schema.alterTable("interviews").addColumn("last_page", "text").execute();

  // No foreign keys and no interview or person id: a row says only "on this issue, in this month, this happened
  // (here)", so it outlives the interview and the account, and points at nobody.
  await db.schema
    .createTable("usage_events")
    .addColumn("seq", postgres ? "bigint" : "integer", (col) =>
      postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn("issue_id", "integer", (col) => col.notNull())
    /** "YYYY-MM" (UTC). */
    .addColumn("month", "text", (col) => col.notNull())
    /** "started", "completed", "downloaded", or "left" (an unfinished interview deleted). */
    .addColumn("kind", "text", (col) => col.notNull())
    /** For "left": the token of the page it was last on. */
    .addColumn("page", "text")
    .execute();
  await db.schema.createIndex("usage_events_issue_kind_month").on("usage_events").columns(["issue_id", "kind", "month"]).execute();
  // No new index on interviews: every page step updates a row, and each index on it is one more write per step.
  // The usage pages (an administrator, now and then) read the issue's Drafts without one.

  const triggers = [
    // name, when, condition, the event's values
    ["usage_started", "after insert", null, "new.issue_id, substr(new.created_at, 1, 7), 'started', null"],
    ["usage_completed", "after update of status", "old.status <> 'Completed' and new.status = 'Completed'", "new.issue_id, substr(new.updated_at, 1, 7), 'completed', null"],
    ["usage_left", "after delete", "old.status <> 'Completed'", "old.issue_id, substr(old.updated_at, 1, 7), 'left', old.last_page"],
  ] as const;
  for (const [name, when, condition, values] of triggers) {
    const insert = `insert into usage_events (issue_id, month, kind, page) values (${values})`;
    if (postgres) {
      await sql
        .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${insert}; return null; end $$`)
        .execute(db);
      await sql
        .raw(`create trigger ${name} ${when} on interviews for each row ${condition ? `when (${condition})` : ""} execute function ${name}()`)
        .execute(db);
    } else {
      await sql.raw(`create trigger ${name} ${when} on interviews for each row ${condition ? `when ${condition}` : ""} begin ${insert}; end`).execute(db);
    }
  }

  // The interviews already there count: started in the month they were made; completed in the month of their
  // last change (the nearest the table knows to when they were finished). Their page is not known (see above).
  await sql`insert into usage_events (issue_id, month, kind, page)
    select issue_id, substr(created_at, 1, 7), 'started', null from interviews`.execute(db);
  await sql`insert into usage_events (issue_id, month, kind, page)
    select issue_id, substr(updated_at, 1, 7), 'completed', null from interviews where status = 'Completed'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ["usage_started", "usage_completed", "usage_left"]) {
    await sql.raw(postgres ? `drop trigger ${name} on interviews` : `drop trigger ${name}`).execute(db);
    if (postgres) await sql.raw(`drop function ${name}()`).execute(db);
  }
  await db.schema.dropTable("usage_events").execute();
  await db.schema.alterTable("interviews").dropColumn("last_page").execute();
}
