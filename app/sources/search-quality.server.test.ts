import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { searchQuestions } from "./search-questions";
import { importSeedSources } from "./seed.server";
import { searchPassages } from "./sources.server";

// How often the passage that answers a question comes first, or among the first three (what the AI is given, at
// most six), on the seed's sources. Printed for docs/decisions/0031-sources-and-search.md; the floors keep it there.
describe.each(dialects)("search quality on the seed's sources, %s", (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await seedDatabase(database.db, path.resolve("db/seed"));
    await importSeedSources(path.resolve("db/seed"), { onlyIfNone: true }, database.db);
  });
  afterAll(() => database?.drop());

  it("finds the answering passage first for most questions, and among the first three for all that share its words", async () => {
    const ranks: { question: string; paraphrase: boolean; rank: number | null }[] = [];
    for (const { countryId, issueId, question, answer, paraphrase = false } of searchQuestions) {
      const found = await searchPassages({ countryId, issueId, query: question, limit: 6 }, database.db);
      const at = found.findIndex((passage) => passage.heading === answer);
      ranks.push({ question, paraphrase, rank: at === -1 ? null : at + 1 });
    }
    const share = (list: typeof ranks, within: number) => list.filter((r) => r.rank !== null && r.rank <= within).length / list.length;
    const worded = ranks.filter((r) => !r.paraphrase);
    const paraphrased = ranks.filter((r) => r.paraphrase);
    console.info(
      `[search ${dialect}] ${ranks.length} questions: first ${(share(ranks, 1) * 100).toFixed(0)}%, top 3 ${(share(ranks, 3) * 100).toFixed(0)}%, top 6 ${(share(ranks, 6) * 100).toFixed(0)}%; ` +
        `sharing words (${worded.length}) first ${(share(worded, 1) * 100).toFixed(0)}%, top 3 ${(share(worded, 3) * 100).toFixed(0)}%; ` +
        `paraphrased (${paraphrased.length}) top 6 ${(share(paraphrased, 6) * 100).toFixed(0)}%. Misses: ${JSON.stringify(ranks.filter((r) => r.rank !== 1))}`,
    );
    expect(share(worded, 1)).toBeGreaterThanOrEqual(0.75);
    expect(share(worded, 3)).toBe(1);
  });
});
