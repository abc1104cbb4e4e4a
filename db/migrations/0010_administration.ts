import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // "person" or "administrator" (docs/decisions/0021-administration-roles-and-audit.md).
  await db.schema.alterTable("users").addColumn("role", "text", (col) => col.notNull().defaultTo("person")).execute();

  // What administrators did (and the command line did for them). No foreign key to users: a record outlives
  // the account that made it, so the actor's email is kept beside the id.
  // Numbered in the order written: two records in the same millisecond still list in the order they happened.
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("audit_events")
    .addColumn("seq", postgres ? "bigint" : "integer", (col) =>
      postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .addColumn("happened_at", "text", (col) => col.notNull())
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text", (col) => col.notNull())
    .addColumn("address", "text", (col) => col.notNull())
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("details", "text", (col) => col.notNull().defaultTo("{}"))
    .execute();
  // Records are only ever added: the database itself refuses to change or delete one, whatever the code does.
  if (postgres) {
    await sql`create function audit_events_refuse_change() returns trigger language plpgsql as $$
      begin raise exception 'audit records cannot be changed or deleted'; end $$`.execute(db);
    await sql`create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_refuse_change()`.execute(db);
  } else {
    await sql`create trigger audit_events_no_update before update on audit_events
      begin select raise(abort, 'audit records cannot be changed or deleted'); end`.execute(db);
    await sql`create trigger audit_events_no_delete before delete on audit_events
      begin select raise(abort, 'audit records cannot be changed or deleted'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_events").execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function audit_events_refuse_change()`.execute(db);
  await db.schema.alterTable("users").dropColumn("role").execute();
}
