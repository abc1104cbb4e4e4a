import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { startResendStandIn } from "../../tests/support/resend-stand-in";

// The security notice of a deletion goes out through Resend before anything is deleted: when Resend refuses
// it, the account stays (and the person can try again); when it takes it, the account goes.
// One stand-in for the file: the configuration (and so Resend's address) is read once per process.
let resend: Awaited<ReturnType<typeof startResendStandIn>>;
let refuse = true;
beforeAll(async () => {
  resend = await startResendStandIn(() => (refuse ? { status: 500, body: { message: "down" } } : { status: 200, body: { id: "email_1" } }));
  process.env.RESEND_API_KEY = "re_delete_test";
  process.env.RESEND_BASE_URL = resend.url;
  process.env.PUBLIC_ORIGIN = "https://help.example.org";
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-delete-notice-"));
});
afterAll(async () => {
  for (const name of ["RESEND_API_KEY", "RESEND_BASE_URL", "PUBLIC_ORIGIN"]) delete process.env[name];
  await resend.close();
});

describe.each(dialects)("the deletion notice through Resend on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    refuse = true;
    resend.requests.length = 0;
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
  });
  afterAll(() => handle?.drop());

  it("sends the notice first: refused, nothing is deleted; taken, the account goes", async () => {
    const { hashPassword } = await import("~/auth/crypto.server");
    const { replaceRecoveryCodes } = await import("~/auth/recovery-codes.server");
    const { deleteAccount } = await import("./delete-account.server");
    const { MailError } = await import("~/mail/mail.server");
    const id = randomUUID();
    const now = new Date().toISOString();
    await handle.db
      .insertInto("users")
      .values({ id, first_name: "Ana", last_name: "Lim", email: "ana@example.org", email_key: "ana@example.org", phone_country: "SG", phone_code: "+65", phone_number: "91234567", password_hash: await hashPassword("correct horse 42"), email_verified_at: now, totp_secret: null, two_factor_enabled: 1, totp_last_step: null, created_at: now, updated_at: now })
      .execute();
    const codes = await replaceRecoveryCodes(id, handle.db);
    const storage = { put: async () => undefined, get: async () => null, delete: async () => undefined };
    const users = () => handle.db.selectFrom("users").select("id").where("id", "=", id).execute();

    await expect(deleteAccount(id, { password: "correct horse 42", code: codes[0]! }, "192.0.2.1", { db: handle.db, storage })).rejects.toBeInstanceOf(MailError);
    expect(await users()).toHaveLength(1);

    refuse = false;
    expect(await deleteAccount(id, { password: "correct horse 42", code: codes[1]! }, "192.0.2.1", { db: handle.db, storage })).toBeNull();
    expect(resend.requests.map((request) => [request.body.to, request.body.subject])).toEqual([
      ["ana@example.org", "Security notice: Your account was deleted"],
      ["ana@example.org", "Security notice: Your account was deleted"],
    ]);
    expect(String(resend.requests[1]!.body.text)).toContain("https://help.example.org/support/contact-us");
    expect(await users()).toEqual([]);
    // Through Resend nothing of the person was in the outbox; only the record of the deletion is.
    expect(await handle.db.selectFrom("outbox_messages").select(["to_address", "subject"]).execute()).toEqual([{ to_address: "", subject: "Record: an account was deleted" }]);
  });
});
