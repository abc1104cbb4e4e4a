// The interface words an administrator has corrected per language (content kind "strings", published in
// content_translations), handed to the translators (app/i18n/translator.ts). Read at most every few seconds, as
// the offered languages are: every page needs them, and instances sharing a database see a change soon.
import { database } from "~/db.server";
import { publishedStrings } from "../../db/content-versions";
import type { Db } from "../../db/database";
import { setInterfaceOverrides } from "./translator";

const CACHE_MS = 5_000;
let checkedAt = 0;
let applied = "";

/** Brings the translators' corrections up to date with what is published, when they were read over 5 s ago. */
export async function refreshInterfaceOverrides(db: Db = database(), now = Date.now()): Promise<void> {
  if (now - checkedAt < CACHE_MS) return;
  checkedAt = now;
  const published = await publishedStrings(db);
  const signature = JSON.stringify([...published].sort(([a], [b]) => (a < b ? -1 : 1)));
  // The translators keep their compiled messages until the corrections change.
  if (signature === applied) return;
  applied = signature;
  setInterfaceOverrides(published);
}

/** The next request reads the corrections again (after this instance published some). */
export function forgetInterfaceOverrides(): void {
  checkedAt = 0;
}
