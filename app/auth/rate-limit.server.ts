import { sql } from "kysely";
import { deleteInBatches, PURGE_BATCH_SIZE } from "../../db/batches";
import type { Db } from "../../db/database";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { countRateLimitRefusal } from "~/observability/metrics.server";
import { messageRef } from "~/i18n/translator";

export interface Limit {
  /** At most this many attempts… */
  max: number;
  /** …in a window of this many minutes. */
  minutes: number;
  /** Counted per client address: scaled by RATE_LIMIT_ADDRESS_FACTOR. */
  perAddress?: boolean;
}

/**
 * The documented abuse limits (README, "Abuse limits"): per account (email) and per client address, counted in
 * the database so they hold across instances. Per-address limits are multiplied by RATE_LIMIT_ADDRESS_FACTOR.
 */
export const limits = {
  signInPerAccount: { max: 10, minutes: 15 },
  signInPerAddress: { max: 50, minutes: 15, perAddress: true },
  twoFactorPerAccount: { max: 5, minutes: 15 },
  twoFactorPerAddress: { max: 30, minutes: 15, perAddress: true },
  signUpPerAddress: { max: 10, minutes: 60, perAddress: true },
  emailPerAccount: { max: 3, minutes: 60 },
  emailPerAddress: { max: 20, minutes: 60, perAddress: true },
  passwordPerAddress: { max: 20, minutes: 60, perAddress: true },
  // Each message is an email to the organisation's support address.
  contactPerAddress: { max: 10, minutes: 60, perAddress: true },
  // Each rephrasing is a paid call to the AI service.
  aiRephrasePerUser: { max: 20, minutes: 60 },
  aiRephrasePerAddress: { max: 60, minutes: 60, perAddress: true },
  // "Understand my situation": a search and up to two model calls each.
  aiUnderstandPerUser: { max: 10, minutes: 60 },
  aiUnderstandPerAddress: { max: 40, minutes: 60, perAddress: true },
  // "Use a document I have": a document read in a worker and one model call each.
  aiDocumentPerUser: { max: 10, minutes: 60 },
  aiDocumentPerAddress: { max: 40, minutes: 60, perAddress: true },
  // Assembling documents (a download, POST /assemble) costs 80–200 ms of CPU each.
  documentsPerUser: { max: 30, minutes: 15 },
  documentsPerAddress: { max: 120, minutes: 15, perAddress: true },
  // "Download my data" reads every interview and file of the person and may assemble several documents.
  myDataPerUser: { max: 5, minutes: 60 },
  myDataPerAddress: { max: 20, minutes: 60, perAddress: true },
  // A helper downloading the files a person shared (app/help/): each opens a sealed file for the helper.
  helpFilesPerUser: { max: 60, minutes: 15 },
  helpFilesPerAddress: { max: 240, minutes: 15, perAddress: true },
  // The organisation's API (app/api/): every request of a token, and the invitations it has the product email.
  apiPerToken: { max: 600, minutes: 1 },
  apiInvitationsPerToken: { max: 100, minutes: 60 },
  // Opening a guide's preview parses and caches the whole guide.
  previewPerUser: { max: 60, minutes: 15 },
  previewPerAddress: { max: 240, minutes: 15, perAddress: true },
  // Signing (app/signing/): opening emailed links to sign, and the signing pages' forms, from one address.
  signLinkPerAddress: { max: 60, minutes: 15, perAddress: true },
  // Signing a document (each makes the document again): per person and per address.
  signingPerUser: { max: 20, minutes: 15 },
  signingPerAddress: { max: 80, minutes: 15, perAddress: true },
} satisfies Record<string, Limit>;

/** The features that cost the server more than a page: each is limited per person and per client address. */
export type CostlyFeature = "documents" | "preview" | "ai-rephrase" | "ai-understand" | "ai-document" | "my-data" | "help-files" | "signing";

const costlyLimits: Record<CostlyFeature, { perUser: Limit; perAddress: Limit }> = {
  documents: { perUser: limits.documentsPerUser, perAddress: limits.documentsPerAddress },
  preview: { perUser: limits.previewPerUser, perAddress: limits.previewPerAddress },
  "ai-rephrase": { perUser: limits.aiRephrasePerUser, perAddress: limits.aiRephrasePerAddress },
  "ai-understand": { perUser: limits.aiUnderstandPerUser, perAddress: limits.aiUnderstandPerAddress },
  "ai-document": { perUser: limits.aiDocumentPerUser, perAddress: limits.aiDocumentPerAddress },
  "my-data": { perUser: limits.myDataPerUser, perAddress: limits.myDataPerAddress },
  "help-files": { perUser: limits.helpFilesPerUser, perAddress: limits.helpFilesPerAddress },
  signing: { perUser: limits.signingPerUser, perAddress: limits.signingPerAddress },
};

export class RateLimitError extends Error {
  override name = "RateLimitError";
  /** The same words as a reference to the catalogue, for a page to show in its language (`t.message`). */
  readonly ref: string;
  constructor(readonly retryAfterMinutes: number) {
    super(`Too many attempts. Please wait ${retryAfterMinutes} ${retryAfterMinutes === 1 ? "minute" : "minutes"} and try again.`);
    this.ref = messageRef("auth.tooManyAttempts", { minutes: retryAfterMinutes });
  }
}

/**
 * Counts one attempt in each bucket and throws a RateLimitError when any is over its limit. Fixed windows:
 * a bucket restarts at 1 when its window has passed. One atomic upsert per bucket.
 */
export async function countAttempt(
  buckets: [string, Limit][],
  db: Db = database(),
  now = new Date(),
  addressFactor = config().RATE_LIMIT_ADDRESS_FACTOR,
): Promise<void> {
  for (const [bucket, limit] of buckets) {
    const max = limit.perAddress ? Math.round(limit.max * addressFactor) : limit.max;
    const windowStart = new Date(now.getTime() - limit.minutes * 60_000).toISOString();
    const stamp = now.toISOString();
    const row = await db
      .insertInto("rate_limits")
      .values({ bucket, window_started_at: stamp, hits: 1 })
      .onConflict((oc) =>
        oc.column("bucket").doUpdateSet({
          hits: sql<number>`case when rate_limits.window_started_at <= ${windowStart} then 1 else rate_limits.hits + 1 end`,
          window_started_at: sql<string>`case when rate_limits.window_started_at <= ${windowStart} then ${stamp} else rate_limits.window_started_at end`,
        }),
      )
      .returning(["hits", "window_started_at"])
      .executeTakeFirstOrThrow();
    if (Number(row.hits) > max) {
      countRateLimitRefusal(bucket);
      const resetsAt = new Date(row.window_started_at).getTime() + limit.minutes * 60_000;
      throw new RateLimitError(Math.max(1, Math.ceil((resetsAt - now.getTime()) / 60_000)));
    }
  }
}

/**
 * Counts one use of a costly feature by a signed-in person and by their client address. Returns the refusal
 * (its message says how long to wait) when either is over its limit, else null.
 */
export async function refuseCostlyUse(feature: CostlyFeature, userId: string, address: string, db: Db = database()): Promise<RateLimitError | null> {
  const { perUser, perAddress } = costlyLimits[feature];
  try {
    await countAttempt([[`${feature}:user:${userId}`, perUser], [`${feature}:address:${address}`, perAddress]], db);
    return null;
  } catch (error) {
    if (error instanceof RateLimitError) return error;
    throw error;
  }
}

/** Forgets the attempts of a bucket (a successful sign-in clears the account's failures). */
export async function clearAttempts(bucket: string, db: Db = database()): Promise<void> {
  await db.deleteFrom("rate_limits").where("bucket", "=", bucket).execute();
}

/** The longest window of any limit: a row older than this no longer counts (countAttempt would restart it). */
const LONGEST_WINDOW_MS = Math.max(...Object.values(limits).map((limit) => limit.minutes)) * 60_000;
/** Housekeeping removes a window this long after the longest window would have ended. */
export const WINDOW_PURGE_MARGIN_MS = 60 * 60_000;

/**
 * Housekeeping: deletes, in batches, the windows that started more than the longest window (60 minutes) plus
 * an hour ago. Whatever its limit, such a window has ended, and countAttempt would start the bucket again at 1,
 * as it does when the row is missing. Returns how many went.
 */
export function purgeOldRateLimitWindows(db: Db, now: Date, batchSize = PURGE_BATCH_SIZE): Promise<number> {
  const startedBy = new Date(now.getTime() - LONGEST_WINDOW_MS - WINDOW_PURGE_MARGIN_MS).toISOString();
  return deleteInBatches(async (limit) => {
    const ended = db.selectFrom("rate_limits").select("bucket").where("window_started_at", "<=", startedBy).limit(limit);
    const result = await db.deleteFrom("rate_limits").where("bucket", "in", ended).executeTakeFirst();
    return result.numDeletedRows;
  }, batchSize);
}
