import { type DateLocale, dateLocale } from "~/a2j";
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { type Actor, commandLineActor } from "~/audit/audit.server";
import { liveBody } from "../../db/content-versions";
import { saveContent } from "./versions.server";
import { logger } from "~/observability/log.server";

const log = logger("content");

export interface HomeContent {
  headline: string;
  subHeadline: string;
  bodyCopy: string;
}

export interface CountrySummary {
  id: number;
  name: string;
  order: number;
  issues: { id: number; name: string }[];
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

export interface LegalDocument {
  name: string;
  content: string;
}

export type LegalDocumentSlug = "terms" | "privacy" | "about";

export async function getHomeContent(db: Db = database()): Promise<HomeContent | null> {
  const row = await db
    .selectFrom("home_content")
    .select(["headline", "sub_headline", "body_copy"])
    .orderBy("id")
    .executeTakeFirst();
  return row ? { headline: row.headline, subHeadline: row.sub_headline, bodyCopy: row.body_copy } : null;
}

/** Countries sorted by their order field (then name), each with its issues in name order. */
export async function listCountries(db: Db = database()): Promise<CountrySummary[]> {
  const [categories, issues] = await Promise.all([
    db.selectFrom("categories").select(["id", "name", "sort_order"]).orderBy("sort_order").orderBy("name").execute(),
    db.selectFrom("issues").select(["id", "name", "category_id"]).orderBy("name").orderBy("id").execute(),
  ]);
  return categories.map((category) => ({
    id: category.id,
    name: category.name,
    order: category.sort_order,
    issues: issues.filter((issue) => issue.category_id === category.id).map(({ id, name }) => ({ id, name })),
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
    ]);
}

type IssueRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectIssue>["executeTakeFirst"]>>>;

export function issueFromRow(row: IssueRow): Issue {
  return {
    id: row.id,
    name: row.name,
    content: row.content,
    country: { id: row.country_id, name: row.country_name, dates: dateLocale(row.country_date_order, row.country_date_style) },
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

export async function getLegalDocument(slug: LegalDocumentSlug, db: Db = database()): Promise<LegalDocument | null> {
  const row = await db
    .selectFrom("legal_documents")
    .select(["name", "content"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ?? null;
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
