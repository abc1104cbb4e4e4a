import { createHmac } from "node:crypto";
import type { Db } from "../../db/database";
import { applicationKey, rememberedApplicationKey } from "~/security/application-keys.server";

/**
 * What `interviews.last_page` holds for a page: a keyed hash of its name, not the name. The page an interview is
 * at says which way its answers went (decision 0019 seals the page history for that reason), so it is not kept
 * readable beside the person's id; with the key, the usage page turns the hashes back into the guide's page names
 * by hashing those (docs/decisions/0030-usage-counts.md). Deterministic, so the database can count them.
 */
export function pageToken(page: string, key: Buffer): string {
  return createHmac("sha256", key).update(`usage-page:${page}`).digest("base64url").slice(0, 22);
}

/**
 * The key of the page tokens: the application's own "usage-pages" key, which no rotation changes, so tokens
 * written before and after a rotation still count together (docs/decisions/0033-secrets-and-rotation.md).
 */
export function pageTokenKey(db: Db): Promise<Buffer> {
  return applicationKey(db, "usage-pages");
}

/** The same key when this database handle has read it already (every save after the first): no await. */
export function knownPageTokenKey(db: Db): Buffer | undefined {
  return rememberedApplicationKey(db, "usage-pages");
}
