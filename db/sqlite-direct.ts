import type SQLite from "better-sqlite3";
import type { CompiledQuery, QueryResult, SqliteDatabase } from "kysely";

/**
 * SQLite's statements run in the process and at once (better-sqlite3 is synchronous), yet Kysely takes a query
 * through its executor, connection provider, driver and connection mutex, each async: about 15 promises a query
 * for what SQLite answers in microseconds. On the busiest path (a viewer step's three compiled queries,
 * db/compiled-query.ts) that was about 40 of a step's promises, each of which also pays the request scope's
 * AsyncLocalStorage hook on Node 20 (docs/decisions/0035). A compiled query is run here directly instead, when
 * that is the same as Kysely running it: on the database's own Kysely instance (never a transaction's), with no
 * transaction open on the connection. JavaScript runs one statement at a time to its end, so a statement run
 * here comes whole before or after another query's; an open transaction (another request's, between its
 * awaits) would take it in, so then Kysely's path waits its turn as before.
 */
// Keyed by the Kysely instance (db/database.ts's Db; not imported, which would make a cycle).
const direct = new WeakMap<object, (query: CompiledQuery) => QueryResult<unknown> | null>();

/** Registers the SQLite database under its Kysely instance (db/database.ts): `statements` is what Kysely prepares with. */
export function runsDirectly(db: object, sqlite: SQLite.Database, statements: SqliteDatabase): void {
  direct.set(db, (query) => {
    if (sqlite.inTransaction) return null;
    // The same as Kysely's SqliteConnection.executeQuery (the app's Kysely has no plugins to transform results).
    const statement = statements.prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  });
}

/**
 * The query's result, run directly where runsDirectly allows (a failure as a rejected promise, as Kysely's);
 * null where Kysely must run it.
 */
export function runDirectly<Row>(db: object, query: CompiledQuery<Row>): Promise<QueryResult<Row>> | null {
  const run = direct.get(db);
  if (!run) return null;
  try {
    const result = run(query);
    return result ? Promise.resolve(result as QueryResult<Row>) : null;
  } catch (error) {
    return Promise.reject(error);
  }
}
