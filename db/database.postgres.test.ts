import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabase, POSTGRES_URL } from "../tests/support/databases";
import { connectAdmin } from "../tests/support/postgres";

describe("the PostgreSQL pool", () => {
  it("survives the server ending an idle connection, and the next query opens a new one", async () => {
    const handle = await createTestDatabase("postgres");
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      const admin = await connectAdmin(POSTGRES_URL);
      await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
      await admin.end();
      // The idle connection's error arrives asynchronously: without the pool's listener it is an uncaught
      // exception, which fails this run.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      expect(after.rows[0]!.pid).not.toBe(rows[0]!.pid);
    } finally {
      await handle.drop();
    }
  });
});
