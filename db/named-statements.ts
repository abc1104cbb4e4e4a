import { createHash } from "node:crypto";
import type { PostgresPool, PostgresPoolClient } from "kysely";
import type pg from "pg";

/**
 * The SQL texts that run as named (server-side prepared) statements on PostgreSQL, with their names: the
 * queries of db/compiled-query.ts, a fixed set (one per call site), so each connection prepares at most that
 * many. A named statement is parsed and planned once per connection; an unnamed one on every run, which on the
 * busiest paths (the session, the viewer's interview and its save, on every page step) cost PostgreSQL more
 * than running them. Other queries stay unnamed: texts that vary (an `in` list's length) would pile up
 * statements on every connection, and the pg driver never deallocates them.
 */
const statementNames = new Map<string, string>();

export function runAsNamedStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `q_${createHash("sha1").update(sql).digest("hex")}`);
}

/**
 * The pool as Kysely's PostgresDialect sees it, its clients running the registered texts as named statements
 * (the pg driver parses a name's text once per connection and then only binds and executes it).
 */
export function namingStatements(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((sqlOrCursor: unknown, parameters?: unknown[]) => {
      if (typeof sqlOrCursor !== "string") return client.query(sqlOrCursor as pg.Submittable);
      const name = statementNames.get(sqlOrCursor);
      return name ? client.query({ name, text: sqlOrCursor, values: parameters }) : client.query(sqlOrCursor, parameters);
    }) as unknown as PostgresPoolClient["query"],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let own = wrapped.get(client);
      if (!own) wrapped.set(client, (own = wrap(client)));
      return own;
    },
    end: () => pool.end(),
  };
}
