import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, type TestDatabase } from "../../tests/support/databases";
import { startResendStandIn } from "../../tests/support/resend-stand-in";

// The verification email of a sign-up, sent through Resend's API (a local stand-in that records the request).
describe("account emails through Resend", () => {
  let resend: Awaited<ReturnType<typeof startResendStandIn>>;
  let handle: TestDatabase;
  beforeAll(async () => {
    resend = await startResendStandIn();
    process.env.RESEND_API_KEY = "re_accounts_test";
    process.env.RESEND_BASE_URL = resend.url;
    process.env.PUBLIC_ORIGIN = "https://help.example.org";
    process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-resend-"));
    handle = await createTestDatabase("sqlite");
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    for (const name of ["RESEND_API_KEY", "RESEND_BASE_URL", "PUBLIC_ORIGIN"]) delete process.env[name];
    await resend.close();
    await handle.drop();
  });

  it("posts the verification link to Resend, and nothing goes to the outbox", async () => {
    const { signUp } = await import("./accounts.server");
    const person = { firstName: "Ana", lastName: "Lim", email: "ana@example.org", phoneCountry: "SG", phoneNumber: "91234567" };
    expect(await signUp(person, "192.0.2.1", handle.db)).toBeNull();
    expect(resend.requests).toHaveLength(1);
    const { headers, body } = resend.requests[0]!;
    expect(headers.authorization).toBe("Bearer re_accounts_test");
    expect(body).toMatchObject({ to: "ana@example.org", subject: "Verify your email address" });
    expect(String(body.text)).toMatch(/https:\/\/help\.example\.org\/auth\/sign-up\/password\?code=[\w-]{43}/);
    expect(String(body.html)).toContain('href="https://help.example.org/auth/sign-up/password?code=');
    expect(await handle.db.selectFrom("outbox_messages").selectAll().execute()).toEqual([]);
  });
});
