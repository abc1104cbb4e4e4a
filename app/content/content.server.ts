import { type DateLocale, dateLocale } from "~/a2j";
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { type Actor, commandLineActor } from "~/audit/audit.server";
import { type ItemKind, itemId, liveBody, publishedTranslations } from "../../db/content-versions";
import { DEFAULT_LANGUAGE } from "~/i18n/languages";
import { saveContent } from "./versions.server";
import { logger } from "~/observability/log.server";
import { markdownToHtml } from "~/ui/markdown.server";

const log = logger("content");

/**
 * The language each text of an item is shown in: the person's where the organisation has published it in
 * theirs, else the default language (a page then says so, and marks the text with its `lang`).
 */
export type WrittenIn<F extends string> = { lang: Record<F, string> };

export interface HomeContent extends WrittenIn<"headline" | "subHeadline" | "bodyCopy"> {
  headline: string;
  subHeadline: string;
  bodyCopy: string;
}

export interface CountrySummary extends WrittenIn<"name"> {
  id: number;
  name: string;
  order: number;
  issues: ({ id: number; name: string } & WrittenIn<"name">)[];
}

export interface Issue {
  id: number;
  name: string;
  content: string;
  /** `dates`: how the country writes dates for people (the interview's and the document's). */
  country: { id: number; name: string; dates: DateLocale };
  guideId: string | null;
  guidePath: string | null;
  modelAI: string;
  rephraseContent: string;
  /** Lower-cased names of the variables whose long-text questions offer "Rephrase with AI". */
  rephraseVariables: string[];
  /** People may not want it seen on their screen: its page offers a quick exit (docs/decisions/0028). */
  sensitive: boolean;
}

export interface LegalDocument extends WrittenIn<"name" | "content"> {
  name: string;
  content: string;
}

export type LegalDocumentSlug = "terms" | "privacy" | "about";

/**
 * An item's texts in a language: each field the organisation published in it replaces the default language's,
 * and `lang` says which language each field is in.
 */
function inLanguage<T extends object, F extends keyof T & string>(item: T, fields: readonly F[], translated: Record<string, string> | undefined, language: string): T & WrittenIn<F> {
  const texts: Partial<Record<F, string>> = {};
  const lang = {} as Record<F, string>;
  for (const field of fields) {
    const text = translated?.[field];
    if (text) texts[field] = text;
    lang[field] = text ? language : DEFAULT_LANGUAGE;
  }
  return { ...item, ...texts, lang };
}

/** The published translations in a language of items of those kinds (none to read in the default language). */
function translationsIn(language: string, kinds: readonly ItemKind[], db: Db): Promise<Map<string, Record<string, string>>> {
  return language === DEFAULT_LANGUAGE ? Promise.resolve(new Map()) : publishedTranslations(db, language, kinds);
}

export async function getHomeContent(db: Db = database(), language: string = DEFAULT_LANGUAGE): Promise<HomeContent | null> {
  const [row, translated] = await Promise.all([
    db.selectFrom("home_content").select(["headline", "sub_headline", "body_copy"]).orderBy("id").executeTakeFirst(),
    translationsIn(language, ["home"], db),
  ]);
  if (!row) return null;
  const home = { headline: row.headline, subHeadline: row.sub_headline, bodyCopy: row.body_copy };
  return inLanguage(home, ["headline", "subHeadline", "bodyCopy"], translated.get(itemId("home", "home")), language);
}

/** Countries sorted by their order field (then name), each with its issues in name order (names in `language`). */
export async function listCountries(db: Db = database(), language: string = DEFAULT_LANGUAGE): Promise<CountrySummary[]> {
  const [categories, issues, translated] = await Promise.all([
    db.selectFrom("categories").select(["id", "name", "sort_order"]).orderBy("sort_order").orderBy("name").execute(),
    db.selectFrom("issues").select(["id", "name", "category_id"]).orderBy("name").orderBy("id").execute(),
    translationsIn(language, ["country", "issue"], db),
  ]);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, language);
  return categories.map((category) => ({
    ...inLanguage({ id: category.id, name: category.name, order: category.sort_order }, ["name"], translated.get(itemId("country", String(category.id))), language),
    issues: issues
      .filter((issue) => issue.category_id === category.id)
      .map(({ id, name }) => inLanguage({ id, name }, ["name"], translated.get(itemId("issue", String(id))), language))
      .sort(language === DEFAULT_LANGUAGE ? () => 0 : byName),
  }));
}

/** The query that reads an issue with its country; others may join more to it (the viewer does). */
export function selectIssue(db: Db = database()) {
  return db
    .selectFrom("issues")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .select([
      "issues.id",
      "issues.name",
      "issues.content",
      "issues.guide_id",
      "issues.guide_path",
      "issues.model_ai",
      "issues.rephrase_content",
      "issues.rephrase_variables",
      "issues.sensitive",
      "categories.id as country_id",
      "categories.name as country_name",
      "categories.date_order as country_date_order",
      "categories.date_style as country_date_style",
      "categories.date_digits as country_date_digits",
    ]);
}

type IssueRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectIssue>["executeTakeFirst"]>>>;

export function issueFromRow(row: IssueRow): Issue {
  return {
    id: row.id,
    name: row.name,
    content: row.content,
    country: { id: row.country_id, name: row.country_name, dates: dateLocale(row.country_date_order, row.country_date_style, row.country_date_digits) },
    guideId: row.guide_id,
    guidePath: row.guide_path,
    modelAI: row.model_ai,
    rephraseContent: row.rephrase_content,
    rephraseVariables: parseNameList(row.rephrase_variables),
    sensitive: Number(row.sensitive) === 1,
  };
}

export async function getIssue(id: number, db: Db = database()): Promise<Issue | null> {
  const row = await selectIssue(db).where("issues.id", "=", id).executeTakeFirst();
  return row ? issueFromRow(row) : null;
}

/** An issue with its name, description and country's name in a language (as published in it, else the default's). */
export async function issueInLanguage(issue: Issue, language: string, db: Db = database()): Promise<Issue & WrittenIn<"name" | "content"> & { country: WrittenIn<"name"> }> {
  const translated = await translationsIn(language, ["country", "issue"], db);
  return {
    ...inLanguage(issue, ["name", "content"], translated.get(itemId("issue", String(issue.id))), language),
    country: inLanguage(issue.country, ["name"], translated.get(itemId("country", String(issue.country.id))), language),
  };
}

export async function getLegalDocument(slug: LegalDocumentSlug, db: Db = database(), language: string = DEFAULT_LANGUAGE): Promise<LegalDocument | null> {
  const [row, translated] = await Promise.all([
    db.selectFrom("legal_documents").select(["name", "content"]).where("slug", "=", slug).executeTakeFirst(),
    translationsIn(language, ["legal"], db),
  ]);
  return row ? inLanguage({ name: row.name, content: row.content }, ["name", "content"], translated.get(itemId("legal", slug)), language) : null;
}

/** About, terms or privacy as its public page shows it, in a language: null when it cannot be read. */
export async function legalDocumentPage(slug: LegalDocumentSlug, language: string) {
  const document = await readOrEmpty(`the ${slug} document`, () => getLegalDocument(slug, undefined, language), null);
  return document ? { name: document.name, html: markdownToHtml(document.content), lang: document.lang } : null;
}

/**
 * Public content reads that fail leave the page with empty content instead of an error page;
 * the failure is logged for the operator.
 */
export async function readOrEmpty<T>(what: string, read: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    log.error(`reading ${what} failed`, { err: error });
    return empty;
  }
}

function parseNameList(json: string): string[] {
  try {
    const names: unknown = JSON.parse(json);
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string").map((n) => n.trim().toLowerCase()) : [];
  } catch {
    return [];
  }
}

/**
 * Makes an issue run a stored guide; false when there is no such issue (or guide). A new published version of
 * the issue, by the command line unless another actor is given, so its history stays true.
 */
export async function attachGuideToIssue(issueId: number, guideId: string, db: Db = database(), actor: Actor = commandLineActor): Promise<boolean> {
  const issue = await liveBody(db, "issue", String(issueId));
  if (!issue) return false;
  const saved = await saveContent("issue", String(issueId), { ...issue, guideId, guidePath: `${guideId}/Guide.json` }, "published", actor, db);
  return saved.ok;
}

/**
 * The issue stops running `guideId` (a new published version of the issue, without a guide). False when the issue
 * does not exist or runs another guide. Interviews already started keep the guide version they started on.
 */
export async function detachGuideFromIssue(issueId: number, guideId: string, db: Db, actor: Actor): Promise<boolean> {
  const issue = await liveBody(db, "issue", String(issueId));
  if (!issue || issue.guideId !== guideId) return false;
  const saved = await saveContent("issue", String(issueId), { ...issue, guideId: null, guidePath: null }, "published", actor, db);
  return saved.ok;
}
