import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import type { Db } from "./database";
import { runAsNamedStatement } from "./named-statements";
import { runDirectly } from "./sqlite-direct";

/**
 * A query that Kysely builds and compiles once per database and then runs with each call's values. Building
 * and compiling a query with joins costs more than SQLite takes to run it, which matters on the busiest paths
 * (the session and the viewer's interview, on every page step).
 *
 * `build` must give the same SQL whatever the values (no branches on them): it is called once, with a
 * placeholder for each value, and the compiled query's parameters are then filled from the call's values in
 * the order the placeholders took. On PostgreSQL it runs as a named statement (db/named-statements.ts); on
 * SQLite, outside a transaction, it runs without Kysely's async layers (db/sqlite-direct.ts).
 */
export function compiledOnce<Values extends unknown[], Row>(build: (db: Db, ...values: Values) => Compilable<Row>) {
  const compiledFor = new WeakMap<Db, { query: CompiledQuery<Row>; sources: (number | { constant: unknown })[] }>();
  function compile(db: Db, count: number) {
    const placeholders = Array.from({ length: count }, (_, i) => `\u0000compiled-once-value-${i}\u0000`);
    const query = build(db, ...(placeholders as Values)).compile();
    // A parameter that is no placeholder is a constant of the query (a literal the builder bound).
    const sources = query.parameters.map((parameter) => {
      const index = placeholders.indexOf(parameter as string);
      return index >= 0 ? index : { constant: parameter };
    });
    // Its text never changes, so on PostgreSQL it is prepared once per connection.
    runAsNamedStatement(query.sql);
    const entry = { query, sources };
    compiledFor.set(db, entry);
    return entry;
  }
  return function run(db: Db, ...values: Values): Promise<QueryResult<Row>> {
    const { query, sources } = compiledFor.get(db) ?? compile(db, values.length);
    const parameters = sources.map((source) => (typeof source === "number" ? values[source] : source.constant));
    const compiled = { ...query, parameters };
    // On SQLite, outside a transaction, without Kysely's async layers (db/sqlite-direct.ts).
    return runDirectly(db, compiled) ?? db.executeQuery<Row>(compiled);
  };
}
