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
    expect(config.sessionSecrets).toHaveLength(1);
    expect(config.sessionSecrets[0]!.length).toBeGreaterThanOrEqual(32);
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

  it("logs at info with no metrics endpoint and no tracing by default, and refuses bad log and metrics settings", () => {
    const defaults = readConfig({});
    expect([defaults.LOG_LEVEL, defaults.METRICS_PORT, defaults.METRICS_TOKEN, defaults.OTEL_EXPORTER_OTLP_ENDPOINT]).toEqual(["info", undefined, undefined, undefined]);
    expect(readConfig({ LOG_LEVEL: " Debug ", METRICS_PORT: "9464", METRICS_TOKEN: "0123456789abcdef", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toMatchObject({
      LOG_LEVEL: "debug",
      METRICS_PORT: 9464,
      METRICS_TOKEN: "0123456789abcdef",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
    });
    const empty = readConfig({ LOG_LEVEL: "", METRICS_PORT: "", METRICS_TOKEN: "" });
    expect([empty.LOG_LEVEL, empty.METRICS_PORT, empty.METRICS_TOKEN]).toEqual(["info", undefined, undefined]);
    expect(() => readConfig({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    expect(() => readConfig({ METRICS_PORT: "3000" })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => readConfig({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT must be a port number/);
    expect(() => readConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ address/);
  });

  it("shows times in the organisation's TIME_ZONE, UTC unless set, and refuses a zone that does not exist", () => {
    expect(readConfig({}).TIME_ZONE).toBe("UTC");
    expect(readConfig({ TIME_ZONE: "" }).TIME_ZONE).toBe("UTC");
    expect(readConfig({ TIME_ZONE: "Australia/Sydney" }).TIME_ZONE).toBe("Australia/Sydney");
    for (const bad of ["Mars/Olympus", "GMT+25", "not a zone"]) {
      expect(() => readConfig({ TIME_ZONE: bad })).toThrow(/TIME_ZONE must be an IANA time zone/);
    }
  });

  it("shares interviews for SHARE_DAYS days, 30 unless set, and refuses a bad number", () => {
    expect(readConfig({}).SHARE_DAYS).toBe(30);
    expect(readConfig({ SHARE_DAYS: "14" }).SHARE_DAYS).toBe(14);
    for (const bad of ["0", "2.5", "forever", "366"]) {
      expect(() => readConfig({ SHARE_DAYS: bad })).toThrow(/SHARE_DAYS must be a whole number of days from 1 to 365/);
    }
  });

  it("seals signed documents with SIGNING_CERTIFICATE when set (read at start by app/signing), and refuses a password without it", () => {
    expect(readConfig({}).SIGNING_CERTIFICATE).toBeUndefined();
    expect(readConfig({ SIGNING_CERTIFICATE: " /etc/seal.p12 ", SIGNING_CERTIFICATE_PASSWORD: "pw" })).toMatchObject({ SIGNING_CERTIFICATE: "/etc/seal.p12", SIGNING_CERTIFICATE_PASSWORD: "pw" });
    expect(() => readConfig({ SIGNING_CERTIFICATE_PASSWORD: "pw" })).toThrow(/SIGNING_CERTIFICATE: SIGNING_CERTIFICATE_PASSWORD is set but SIGNING_CERTIFICATE is not/);
  });

  it("refuses to start in production without a session secret", () => {
    expect(() => readConfig({ NODE_ENV: "production", DATA_ENCRYPTION_KEY: key })).toThrow(/SESSION_SECRET is required in production/);
    expect(() => readConfig({ NODE_ENV: "production", SESSION_SECRET: "short", DATA_ENCRYPTION_KEY: key })).toThrow(/SESSION_SECRET/);
    const config = readConfig({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), DATA_ENCRYPTION_KEY: key });
    expect(config.isProduction).toBe(true);
  });

  it("takes several session secrets, the newest first, each at least 32 characters", () => {
    const [newer, older] = ["n".repeat(40), "o".repeat(32)];
    expect(readConfig({ SESSION_SECRET: ` ${newer} , ${older} ` }).sessionSecrets).toEqual([newer, older]);
    expect(() => readConfig({ SESSION_SECRET: `${newer},short` })).toThrow(/SESSION_SECRET must be at least 32 characters \(several: separated by commas, the newest first\)/);
    // The operator commands read them too (migration 0016 moves what an earlier version derived from them).
    expect(readDataConfig({ SESSION_SECRET: `${newer},${older}` }).SESSION_SECRET).toEqual([newer, older]);
    expect(() => readDataConfig({ TOTP_ENCRYPTION_KEY: "short" })).toThrow(/TOTP_ENCRYPTION_KEY must be 32 bytes in base64/);
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

describe("TRUST_PROXY", () => {
  it("trusts no proxy by default, and takes a number of proxies or their addresses as Express does", () => {
    expect(readConfig({}).TRUST_PROXY).toBe(false);
    expect(readConfig({ TRUST_PROXY: "" }).TRUST_PROXY).toBe(false);
    expect(readConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(readConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(readConfig({ TRUST_PROXY: " 2 " }).TRUST_PROXY).toBe(2);
    expect(readConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,192.0.2.7, 2001:db8::/32, fd00::1" }).TRUST_PROXY).toEqual([
      "loopback",
      "10.0.0.0/8",
      "192.0.2.7",
      "2001:db8::/32",
      "fd00::1",
    ]);
  });

  it("refuses true (every client would choose its own address), a range of everything, and what is not an address", () => {
    expect(() => readConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY=true would believe any address a client writes/);
    for (const bad of ["0.0.0.0/0", "10.0.0.0/33", "::/0", "nginx", "10.0.0.1/8/8", "1.2.3", "11", "10.0.0.1, everyone"]) {
      expect(() => readConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be/);
    }
  });
});
