import { describe, expect, it } from "vitest";
import { ConfigError, parseStorageUrl, readConfig, readDataConfig } from "./config.server";

const key = Buffer.alloc(32, 1).toString("base64");

describe("configuration", () => {
  it("has development defaults: SQLite under ./data, the outbox, port 3000", () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      DATABASE_URL: "file:./data/app.db",
      PUBLIC_ORIGIN: "http://localhost:3000",
      isProduction: false,
    });
    expect(config.RESEND_API_KEY).toBeUndefined();
    expect(config.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("accepts PostgreSQL URLs and treats empty variables as unset", () => {
    const config = readConfig({ DATABASE_URL: "postgres://u@db:5432/app", RESEND_API_KEY: "", AI_BASE_URL: "" });
    expect(config.DATABASE_URL).toBe("postgres://u@db:5432/app");
    expect(config.RESEND_API_KEY).toBeUndefined();
    expect(config.AI_BASE_URL).toBeUndefined();
  });

  it("names every bad variable in one clear error", () => {
    const read = () => readConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", SUPPORT_EMAIL: "nope", AI_BASE_URL: "not a url" });
    expect(read).toThrow(ConfigError);
    try {
      read();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ["PORT", "DATABASE_URL", "SUPPORT_EMAIL", "AI_BASE_URL"]) expect(message).toContain(name);
    }
  });

  it("runs one process unless WEB_CONCURRENCY asks for more, and refuses a bad count", () => {
    expect(readConfig({}).WEB_CONCURRENCY).toBe(1);
    expect(readConfig({ WEB_CONCURRENCY: "2" }).WEB_CONCURRENCY).toBe(2);
    for (const bad of ["0", "1.5", "many", "65"]) {
      expect(() => readConfig({ WEB_CONCURRENCY: bad })).toThrow(/WEB_CONCURRENCY must be a whole number from 1 to 64/);
    }
  });

  it("shares interviews for SHARE_DAYS days, 30 unless set, and refuses a bad number", () => {
    expect(readConfig({}).SHARE_DAYS).toBe(30);
    expect(readConfig({ SHARE_DAYS: "14" }).SHARE_DAYS).toBe(14);
    for (const bad of ["0", "2.5", "forever", "366"]) {
      expect(() => readConfig({ SHARE_DAYS: bad })).toThrow(/SHARE_DAYS must be a whole number of days from 1 to 365/);
    }
  });

  it("refuses to start in production without a session secret", () => {
    expect(() => readConfig({ NODE_ENV: "production", DATA_ENCRYPTION_KEY: key })).toThrow(/SESSION_SECRET is required in production/);
    expect(() => readConfig({ NODE_ENV: "production", SESSION_SECRET: "short", DATA_ENCRYPTION_KEY: key })).toThrow(/SESSION_SECRET/);
    const config = readConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), DATA_ENCRYPTION_KEY: key });
    expect(config.isProduction).toBe(true);
  });

  it("refuses production without a data encryption key, the operator commands too, and says how to make one", () => {
    const howTo = /DATA_ENCRYPTION_KEY is required in production: .*openssl rand -base64 32/;
    expect(() => readConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) })).toThrow(howTo);
    expect(() => readDataConfig({ NODE_ENV: "production" })).toThrow(howTo);
    expect(readDataConfig({ NODE_ENV: "production", DATA_ENCRYPTION_KEY: key }).DATA_ENCRYPTION_KEY).toBe(key);
    expect(readDataConfig({}).DATA_ENCRYPTION_KEY).toBeUndefined();
  });

  it("takes keys of 32 bytes in base64 only, and old keys as a comma-separated list", () => {
    const other = Buffer.alloc(32, 2).toString("base64");
    expect(readDataConfig({ DATA_ENCRYPTION_OLD_KEYS: ` ${key}, ${other} ` }).DATA_ENCRYPTION_OLD_KEYS).toEqual([key, other]);
    for (const bad of ["short", Buffer.alloc(16).toString("base64"), Buffer.alloc(33).toString("base64"), "x".repeat(44)]) {
      expect(() => readDataConfig({ DATA_ENCRYPTION_KEY: bad })).toThrow(/DATA_ENCRYPTION_KEY must be 32 bytes in base64: make one with openssl rand -base64 32/);
    }
    expect(() => readDataConfig({ DATA_ENCRYPTION_OLD_KEYS: `${key},nope` })).toThrow(/DATA_ENCRYPTION_OLD_KEYS must be keys of 32 bytes/);
  });
});

describe("https", () => {
  it("is derived from the public origin", () => {
    expect(readConfig({}).isHttps).toBe(false);
    expect(readConfig({ PUBLIC_ORIGIN: "https://help.example.org" }).isHttps).toBe(true);
    expect(() => readConfig({ PUBLIC_ORIGIN: "help.example.org" })).toThrow(/PUBLIC_ORIGIN/);
  });
});

describe("STORAGE_URL", () => {
  it("is unset by default (files in the database), and reads a bucket, a prefix and the connection settings", () => {
    expect(readConfig({}).STORAGE_URL).toBeUndefined();
    expect(readConfig({ STORAGE_URL: "" }).STORAGE_URL).toBeUndefined();
    expect(readDataConfig({ STORAGE_URL: "s3://legal-files" }).STORAGE_URL).toEqual({
      bucket: "legal-files",
      prefix: "",
      endpoint: undefined,
      region: undefined,
      forcePathStyle: false,
    });
    expect(readConfig({ STORAGE_URL: "s3://legal-files/uploads/prod/?endpoint=http://127.0.0.1:9000&region=eu-west-1" }).STORAGE_URL).toEqual({
      bucket: "legal-files",
      prefix: "uploads/prod/",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      forcePathStyle: true,
    });
    expect(parseStorageUrl("s3://legal-files?endpoint=https://s3.example.org&forcePathStyle=false")).toMatchObject({ forcePathStyle: false });
  });

  it("refuses a bad STORAGE_URL with a message saying what is wrong", () => {
    const cases: [string, RegExp][] = [
      ["/var/files", /must look like s3:\/\/bucket/],
      ["https://bucket.example.org", /only s3: is supported/],
      ["s3://Bad_Bucket", /bucket name of 3 to 63 lowercase/],
      ["s3://key:secret@bucket", /must not hold credentials/],
      ["s3://bucket?endpont=http://x", /unknown parameter endpont/],
      ["s3://bucket?endpoint=minio:9000", /endpoint must be an http:\/\/ or https:\/\/ address/],
      ["s3://bucket?forcePathStyle=yes", /forcePathStyle must be true or false/],
    ];
    for (const [value, message] of cases) {
      expect(() => readDataConfig({ STORAGE_URL: value }), value).toThrow(message);
      expect(() => readDataConfig({ STORAGE_URL: value }), value).toThrow(/STORAGE_URL/);
    }
  });
});
