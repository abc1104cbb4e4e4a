import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabase, dialects } from "../tests/support/databases";
import { migrateToLatest, migrations } from "./migrate";

describe.each(dialects)("migrations merged out of order on %s", (dialect) => {
  it("a database that ran 0015 before 0014 existed runs 0014 at the next start", async () => {
    const database = await createTestDatabase(dialect);
    try {
      // The database as it was then: every migration up to 0015 but 0014 (later ones may need 0014's tables).
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= "0015" && name !== "0014_sources"));
      await new Migrator({ db: database.db, provider: { getMigrations: async () => before } }).migrateToLatest();
      const { results = [] } = await migrateToLatest(database.db);
      const later = Object.keys(migrations).filter((name) => name > "0015");
      expect(results.map((r) => [r.migrationName, r.status])).toEqual([["0014_sources", "Success"], ...later.map((name) => [name, "Success"])]);
      expect(await database.db.selectFrom("passages").select("id").execute()).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
