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
