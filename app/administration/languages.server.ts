// Which languages the organisation offers people (docs/decisions/0043-languages.md). English, the default, is
// always offered; a drafted catalogue only when an administrator turns it on. Every change is audited.
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { catalogues, viewerCatalogues } from "~/i18n/translator";
import { viewerOnlyLanguages } from "~/i18n/viewer-languages";
import { DEFAULT_LANGUAGE, findLanguage, languages } from "~/i18n/languages";
import { forgetOfferedLanguages, offeredLanguages } from "~/i18n/offered.server";

export interface LanguageRow {
  code: string;
  name: string;
  englishName: string;
  review: "reviewed" | "drafted";
  /** Messages in its catalogue (the same for every language: CI checks). */
  messages: number;
  offered: boolean;
  isDefault: boolean;
}

export async function listLanguages(db: Db = database()): Promise<LanguageRow[]> {
  const offered = new Set(await offeredLanguages(db, { fresh: true }));
  return languages.map((language) => ({
    code: language.code,
    name: language.name,
    englishName: language.englishName,
    review: language.review,
    messages: Object.keys(catalogues[language.code]).length,
    offered: offered.has(language.code),
    isDefault: language.code === DEFAULT_LANGUAGE,
  }));
}

/** The languages only the interview viewer speaks, with how many of its messages each has and their review. */
export function listViewerOnlyLanguages(): (Omit<LanguageRow, "offered" | "isDefault"> & { dir: "ltr" | "rtl" })[] {
  return viewerOnlyLanguages.map((language) => ({
    code: language.code,
    name: language.name,
    englishName: language.englishName,
    dir: language.dir,
    review: language.review,
    messages: Object.keys(viewerCatalogues[language.code]).length,
  }));
}

/** Offers exactly these shipped languages (the default always), in the catalogue's order; audited. */
export async function setOfferedLanguages(codes: readonly string[], actor: Actor, db: Db = database()): Promise<string[]> {
  const chosen = new Set([DEFAULT_LANGUAGE, ...codes.map((code) => findLanguage(code)?.code).filter((code): code is NonNullable<typeof code> => Boolean(code))]);
  const offered = languages.map((language) => language.code as string).filter((code) => chosen.has(code));
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("site_settings").select("value").where("key", "=", "languages").executeTakeFirst();
    const value = JSON.stringify(offered);
    await trx
      .insertInto("site_settings")
      .values({ key: "languages", value, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: new Date().toISOString() }))
      .execute();
    await recordAuditEvent(actor, { action: "languages.changed", subject: offered.join(", "), details: { before: before ? JSON.parse(before.value) : null, after: offered } }, trx);
  });
  forgetOfferedLanguages();
  return offered;
}
