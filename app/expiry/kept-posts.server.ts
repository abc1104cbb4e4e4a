import type { Db } from "../../db/database";
import { hashToken, randomToken } from "~/auth/crypto.server";
import { database } from "~/db.server";
import { DataDecryptionError, openText, sealText } from "~/security/data-encryption.server";

/**
 * Forms posted after the person's session expired, kept so that nothing they typed is lost
 * (docs/decisions/0051-session-expiry-loses-nothing.md). A kept form is sealed like the answers, bound to the
 * account whose session expired, to what it was for and to the page it was posted to, and lives one hour. The
 * browser holds only a random id (in the return address of the sign-in); the form is given back once, to that
 * account signed in again, on that page.
 */

/** How long a kept form waits for its person to sign in again. */
export const KEPT_POST_MS = 60 * 60_000;
/** What may be kept of a form: its text fields, up to this many characters in all (a page of answers is far less). */
export const KEPT_POST_MAX_CHARS = 200_000;

export type KeptPurpose = "interview" | "rephrase" | "understand";

export interface KeptPostPlace {
  /** The account whose session expired (the expired session's user). */
  userId: string;
  purpose: KeptPurpose;
  /** The page the form was posted to, a path with its query: it is given back only there. */
  path: string;
  /** The interview it belongs to, when there is one already. */
  interviewId: string | null;
}

/** The form's text fields, in order (files are not kept: an upload is chosen again). */
export type KeptFields = [string, string][];

const where = (idHash: string, place: KeptPostPlace) => `kept_posts.form:${idHash}:${place.userId}:${place.purpose}:${place.path}`;

/** The text fields of a posted form, or null when there is too much to keep. */
export function keptFields(form: FormData): KeptFields | null {
  const fields: KeptFields = [];
  let size = 0;
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") continue;
    size += name.length + value.length;
    if (size > KEPT_POST_MAX_CHARS) return null;
    fields.push([name, value]);
  }
  return fields;
}

/** The kept fields as a form again. */
export function formOf(fields: KeptFields): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

/**
 * Keeps a form for its account: returns the id to hand the browser (random, 32 bytes; only its hash is stored),
 * or null when the form is too big to keep, or names an interview that is not the account's. Forms kept before and
 * now past their hour are removed on the way.
 */
export async function keepPost(place: KeptPostPlace, form: FormData, db: Db = database(), now = new Date()): Promise<string | null> {
  const fields = keptFields(form);
  if (!fields) return null;
  if (place.interviewId !== null) {
    const theirs = await db.selectFrom("interviews").select("id").where("id", "=", place.interviewId).where("user_id", "=", place.userId).executeTakeFirst();
    if (!theirs) return null;
  }
  const id = randomToken();
  const idHash = hashToken(id);
  await db.deleteFrom("kept_posts").where("expires_at", "<=", now.toISOString()).execute();
  await db
    .insertInto("kept_posts")
    .values({
      id_hash: idHash,
      user_id: place.userId,
      purpose: place.purpose,
      path: place.path,
      interview_id: place.interviewId,
      form: sealText(JSON.stringify(fields), where(idHash, place)),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + KEPT_POST_MS).toISOString(),
    })
    .execute();
  return id;
}

/**
 * The form kept under `id` for this account, for this purpose and page, once: it is removed as it is read
 * (a second read finds nothing). Null when there is none, it is another account's, another page's, or past
 * its hour (such a form stays for its own person until its hour is up, then goes).
 */
export async function takeKeptPost(
  id: string,
  place: Omit<KeptPostPlace, "interviewId">,
  db: Db = database(),
  now = new Date(),
): Promise<{ fields: KeptFields; interviewId: string | null } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(id)) return null;
  const idHash = hashToken(id);
  const row = await db
    .deleteFrom("kept_posts")
    .where("id_hash", "=", idHash)
    .where("user_id", "=", place.userId)
    .where("purpose", "=", place.purpose)
    .where("path", "=", place.path)
    .returning(["form", "interview_id", "expires_at"])
    .executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return null;
  try {
    const fields: unknown = JSON.parse(openText(row.form, where(idHash, { ...place, interviewId: row.interview_id })));
    if (!Array.isArray(fields) || !fields.every((f) => Array.isArray(f) && f.length === 2 && f.every((v) => typeof v === "string"))) return null;
    return { fields: fields as KeptFields, interviewId: row.interview_id };
  } catch (error) {
    if (error instanceof DataDecryptionError) return null;
    throw error;
  }
}

/** Housekeeping: removes the kept forms past their hour. Returns how many went. */
export async function purgeKeptPosts(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("kept_posts").where("expires_at", "<=", now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
