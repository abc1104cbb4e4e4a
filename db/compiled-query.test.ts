import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../tests/support/databases";
import { compiledOnce } from "./compiled-query";
import { migrateToLatest } from "./migrate";

describe.each(dialects)("compiledOnce on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    for (const [id, email] of [["u1", "one@example.org"], ["u2", "two@example.org"], ["u3", "three@example.org"]] as const) {
      await insertTestUser(handle.db, id, email);
    }
  });
  afterAll(() => handle.drop());

  it("runs one compiled query with each call's values, in the order the query binds them", async () => {
    let builds = 0;
    // The values are used in another order than they are passed, and a constant sits between them.
    const usersBetween = compiledOnce((db, last: string, first: string) => {
      builds++;
      return db.selectFrom("users").select("id").where("phone_code", "=", "+65").where("email", ">=", first).where("email", "<=", last).orderBy("id");
    });
    expect((await usersBetween(handle.db, "three@example.org", "one@example.org")).rows.map((r) => r.id)).toEqual(["u1", "u3"]);
    expect((await usersBetween(handle.db, "two@example.org", "three@example.org")).rows.map((r) => r.id)).toEqual(["u2", "u3"]);
    expect((await usersBetween(handle.db, "a", "b")).rows).toEqual([]);
    expect(builds).toBe(1);
  });

  it("reports how many rows a write changed", async () => {
    const rename = compiledOnce((db, id: string, firstName: string) => db.updateTable("users").set({ first_name: firstName }).where("id", "=", id));
    expect(Number((await rename(handle.db, "u2", "Bea")).numAffectedRows)).toBe(1);
    expect(Number((await rename(handle.db, "nobody", "Bea")).numAffectedRows)).toBe(0);
    const row = await handle.db.selectFrom("users").select("first_name").where("id", "=", "u2").executeTakeFirstOrThrow();
    expect(row.first_name).toBe("Bea");
  });
});

describe("compiledOnce on PostgreSQL: named statements", () => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase("postgres");
    await migrateToLatest(handle.db);
    await insertTestUser(handle.db, "u1", "one@example.org");
  });
  afterAll(() => handle.drop());

  // pg_prepared_statements lists the statements of the connection that asks: every query here runs in one
  // transaction, so on one connection.
  const prepared = async (trx: TestDatabase["db"]) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx)).rows.map((row) => row.statement);

  it("prepares a compiled query once per connection and leaves other queries unnamed", async () => {
    const emailOf = compiledOnce((db, id: string) => db.selectFrom("users").select("email").where("id", "=", id));
    await handle.db.transaction().execute(async (trx) => {
      expect((await emailOf(trx, "u1")).rows).toEqual([{ email: "one@example.org" }]);
      expect((await emailOf(trx, "nobody")).rows).toEqual([]);
      await trx.selectFrom("users").select("first_name").where("id", "=", "u1").execute();
      const statements = await prepared(trx);
      expect(statements.filter((text) => text.includes('select "email" from "users"'))).toHaveLength(1);
      expect(statements.some((text) => text.includes('"first_name"'))).toBe(false);
    });
  });
});
