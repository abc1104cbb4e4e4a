import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import * as OTPAuth from "otpauth";
import { PDFDocument } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3StandIn } from "../../tests/support/s3-stand-in";
import { type ObjectStorageLocation, parseStorageUrl } from "~/config.server";
import type { Answers, AnswerValue, VarType } from "~/a2j";
import { confirmTwoFactorSetup, createPassword, signInWithPassword, signUp, twoFactorSetup } from "~/auth/accounts.server";
import { countAttempt, limits, refuseCostlyUse } from "~/auth/rate-limit.server";
import { codesToShow, recoveryCodesLeft } from "~/auth/recovery-codes.server";
import { loadSession } from "~/auth/session.server";
import { documentMessages } from "~/documents/documents.server";
import { translator } from "~/i18n/translator";
import { importSeedGuides } from "~/guides/import.server";
import { storeAttachment } from "~/interviews/attachments.server";
import { sealInterviewColumns } from "~/interviews/interviews.server";
import { ACCOUNT_DELETED_RECORD } from "~/mail/mail.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { storageFromConfig } from "~/storage/configured-storage.server";
import { deleteAccount, deleteAccountMessages } from "./delete-account.server";
import { myDataMessages, myDataZip } from "./my-data.server";
import { authMessages } from "~/auth/schemas";

const dataDir = mkdtempSync(path.join(tmpdir(), "lsh-my-data-"));
process.env.DATA_DIR = dataDir;

let addresses = 0;
const address = () => `203.0.113.${++addresses}`;
const PASSWORD = "correct horse 42";
const cookieHeader = (setCookie: string) => setCookie.split(";")[0]!;
const totp = (secret: string, steps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: Date.now() + steps * 30_000 });
const v = (name: string, type: VarType, value: AnswerValue): Answers => ({ [name.toLowerCase()]: { name, type, repeating: false, values: [null, value] } });
/** The README's words are the account's language's: English for these accounts. */
const english = translator("en");
const job: Answers = { ...v("User name full TE", "Text", "Zoë Ångström"), ...v("Have job TF", "TF", true), ...v("Company name TE", "Text", "ACME") };

async function pdfBytes(pages: number): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage();
  return new Uint8Array(await pdf.save());
}

/** The tables that hold a person's rows, and how many each holds for them. */
const PER_PERSON = ["sessions", "auth_tokens", "recovery_codes", "interviews", "attachments"] as const;

describe.each(dialects)("my data on %s", (dialect) => {
  let handle: TestDatabase;
  let databaseFiles: AttachmentStorage;
  const db = () => handle.db;

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: false }, handle.db);
    databaseFiles = storageFromConfig({}, handle.db);
  });
  afterAll(() => handle?.drop());

  async function emailedCode(email: string) {
    const row = await db().selectFrom("outbox_messages").select("text").where("to_address", "=", email).executeTakeFirstOrThrow();
    return new URL(row.text.match(/https?:\/\/\S+/)![0]).searchParams.get("code")!;
  }

  /**
   * A person as the product makes them (sign-up, emailed link, two-factor set-up, so sessions, a link token,
   * recovery codes and outbox messages exist), with a Completed interview that has a document, a Completed one
   * whose answers call for none, a Draft and an uploaded PDF.
   */
  async function person(email: string, storage: AttachmentStorage) {
    expect(await signUp({ firstName: "Ana", lastName: `Lim-${email.split("@")[0]}`, email, phoneCountry: "SG", phoneNumber: "91234567" }, address(), db())).toBeNull();
    const created = await createPassword(await emailedCode(email), PASSWORD, null, address(), db());
    if (!("setCookie" in created)) throw new Error("password not created");
    const session = async (setCookie: string) => (await loadSession(cookieHeader(setCookie), db())).session!;
    const setup = await twoFactorSetup(await session(created.setCookie), db());
    if (!("secret" in setup)) throw new Error("no setup");
    const done = await confirmTwoFactorSetup(await session(created.setCookie), totp(setup.secret), address(), db());
    if (!("setCookie" in done)) throw new Error("setup not confirmed");
    const codes = (await codesToShow(await session(done.setCookie), db()))!.codes;
    const user = await db().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    const now = "2026-11-25T10:00:00.000Z";
    const interview = async (id: string, status: "Draft" | "Completed", answers: Answers) => {
      await db()
        .insertInto("interviews")
        .values({ id, user_id: user.id, issue_id: 2, status, ...sealInterviewColumns(id, { vars: JSON.stringify(answers), engine_state: '{"history":[]}' }), created_at: now, updated_at: now })
        .execute();
    };
    const upload = await pdfBytes(2);
    const stored = await storeAttachment({ userId: user.id, interviewId: null }, new File([new Uint8Array(upload)], "proof: mine.pdf", { type: "application/pdf" }), storage, db());
    if (!stored.ok) throw new Error(stored.message);
    const ids = { done: crypto.randomUUID(), nothing: crypto.randomUUID(), draft: crypto.randomUUID() };
    await interview(ids.done, "Completed", { ...job, ...v("Proof AT", "Attachment", stored.path) });
    await interview(ids.nothing, "Completed", v("Have job TF", "TF", false));
    await interview(ids.draft, "Draft", job);
    await countAttempt([[`documents:user:${user.id}`, limits.documentsPerUser]], db());
    return { user, secret: setup.secret, codes, ids, upload, attachmentId: stored.id, storageKey: `${user.id}/${stored.id}.pdf` };
  }

  async function rowsOf(userId: string, email: string) {
    const counts: Record<string, number> = {};
    for (const table of PER_PERSON) {
      const rows = await db().selectFrom(table).select("user_id").where("user_id", "=", userId).execute();
      counts[table] = rows.length;
    }
    counts.users = (await db().selectFrom("users").select("id").where("id", "=", userId).execute()).length;
    counts.pending = (await db().selectFrom("sessions").select("id_hash").where("pending_user_id", "=", userId).execute()).length;
    counts.outbox = (await db().selectFrom("outbox_messages").select("id").where("to_address", "=", email).execute()).length;
    counts.limits = (await db().selectFrom("rate_limits").select("bucket").where("bucket", "like", `%${userId}`).execute()).length;
    return counts;
  }

  it("zips the profile without secrets, each interview's answers as JSON and ANX, the documents and the uploads", async () => {
    const ana = await person("export-ana@example.org", databaseFiles);
    const other = await person("export-other@example.org", databaseFiles);
    const zip = await myDataZip(ana.user.id, { db: db(), storage: databaseFiles, address: address() });
    if (!zip) throw new Error("no zip");
    expect(zip.fileName).toMatch(/^My data \d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(zip.bytes);
    const text = (name: string) => strFromU8(files[name]!);

    const profile = JSON.parse(text("profile.json"));
    expect(profile).toEqual({
      firstName: "Ana",
      lastName: "Lim-export-ana",
      email: "export-ana@example.org",
      phone: { country: "SG", code: "+65", number: "+6591234567" },
      emailVerifiedAt: ana.user.email_verified_at,
      twoFactorEnabled: true,
      recoveryCodesLeft: 10,
      createdAt: ana.user.created_at,
      updatedAt: expect.any(String),
    });
    const everything = Object.values(files).map((bytes) => Buffer.from(bytes).toString("latin1")).join("\n");
    for (const secret of [ana.user.password_hash!, ana.user.totp_secret!, ana.secret, ...ana.codes]) expect(everything).not.toContain(secret);
    expect(everything).not.toContain("export-other");

    const interviews = JSON.parse(text("interviews.json")) as { id: string; status: string; folder: string; files: string[] }[];
    expect(interviews.map((i) => [i.id, i.status])).toEqual([
      [ana.ids.done, "Completed"],
      [ana.ids.nothing, "Completed"],
      [ana.ids.draft, "Draft"],
    ].sort((a, b) => a[0]!.localeCompare(b[0]!)));
    const done = interviews.find((i) => i.id === ana.ids.done)!;
    expect(done.folder).toMatch(/^interviews\/\d /);
    const documentName = "Criminal records and spent convictions – Employment Verification – 25 November 2026.pdf";
    expect(done.files).toEqual(["answers.json", "answers.anx", documentName]);
    expect(JSON.parse(text(`${done.folder}/answers.json`))["company name te"]).toEqual({ name: "Company name TE", type: "Text", repeating: false, values: [null, "ACME"] });
    expect(text(`${done.folder}/answers.anx`)).toContain('<Answer name="Company name TE"><TextValue>ACME</TextValue></Answer>');
    const document = await PDFDocument.load(files[`${done.folder}/${documentName}`]!);
    expect(document.getPageCount()).toBe(3);
    const draft = interviews.find((i) => i.id === ana.ids.draft)!;
    expect(draft.files).toEqual(["answers.json", "answers.anx"]);
    const nothing = interviews.find((i) => i.id === ana.ids.nothing)!;
    expect(text("README.txt")).toContain(`${nothing.folder}: the document was not included. ${english.message(documentMessages.empty)}`);

    expect(JSON.parse(text("files.json"))).toEqual([
      expect.objectContaining({ id: ana.attachmentId, name: "proof: mine.pdf", contentType: "application/pdf", path: "files/proof_ mine.pdf" }),
    ]);
    expect(Buffer.from(files["files/proof_ mine.pdf"]!).equals(Buffer.from(ana.upload))).toBe(true);
    expect(other.user.id).not.toBe(ana.user.id);
  });

  it("lists a document that fails or is past the documents' limit in the README instead of failing", async () => {
    const ana = await person("export-fails@example.org", databaseFiles);
    const failing = await myDataZip(ana.user.id, {
      db: db(),
      storage: databaseFiles,
      address: address(),
      document: () => Promise.reject(new Error("the PDF library fell over")),
    });
    const readme = strFromU8(unzipSync(failing!.bytes)["README.txt"]!);
    expect(readme).toContain(`the document was not included. ${english.message(documentMessages.failed)}`);

    for (let i = 0; i < limits.documentsPerUser.max; i++) await refuseCostlyUse("documents", ana.user.id, address(), db());
    const limited = unzipSync((await myDataZip(ana.user.id, { db: db(), storage: databaseFiles, address: address() }))!.bytes);
    expect(strFromU8(limited["README.txt"]!)).toContain(english.message(myDataMessages.documentLimited));
    expect(Object.keys(limited).some((name) => name.endsWith(".pdf") && name.startsWith("interviews/"))).toBe(false);
    expect(Object.keys(limited)).toContain("files/proof_ mine.pdf");
    expect(await myDataZip(crypto.randomUUID(), { db: db(), storage: databaseFiles, address: address() })).toBeNull();
  });

  it("refuses a wrong password or a wrong code and deletes nothing", async () => {
    const ana = await person("delete-refused@example.org", databaseFiles);
    const before = await rowsOf(ana.user.id, ana.user.email);
    expect(await deleteAccount(ana.user.id, { password: "wrong horse 42", code: totp(ana.secret) }, address(), { db: db(), storage: databaseFiles })).toEqual({
      field: "password",
      message: authMessages.passwordInvalid,
      status: 400,
    });
    expect(await deleteAccount(ana.user.id, { password: PASSWORD, code: "000000" }, address(), { db: db(), storage: databaseFiles })).toEqual({
      field: "code",
      message: authMessages.codeInvalid,
      status: 400,
    });
    expect(await deleteAccount(ana.user.id, { password: PASSWORD, code: "aaaaa-aaaaa" }, address(), { db: db(), storage: databaseFiles })).toMatchObject({ field: "code" });
    expect(await rowsOf(ana.user.id, ana.user.email)).toEqual({ ...before, limits: before.limits! + 1 });
    expect(await databaseFiles.get(ana.storageKey)).not.toBeNull();
  });

  it("keeps the only administrator's account until another administrator is made", async () => {
    const ana = await person("delete-admin@example.org", databaseFiles);
    await db().updateTable("users").set({ role: "person" }).where("role", "=", "administrator").execute();
    await db().updateTable("users").set({ role: "administrator" }).where("id", "=", ana.user.id).execute();
    expect(await deleteAccount(ana.user.id, { password: PASSWORD, code: totp(ana.secret, 1) }, address(), { db: db(), storage: databaseFiles })).toEqual({
      field: "",
      message: deleteAccountMessages.onlyAdministrator,
      status: 409,
    });
    expect(await db().selectFrom("users").select("id").where("id", "=", ana.user.id).executeTakeFirst()).toBeDefined();
    await db().updateTable("users").set({ role: "person" }).where("id", "=", ana.user.id).execute();
  });

  it("deletes the person's rows, their files in the database storage and their outbox messages; another person's stay", async () => {
    const ana = await person("delete-ana@example.org", databaseFiles);
    const bob = await person("delete-bob@example.org", databaseFiles);
    // A message Ana sent through the contact form is hers too (its reply-to).
    await db()
      .insertInto("outbox_messages")
      .values({ id: crypto.randomUUID(), created_at: new Date().toISOString(), from_address: "x@example.org", to_address: "support@example.org", reply_to: "Delete-Ana@example.org", subject: "Help", html: "", text: "" })
      .execute();
    await countAttempt([[`sign-in:account:delete-ana@example.org`, limits.signInPerAccount]], db());
    const bobBefore = await rowsOf(bob.user.id, bob.user.email);
    expect(bobBefore).toMatchObject({ users: 1, interviews: 3, attachments: 1, recovery_codes: 10 });
    expect((await rowsOf(ana.user.id, ana.user.email)).outbox).toBeGreaterThan(0);

    expect(await deleteAccount(ana.user.id, { password: PASSWORD, code: totp(ana.secret, 1) }, address(), { db: db(), storage: databaseFiles })).toBeNull();

    expect(await rowsOf(ana.user.id, ana.user.email)).toEqual({ users: 0, sessions: 0, pending: 0, auth_tokens: 0, recovery_codes: 0, interviews: 0, attachments: 0, outbox: 0, limits: 0 });
    expect(await db().selectFrom("attachment_files").select("attachment_id").where("attachment_id", "=", ana.attachmentId).execute()).toEqual([]);
    expect(await databaseFiles.get(ana.storageKey)).toBeNull();
    expect(await db().selectFrom("rate_limits").select("bucket").where("bucket", "=", "sign-in:account:delete-ana@example.org").execute()).toEqual([]);
    const outbox = await db().selectFrom("outbox_messages").selectAll().execute();
    expect(JSON.stringify(outbox).toLowerCase()).not.toContain("delete-ana");
    const record = outbox.filter((row) => row.subject === ACCOUNT_DELETED_RECORD);
    expect(record.length).toBeGreaterThanOrEqual(1);
    expect(record.every((row) => row.to_address === "" && !row.text.includes("Ana"))).toBe(true);
    // The outbox's files went with their rows; the record has its file.
    const outboxFiles = readdirSync(path.join(dataDir, "outbox")).map((name) => readFileSync(path.join(dataDir, "outbox", name), "utf8"));
    expect(outboxFiles.join("\n").toLowerCase()).not.toContain("delete-ana");
    expect(outboxFiles.some((file) => file.includes(ACCOUNT_DELETED_RECORD))).toBe(true);

    expect(await rowsOf(bob.user.id, bob.user.email)).toEqual(bobBefore);
    expect(Buffer.from((await databaseFiles.get(bob.storageKey))!).equals(Buffer.from(bob.upload))).toBe(true);
    expect(await recoveryCodesLeft(bob.user.id, db())).toBe(10);

    expect(await signInWithPassword(ana.user.email, PASSWORD, null, address(), db())).toEqual({ field: "password", message: authMessages.wrongCredentials, status: 400 });
  });

  it("deletes with a recovery code, and deletes the files from an S3 bucket (STORAGE_URL)", async () => {
    const standIn = await startS3StandIn({ bucketNames: ["my-data"] });
    vi.stubEnv("AWS_ACCESS_KEY_ID", S3_ACCESS_KEY_ID);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_SECRET_ACCESS_KEY);
    try {
      const bucket = storageFromConfig({ STORAGE_URL: parseStorageUrl(`s3://my-data/uploads/?endpoint=${standIn.url}`) as ObjectStorageLocation }, db());
      const objects = () => [...(standIn.buckets.get("my-data")?.keys() ?? [])];
      const cy = await person("delete-cy@example.org", bucket);
      const dee = await person("delete-dee@example.org", bucket);
      expect(objects()).toEqual(expect.arrayContaining([`uploads/${cy.storageKey}`, `uploads/${dee.storageKey}`]));

      expect(await deleteAccount(cy.user.id, { password: PASSWORD, code: cy.codes[2]! }, address(), { db: db(), storage: bucket })).toBeNull();

      expect(objects()).not.toContain(`uploads/${cy.storageKey}`);
      expect(objects()).toContain(`uploads/${dee.storageKey}`);
      expect(await rowsOf(cy.user.id, cy.user.email)).toMatchObject({ users: 0, interviews: 0, attachments: 0, recovery_codes: 0, outbox: 0 });
      expect(Buffer.from((await bucket.get(dee.storageKey))!).equals(Buffer.from(dee.upload))).toBe(true);
      expect((await rowsOf(dee.user.id, dee.user.email)).interviews).toBe(3);
    } finally {
      vi.unstubAllEnvs();
      await standIn.close();
    }
  });
});
