import { createHmac } from "node:crypto";
import { config } from "~/config.server";

/**
 * What `interviews.last_page` holds for a page: a keyed hash of its name, not the name. The page an interview is
 * at says which way its answers went (decision 0019 seals the page history for that reason), so it is not kept
 * readable beside the person's id; with the key, the usage page turns the hashes back into the guide's page names
 * by hashing those (docs/decisions/0030-usage-counts.md). Deterministic, so the database can count them.
 */
export function pageToken(page: string): string {
  return createHmac("sha256", config().SESSION_SECRET).update(`usage-page:${page}`).digest("base64url").slice(0, 22);
}
