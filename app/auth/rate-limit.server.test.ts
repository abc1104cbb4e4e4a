import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { limits, refuseCostlyUse } from "./rate-limit.server";
import { translator } from "~/i18n/translator";

describe.each(dialects)("limits on costly features on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
  });
  afterAll(() => handle.drop());

  it("refuses a person past their own limit, with how long to wait, while others go on", async () => {
    for (let i = 0; i < limits.documentsPerUser.max; i++) {
      expect(await refuseCostlyUse("documents", "person-a", "198.51.100.1", handle.db)).toBeNull();
    }
    const refused = await refuseCostlyUse("documents", "person-a", "198.51.100.2", handle.db);
    expect(refused?.message).toBe("Too many attempts. Please wait 15 minutes and try again.");
    // The same words for a page, in its language: one minute and several, as the catalogue says them.
    expect(translator("en").message(refused!.ref)).toBe(refused!.message);
    expect(translator("fr").message(refused!.ref)).not.toBe(refused!.message);
    expect(refused?.retryAfterMinutes).toBe(15);
    // The features are counted apart, and so are other people.
    expect(await refuseCostlyUse("preview", "person-a", "198.51.100.3", handle.db)).toBeNull();
    expect(await refuseCostlyUse("documents", "person-b", "198.51.100.4", handle.db)).toBeNull();
  });

  it("refuses an address past its limit, whoever asks from it", async () => {
    const address = "198.51.100.50";
    const perPerson = limits.previewPerUser.max;
    for (let i = 0; i < limits.previewPerAddress.max; i++) {
      expect(await refuseCostlyUse("preview", `person-${Math.floor(i / perPerson)}`, address, handle.db)).toBeNull();
    }
    expect((await refuseCostlyUse("preview", "someone-new", address, handle.db))?.message).toMatch(/^Too many attempts/);
    expect(await refuseCostlyUse("preview", "someone-new", "198.51.100.51", handle.db)).toBeNull();
  });
});
