import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many distinct SQL texts keep their prepared statement (least recently used ones are dropped). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The better-sqlite3 database as Kysely's SqliteDialect sees it, with prepared statements reused: Kysely
 * prepares every query's SQL text anew, which costs more than running a small query. A statement is keyed by
 * its SQL text (parameters are bound on each run), so the same query with other values reuses it.
 * `begin`/`commit`/`rollback` are statements like any other, so transactions work unchanged, and `reader` is
 * the statement's own. A statement that is still being iterated (a stream not read to its end) is busy and
 * cannot run again: then a fresh one is prepared for this query.
 *
 * Kysely begins transactions with a deferred `begin`; here they begin immediate. A deferred transaction that has
 * read and then writes fails at once with SQLITE_BUSY_SNAPSHOT ("database is locked", which busy_timeout does not
 * retry) when another process wrote in between: an operator command beside the running server did. Taking the
 * write lock at `begin` waits for it instead (busy_timeout). Inside one process transactions already run one at
 * a time, so nothing waits longer there.
 */
export function cachingStatements(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close() {
      statements.clear();
      sqlite.close();
    },
    prepare(text: string): SqliteStatement {
      const sql = text === "begin" ? "begin immediate" : text;
      const cached = statements.get(sql);
      if (cached) {
        if (cached.busy) return sqlite.prepare(sql);
        // Most recently used last, so the first entry is the one to drop.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
