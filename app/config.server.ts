import { isIP } from "node:net";
import { z } from "zod";
import { LOG_LEVELS } from "./observability/log.server";

const optional = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const url = (name: string) =>
  z
    .string()
    .trim()
    .refine((value) => URL.canParse(value), `${name} must be an absolute URL, such as http://localhost:3000`);

/** An S3-compatible bucket for uploaded files (STORAGE_URL=s3://bucket[/prefix][?endpoint=…&region=…&forcePathStyle=…]). */
export interface ObjectStorageLocation {
  bucket: string;
  /** Put before every key: empty, or ending in "/". */
  prefix: string;
  /** Another S3-compatible service than AWS (MinIO, Ceph, R2…); unset: AWS, or AWS_ENDPOINT_URL_S3. */
  endpoint?: string;
  region?: string;
  /** Addresses the bucket in the path (host/bucket/key) rather than the host name (bucket.host/key). */
  forcePathStyle: boolean;
}

const storageUrlParameters = ["endpoint", "region", "forcePathStyle"];

/** STORAGE_URL read, or a message saying what is wrong with it. */
export function parseStorageUrl(value: string): ObjectStorageLocation | string {
  const shape = "STORAGE_URL must look like s3://bucket or s3://bucket/prefix";
  if (!URL.canParse(value)) return shape;
  const url = new URL(value);
  if (url.protocol !== "s3:") return `${shape} (only s3: is supported)`;
  // S3's bucket naming rules: 3 to 63 lowercase letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname)) return `${shape}, with a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens`;
  if (url.username || url.password) return "STORAGE_URL must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
  const unknown = [...url.searchParams.keys()].filter((key) => !storageUrlParameters.includes(key));
  if (unknown.length) return `STORAGE_URL has an unknown parameter ${unknown[0]} (known: ${storageUrlParameters.join(", ")})`;
  const endpoint = url.searchParams.get("endpoint") || undefined;
  if (endpoint && !(/^https?:\/\//.test(endpoint) && URL.canParse(endpoint))) {
    return "STORAGE_URL's endpoint must be an http:// or https:// address, such as http://127.0.0.1:9000";
  }
  const pathStyle = url.searchParams.get("forcePathStyle");
  if (pathStyle !== null && pathStyle !== "true" && pathStyle !== "false") return "STORAGE_URL's forcePathStyle must be true or false";
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, "");
  return {
    bucket: url.hostname,
    prefix: prefix ? `${prefix}/` : "",
    endpoint,
    region: url.searchParams.get("region") || undefined,
    // Self-hosted stores mostly serve one host name, so a given endpoint addresses buckets in the path.
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === "true",
  };
}

/**
 * Which proxies' forwarding headers to believe (Express's `trust proxy`): `false` (none: the socket's address is
 * the client's), a number of proxies in front of the server, or the proxies' addresses and CIDR ranges.
 */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges (proxy-addr's, used by Express's `trust proxy`). */
const NAMED_RANGES = ["loopback", "linklocal", "uniquelocal"];

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  // A prefix of 0 would trust every address on the Internet, which proxy-addr refuses too.
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY read, or a message saying what is wrong with it (README, "Behind a reverse proxy"). */
export function parseTrustProxy(value: string): TrustProxy | string {
  const text = value.trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (/^[0-9]+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : "TRUST_PROXY must be a number of proxies from 1 to 10, or the proxies' addresses";
  }
  if (text === "true") {
    return "TRUST_PROXY=true would believe any address a client writes in X-Forwarded-For: give the number of proxies in front of the server (1 behind one nginx) or their addresses";
  }
  const entries = text.split(",").map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined || !entries.length) {
    return `TRUST_PROXY must be a number of proxies (such as 1), or addresses and CIDR ranges separated by commas (such as 10.0.0.0/8, loopback); "${bad ?? text}" is neither`;
  }
  return entries;
}

const dataKey = (name: string) =>
  z.string().trim().refine((value) => isDataKey(value), `${name} must be 32 bytes in base64: make one with openssl rand -base64 32`);
const isDataKey = (value: string) => /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, "base64").length === 32;

// What the command-line entry needs as well as the server: where the data, the uploaded files and the seed
// content are, and the keys that seal people's answers and files (app/security/data-encryption.server.ts).
const dataObject = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .trim()
    .default("file:./data/app.db")
    .refine(
      (value) => /^(file:|postgres(ql)?:\/\/)/.test(value),
      "DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL)",
    ),
  DATA_DIR: z.string().default("./data"),
  SEED_DIR: z.string().default("./db/seed"),
  // Unset: uploaded files live in the database (docs/decisions/0015-file-storage-and-backups.md).
  STORAGE_URL: optional.pipe(
    z
      .string()
      .transform((value, ctx) => {
        const location = parseStorageUrl(value);
        if (typeof location === "object") return location;
        ctx.addIssue({ code: "custom", message: location });
        return z.NEVER;
      })
      .optional(),
  ),
  // Signs what the browser keeps (cookies, the viewer's tokens): the newest first, then older ones that still
  // verify until what they signed expires. The operator commands read it only to move what an earlier version
  // derived from it (migration 0016, app/auth/earlier-secrets.server.ts).
  SESSION_SECRET: optional.pipe(
    z
      .string()
      .transform((value) => value.split(",").map((secret) => secret.trim()).filter(Boolean))
      .refine((secrets) => secrets.length > 0 && secrets.every((secret) => secret.length >= 32), "SESSION_SECRET must be at least 32 characters (several: separated by commas, the newest first)")
      .optional(),
  ),
  // Deprecated: the key an earlier version sealed two-factor secrets with. Read only by migration 0016, which
  // seals them with the data keyring (docs/decisions/0033-secrets-and-rotation.md).
  TOTP_ENCRYPTION_KEY: optional.pipe(
    z
      .string()
      .refine((value) => Buffer.from(value, "base64").length === 32, "TOTP_ENCRYPTION_KEY must be 32 bytes in base64")
      .optional(),
  ),
  DATA_ENCRYPTION_KEY: optional.pipe(dataKey("DATA_ENCRYPTION_KEY").optional()),
  // Keys of earlier days, for reading only, until `cli db rotate-key` has moved every value to the current key.
  DATA_ENCRYPTION_OLD_KEYS: optional.pipe(
    z
      .string()
      .transform((value) => value.split(",").map((key) => key.trim()).filter(Boolean))
      .refine((keys) => keys.every(isDataKey), "DATA_ENCRYPTION_OLD_KEYS must be keys of 32 bytes in base64, separated by commas")
      .optional(),
  ),
});

/** Production keeps real people's data: it must not be sealed with the development key everyone knows. */
function requireDataKeyInProduction(env: { NODE_ENV: string; DATA_ENCRYPTION_KEY?: string }, ctx: z.RefinementCtx) {
  if (env.NODE_ENV === "production" && !env.DATA_ENCRYPTION_KEY) {
    ctx.addIssue({
      code: "custom",
      path: ["DATA_ENCRYPTION_KEY"],
      message: "DATA_ENCRYPTION_KEY is required in production: 32 random bytes in base64, made with openssl rand -base64 32 (keep it safe: without it the answers cannot be read)",
    });
  }
}

/** A time zone this Node's Intl knows by its IANA name. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const dataSchema = dataObject.superRefine(requireDataKeyInProduction);

const schema = dataObject
  .extend({
    HOST: z.string().default("0.0.0.0"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    PUBLIC_ORIGIN: optional.pipe(url("PUBLIC_ORIGIN").optional()),
    MAIL_FROM: z.string().default("Legal Help <no-reply@localhost>"),
    SUPPORT_EMAIL: z.email("SUPPORT_EMAIL must be an email address").default("support@localhost.test"),
    RESEND_API_KEY: optional,
    RESEND_BASE_URL: optional.pipe(url("RESEND_BASE_URL").optional()),
    // Unset: no proxy is trusted, and forwarding headers a client sends are ignored (docs/decisions/0034).
    TRUST_PROXY: z
      .string()
      .default("")
      .transform((value, ctx) => {
        const trust = parseTrustProxy(value);
        if (typeof trust !== "string") return trust;
        ctx.addIssue({ code: "custom", message: trust });
        return z.NEVER;
      }),
    // Many people can share one address (a library, a legal clinic): raise the per-address limits there.
    RATE_LIMIT_ADDRESS_FACTOR: z.coerce.number().positive().default(1),
    AI_BASE_URL: optional.pipe(url("AI_BASE_URL").optional()),
    AI_API_KEY: optional,
    AI_MODEL: optional,
    AI_TIMEOUT_MS: z.coerce.number().int().positive().default(20000),
    // Personal details are replaced by placeholders before a text goes to the AI; "false" turns that off.
    AI_REDACT_PERSONAL_DATA: z
      .enum(["true", "false"], "AI_REDACT_PERSONAL_DATA must be true or false")
      .default("true")
      .transform((value) => value === "true"),
    // What the organisation keeps of each AI call (docs/decisions/0032-grounded-ai-help.md): the record (issue,
    // model, tokens, passages) for AI_CALL_RETENTION_DAYS; what was sent and answered only when AI_TRANSCRIPTS
    // is "true", sealed, for AI_TRANSCRIPT_RETENTION_DAYS.
    AI_TRANSCRIPTS: z
      .enum(["true", "false"], "AI_TRANSCRIPTS must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    AI_CALL_RETENTION_DAYS: z.coerce.number({ error: "AI_CALL_RETENTION_DAYS must be a number of days" }).int().min(1).default(365),
    AI_TRANSCRIPT_RETENTION_DAYS: z.coerce.number({ error: "AI_TRANSCRIPT_RETENTION_DAYS must be a number of days" }).int().min(1).default(30),
    // The organisation's time zone (IANA, e.g. Australia/Sydney): the times administrators read and the dates
    // in documents' file names. Checked against the zones this Node knows.
    TIME_ZONE: optional
      .transform((value) => value ?? "UTC")
      .refine(isTimeZone, "TIME_ZONE must be an IANA time zone such as Europe/London or Australia/Sydney (or UTC)"),
    // How long an interview a person shares with the helpers stays shared, unless they stop sooner (app/help/).
    SHARE_DAYS: z.coerce
      .number({ error: "SHARE_DAYS must be a whole number of days from 1 to 365" })
      .int("SHARE_DAYS must be a whole number of days from 1 to 365")
      .min(1, "SHARE_DAYS must be a whole number of days from 1 to 365")
      .max(365, "SHARE_DAYS must be a whole number of days from 1 to 365")
      .default(30),
    // Webhooks (docs/decisions/0057-webhooks.md): "true" lets endpoints be private, loopback or plain-http addresses
    // (tests, closed networks); otherwise only public https addresses are registered and sent to.
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(["true", "false"], "WEBHOOK_ALLOW_PRIVATE must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    // How long an instance holds a delivery it is sending before another may send it again (a crash loses none).
    WEBHOOK_LEASE_SECONDS: z.coerce
      .number({ error: "WEBHOOK_LEASE_SECONDS must be a number of seconds from 1 to 3600" })
      .min(1, "WEBHOOK_LEASE_SECONDS must be a number of seconds from 1 to 3600")
      .max(3600, "WEBHOOK_LEASE_SECONDS must be a number of seconds from 1 to 3600")
      .default(60),
    // How often each server process looks for deliveries that are due.
    WEBHOOK_POLL_MS: z.coerce
      .number({ error: "WEBHOOK_POLL_MS must be a number of milliseconds from 50 to 600000" })
      .int("WEBHOOK_POLL_MS must be a number of milliseconds from 50 to 600000")
      .min(50, "WEBHOOK_POLL_MS must be a number of milliseconds from 50 to 600000")
      .max(600_000, "WEBHOOK_POLL_MS must be a number of milliseconds from 50 to 600000")
      .default(2000),
    // Multiplies the retry delays and the 24-hour retry window (tests: 0.0001 retries within seconds).
    WEBHOOK_RETRY_SCALE: z.coerce
      .number({ error: "WEBHOOK_RETRY_SCALE must be a number above 0 and at most 1" })
      .positive("WEBHOOK_RETRY_SCALE must be a number above 0 and at most 1")
      .max(1, "WEBHOOK_RETRY_SCALE must be a number above 0 and at most 1")
      .default(1),
    // Answers ?lang=en-XA with the pseudo-language (accented, longer English) for finding untranslated words.
    PSEUDO_LANGUAGE: z
      .enum(["true", "false"], "PSEUDO_LANGUAGE must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    // Worker processes of the production server (server.js), sharing its port; 1 runs no extra process.
    WEB_CONCURRENCY: z.coerce
      .number({ error: "WEB_CONCURRENCY must be a whole number from 1 to 64" })
      .int("WEB_CONCURRENCY must be a whole number from 1 to 64")
      .min(1, "WEB_CONCURRENCY must be a whole number from 1 to 64")
      .max(64, "WEB_CONCURRENCY must be a whole number from 1 to 64")
      .default(1),
    // Logs, metrics and traces (README, "Logs, metrics and traces"; docs/decisions/0035-logs-metrics-traces.md).
    LOG_LEVEL: z.preprocess(
      (value) => (typeof value === "string" ? value.trim().toLowerCase() || undefined : value),
      z.enum(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`).default("info"),
    ),
    METRICS_PORT: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z.coerce.number({ error: "METRICS_PORT must be a port number" }).int("METRICS_PORT must be a port number").min(1, "METRICS_PORT must be a port number").max(65535, "METRICS_PORT must be a port number").optional(),
    ),
    METRICS_TOKEN: optional.pipe(z.string().min(16, "METRICS_TOKEN must be at least 16 characters (openssl rand -hex 32 makes one)").optional()),
    // The certificate that seals signed documents (docs/decisions/0054-the-seal-and-the-certificate.md): a PKCS#12
    // file's path, or the file in base64, and its password. Read and checked at start (app/signing/certificate.server.ts);
    // unset: a self-signed certificate the site makes and keeps in the database.
    SIGNING_CERTIFICATE: optional,
    SIGNING_CERTIFICATE_PASSWORD: z.string().optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: optional.pipe(
      z
        .string()
        .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// address, such as http://otel-collector:4318")
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: "custom", path: ["METRICS_PORT"], message: "METRICS_PORT must differ from PORT (or leave it unset and set METRICS_TOKEN)" });
    }
    requireDataKeyInProduction(env, ctx);
    if (env.SIGNING_CERTIFICATE_PASSWORD && !env.SIGNING_CERTIFICATE) {
      ctx.addIssue({ code: "custom", path: ["SIGNING_CERTIFICATE"], message: "SIGNING_CERTIFICATE_PASSWORD is set but SIGNING_CERTIFICATE is not: give the PKCS#12 file's path (or the file in base64)" });
    }
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "SESSION_SECRET is required in production (at least 32 random characters)",
      });
    }
  });

export type Config = Omit<z.infer<typeof schema>, "SESSION_SECRET" | "PUBLIC_ORIGIN"> & {
  /** SESSION_SECRET: the newest signs, every one verifies (never empty: outside production a fixed one). */
  sessionSecrets: string[];
  PUBLIC_ORIGIN: string;
  isProduction: boolean;
  /** Whether people reach us over https: cookies are then Secure and plain-http subresources upgraded. */
  isHttps: boolean;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

function parseEnvironment<T>(schema: z.ZodType<T>, env: Record<string, string | undefined>): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join(".") || "environment"}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
}

export type DataConfig = z.infer<typeof dataSchema>;

/** The database and folder settings alone, for operator commands: they need no session secret. */
export function readDataConfig(env: Record<string, string | undefined> = process.env): DataConfig {
  return parseEnvironment(dataSchema, env);
}

// Only used outside production, where a fixed secret is harmless and keeps cookies valid across restarts.
export const DEVELOPMENT_SECRET = "development-only-secret-do-not-use-in-production";

/** Reads and validates the environment; throws a ConfigError naming every bad variable. */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const values = parseEnvironment(schema, env);
  const publicOrigin = values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`;
  return {
    ...values,
    sessionSecrets: values.SESSION_SECRET ?? [DEVELOPMENT_SECRET],
    PUBLIC_ORIGIN: publicOrigin,
    isProduction: values.NODE_ENV === "production",
    isHttps: publicOrigin.startsWith("https:"),
  };
}

let cached: Config | undefined;

/** The validated configuration of this process, read once. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
