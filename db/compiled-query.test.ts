import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

describe("compiledOnce on SQLite: run without Kysely's async layers", () => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase("sqlite");
    await migrateToLatest(handle.db);
    await insertTestUser(handle.db, "u1", "one@example.org");
  });
  afterAll(() => handle.drop());

  const firstNameOf = compiledOnce((db, id: string) => db.selectFrom("users").select("first_name").where("id", "=", id));
  const rename = compiledOnce((db, id: string, firstName: string) => db.updateTable("users").set({ first_name: firstName }).where("id", "=", id));

  it("runs outside a transaction straight on the database, with Kysely's results", async () => {
    const executeQuery = vi.spyOn(handle.db, "executeQuery");
    try {
      expect(Number((await rename(handle.db, "u1", "Ada")).numAffectedRows)).toBe(1);
      expect((await firstNameOf(handle.db, "u1")).rows).toEqual([{ first_name: "Ada" }]);
      expect(executeQuery).not.toHaveBeenCalled();
    } finally {
      executeQuery.mockRestore();
    }
  });

  it("fails as Kysely does: a rejected promise", async () => {
    const noTable = compiledOnce((db, id: string) => db.selectFrom("users").select("id").where(sql.ref("no_such_column"), "=", id));
    await expect(noTable(handle.db, "u1")).rejects.toThrow(/no_such_column/);
  });

  it("waits for a transaction open on the connection (another request's) instead of joining it", async () => {
    await rename(handle.db, "u1", "Before");
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const transaction = handle.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable("users").set({ first_name: "Uncommitted" }).where("id", "=", "u1").execute();
        opened();
        await released;
        throw new Error("rolled back");
      })
      .catch((error: Error) => error.message);
    await open;
    // Run while the transaction is open: neither may see its uncommitted write, nor be rolled back with it.
    const read = firstNameOf(handle.db, "u1");
    const write = rename(handle.db, "u1", "After");
    release();
    expect(await transaction).toBe("rolled back");
    expect((await read).rows).toEqual([{ first_name: "Before" }]);
    expect(Number((await write).numAffectedRows)).toBe(1);
    expect((await firstNameOf(handle.db, "u1")).rows).toEqual([{ first_name: "After" }]);
  });

  it("runs in a transaction as part of it, through Kysely", async () => {
    await handle.db.transaction().execute(async (trx) => {
      await rename(trx, "u1", "Inside");
      expect((await firstNameOf(trx, "u1")).rows).toEqual([{ first_name: "Inside" }]);
    });
    expect((await firstNameOf(handle.db, "u1")).rows).toEqual([{ first_name: "Inside" }]);
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
