import { database } from "~/db.server";
import type { Db } from "../../db/database";
import { DEFAULT_LANGUAGE, findLanguage, languages } from "./languages";

/**
 * What an organisation that chose nothing offers: the reviewed languages. A drafted one is offered only when the
 * organisation turns it on (the demo content turns every shipped language on: db/seed/settings.json).
 */
export const reviewedLanguages = languages.filter((language) => language.review === "reviewed").map((language) => language.code as string);

/** The tags in a setting's value that are shipped languages, in its order, the default first, each once. */
export function readOfferedSetting(value: string | null | undefined): string[] {
  let list: unknown = null;
  try {
    list = value ? JSON.parse(value) : null;
  } catch {
    list = null;
  }
  const codes = Array.isArray(list) ? list.map((code) => findLanguage(String(code))?.code).filter((code): code is NonNullable<typeof code> => Boolean(code)) : [];
  const chosen = codes.length ? codes : reviewedLanguages;
  return [...new Set([DEFAULT_LANGUAGE, ...chosen])];
}

// Read at most every few seconds: every page needs it, and instances sharing one database see a change soon.
const CACHE_MS = 5_000;
let cached: { at: number; codes: string[] } | null = null;

/** The languages the organisation offers people, the default first. */
export async function offeredLanguages(db: Db = database(), { fresh = false } = {}): Promise<string[]> {
  const now = Date.now();
  if (!fresh && cached && now - cached.at < CACHE_MS) return cached.codes;
  const row = await db.selectFrom("site_settings").select("value").where("key", "=", "languages").executeTakeFirst();
  cached = { at: now, codes: readOfferedSetting(row?.value) };
  return cached.codes;
}

/** Forgets the cached list (after an administrator changes it, and in tests). */
export function forgetOfferedLanguages(): void {
  cached = null;
}
