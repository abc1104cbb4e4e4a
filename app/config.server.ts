import { z } from "zod";

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

const dataSchema = dataObject.superRefine(requireDataKeyInProduction);

const schema = dataObject
  .extend({
    HOST: z.string().default("0.0.0.0"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    SESSION_SECRET: optional.pipe(z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional()),
    PUBLIC_ORIGIN: optional.pipe(url("PUBLIC_ORIGIN").optional()),
    TOTP_ENCRYPTION_KEY: optional.pipe(
      z
        .string()
        .refine((value) => Buffer.from(value, "base64").length === 32, "TOTP_ENCRYPTION_KEY must be 32 bytes in base64")
        .optional(),
    ),
    MAIL_FROM: z.string().default("Legal Help <no-reply@localhost>"),
    SUPPORT_EMAIL: z.email("SUPPORT_EMAIL must be an email address").default("support@localhost.test"),
    RESEND_API_KEY: optional,
    RESEND_BASE_URL: optional.pipe(url("RESEND_BASE_URL").optional()),
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
  })
  .superRefine((env, ctx) => {
    requireDataKeyInProduction(env, ctx);
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "SESSION_SECRET is required in production (at least 32 random characters)",
      });
    }
  });

export type Config = Omit<z.infer<typeof schema>, "SESSION_SECRET" | "PUBLIC_ORIGIN"> & {
  SESSION_SECRET: string;
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
const DEVELOPMENT_SECRET = "development-only-secret-do-not-use-in-production";

/** Reads and validates the environment; throws a ConfigError naming every bad variable. */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const values = parseEnvironment(schema, env);
  const publicOrigin = values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`;
  return {
    ...values,
    SESSION_SECRET: values.SESSION_SECRET ?? DEVELOPMENT_SECRET,
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
