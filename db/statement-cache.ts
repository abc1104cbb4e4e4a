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
 */
export function cachingStatements(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close() {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
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
