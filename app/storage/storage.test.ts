import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { type S3StandIn, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3StandIn } from "../../tests/support/s3-stand-in";
import { parseStorageUrl, type ObjectStorageLocation } from "~/config.server";
import { type AttachmentStorage, attachmentStorageKey, type StoredFile, transformingStorage } from "./attachment-storage.server";
import { storageFromConfig } from "./configured-storage.server";
import { s3Storage } from "./s3-storage.server";

// The storage contract, on every backend a deployment can choose: the database (SQLite and PostgreSQL) and an
// S3-compatible bucket (the local stand-in, tests/support/s3-stand-in.ts, which checks every request's signature).

/** Every byte value, and enough of them to need several SQLite pages and a real HTTP body. */
const sampleBytes = (size = 300_000) => Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(size)]);

async function collect(files: AsyncIterable<StoredFile>): Promise<StoredFile[]> {
  const out: StoredFile[] = [];
  for await (const file of files) out.push(file);
  return out;
}

interface Backend {
  storage: AttachmentStorage;
  /** A key whose attachment row exists (the database storage keeps bytes under their row). */
  newKey(): Promise<string>;
}

function contract(name: string, open: () => Promise<Backend & { close(): Promise<void> }>) {
  describe(`the ${name} storage`, () => {
    let backend: Backend & { close(): Promise<void> };
    beforeAll(async () => {
      backend = await open();
    });
    afterAll(() => backend?.close());

    it("gives back the very bytes it was given, and nothing for a key it does not hold", async () => {
      const key = await backend.newKey();
      const bytes = sampleBytes();
      await backend.storage.put(key, bytes);
      const read = await backend.storage.get(key);
      expect(Buffer.isBuffer(read)).toBe(true);
      expect(read!.equals(bytes)).toBe(true);
      expect(await backend.storage.get(await backend.newKey())).toBeNull();
    });

    it("replaces the bytes when a key is written again, and deletes them (twice is fine)", async () => {
      const key = await backend.newKey();
      await backend.storage.put(key, Buffer.from("%PDF-1.4 first"));
      await backend.storage.put(key, Buffer.from("%PDF-1.4 second"));
      expect((await backend.storage.get(key))?.toString()).toBe("%PDF-1.4 second");
      await backend.storage.delete(key);
      expect(await backend.storage.get(key)).toBeNull();
      await backend.storage.delete(key);
    });

    it("seals the bytes on the way in and opens them on the way out when wrapped with a transform", async () => {
      const flip = (bytes: Uint8Array) => Buffer.from(bytes.map((byte) => byte ^ 0xff));
      const sealed = transformingStorage(backend.storage, { seal: flip, open: flip });
      const key = await backend.newKey();
      const bytes = sampleBytes(1000);
      await sealed.put(key, bytes);
      expect((await backend.storage.get(key))!.equals(flip(bytes))).toBe(true);
      expect((await sealed.get(key))!.equals(bytes)).toBe(true);
      expect(await sealed.get(await backend.newKey())).toBeNull();
    });
  });
}

for (const dialect of ["sqlite", "postgres"] as const) {
  let database: TestDatabase;
  const alice = randomUUID();
  const newAttachment = async (userId = alice, interviewId: string | null = null) => {
    const id = randomUUID();
    const key = attachmentStorageKey(userId, id, "pdf");
    await database.db
      .insertInto("attachments")
      .values({ id, user_id: userId, interview_id: interviewId, file_name: "a.pdf", content_type: "application/pdf", size: 1, storage_key: key, created_at: new Date().toISOString() })
      .execute();
    return key;
  };
  contract(`database (${dialect})`, async () => {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await insertTestUser(database.db, alice, `alice-${dialect}@example.org`);
    return { storage: storageFromConfig({}, database.db), newKey: () => newAttachment(), close: () => database.drop() };
  });

  describe(`the database storage on ${dialect}`, () => {
    let database: TestDatabase;
    const bob = randomUUID();
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      await migrateToLatest(database.db);
      await insertTestUser(database.db, bob, `bob-${dialect}@example.org`);
    });
    afterAll(() => database?.drop());
    const storage = () => storageFromConfig({}, database.db);
    const attachment = async (interviewId: string | null) => {
      const id = randomUUID();
      const key = attachmentStorageKey(bob, id, "pdf");
      await database.db
        .insertInto("attachments")
        .values({ id, user_id: bob, interview_id: interviewId, file_name: "a.pdf", content_type: "application/pdf", size: 1, storage_key: key, created_at: new Date().toISOString() })
        .execute();
      await storage().put(key, Buffer.from(`%PDF-1.4 ${id}`));
      return { id, key };
    };
    const storedIds = async () => (await database.db.selectFrom("attachment_files").select("attachment_id").execute()).map((row) => row.attachment_id).sort();

    it("deletes a file with its attachment row, its interview and its account, at once", async () => {
      const now = new Date().toISOString();
      await database.db.insertInto("categories").values({ id: 1, name: "Family", sort_order: 1 }).execute();
      await database.db
        .insertInto("issues")
        .values({ id: 1, category_id: 1, name: "Divorce", content: "", guide_id: null, guide_path: null, model_ai: "m", rephrase_content: "" })
        .execute();
      await database.db
        .insertInto("interviews")
        .values({ id: "to-delete", user_id: bob, issue_id: 1, status: "Draft", vars: "{}", engine_state: "{}", created_at: now, updated_at: now })
        .execute();
      const [single, ofInterview, ofAccount] = [await attachment(null), await attachment("to-delete"), await attachment(null)];
      expect(await storedIds()).toEqual([single.id, ofInterview.id, ofAccount.id].sort());

      await database.db.deleteFrom("attachments").where("id", "=", single.id).execute();
      expect(await storage().get(single.key)).toBeNull();
      await database.db.deleteFrom("interviews").where("id", "=", "to-delete").execute();
      expect(await storage().get(ofInterview.key)).toBeNull();
      expect(await storedIds()).toEqual([ofAccount.id]);
      await database.db.deleteFrom("users").where("id", "=", bob).execute();
      expect(await storedIds()).toEqual([]);
    });

    it("refuses bytes that belong to no attachment row, so none can be left behind", async () => {
      await expect(storage().put(`${bob}/${randomUUID()}.pdf`, Buffer.from("%PDF"))).rejects.toThrow();
      expect(await storedIds()).toEqual([]);
    });
  });
}

describe("S3 storage", () => {
  let standIn: S3StandIn;
  const location = (prefix = "uploads/") => parseStorageUrl(`s3://test-bucket/${prefix}?endpoint=${standIn.url}`) as ObjectStorageLocation;
  beforeAll(async () => {
    // The stand-in hands out lists two keys a page, so the storage's listing has to follow continuation tokens.
    standIn = await startS3StandIn({ pageSize: 2 });
    vi.stubEnv("AWS_ACCESS_KEY_ID", S3_ACCESS_KEY_ID);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_SECRET_ACCESS_KEY);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await standIn?.close();
  });

  contract("S3 (the stand-in)", async () => ({
    storage: storageFromConfig({ STORAGE_URL: location() }, null as never),
    newKey: async () => attachmentStorageKey(randomUUID(), randomUUID(), "pdf"),
    close: async () => undefined,
  }));

  it("keeps objects under the prefix, signs every request with the configured key, and lists every object", async () => {
    const storage = storageFromConfig({ STORAGE_URL: location("tenant-a/files") }, null as never);
    const keys = Array.from({ length: 5 }, () => attachmentStorageKey("user-1", randomUUID(), "pdf"));
    for (const key of keys) await storage.put(key, Buffer.from(`%PDF ${key}`));
    const objects = standIn.buckets.get("test-bucket")!;
    for (const key of keys) expect(objects.get(`tenant-a/files/${key}`)?.bytes.toString()).toBe(`%PDF ${key}`);
    const listed = await collect(storage.list!());
    expect(listed.map((file) => file.key).sort()).toEqual([...keys].sort());
    expect(listed.every((file) => file.modifiedAt.getTime() > Date.now() - 60_000)).toBe(true);
    expect(standIn.requests.filter((request) => request.url.includes("list-type=2")).length).toBeGreaterThanOrEqual(3);
    expect(new Set(standIn.requests.map((request) => request.accessKeyId))).toEqual(new Set([S3_ACCESS_KEY_ID]));
  });

  it("fails loudly with a wrong secret key: the store refuses the signature", async () => {
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "not-the-secret-not-the-secret-not-the-sec");
    try {
      const storage = s3Storage(location());
      await expect(storage.put("user/x.pdf", Buffer.from("%PDF"))).rejects.toThrow(/signature/i);
      await expect(storage.get("user/x.pdf")).rejects.toThrow(/signature/i);
    } finally {
      vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_SECRET_ACCESS_KEY);
    }
  });
});
