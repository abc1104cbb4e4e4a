// Run by scripts/test.sh before any test: stops `npm test` early, with what to install and start, when the data-layer
// tests cannot use PostgreSQL. Usage: tsx tests/support/check-postgres.ts (reads TEST_POSTGRES_URL).
import { checkPostgres, testPostgresUrl } from "./postgres";

const result = await checkPostgres(testPostgresUrl());
if (!result.ok) {
  console.error(result.message);
  process.exit(1);
}
