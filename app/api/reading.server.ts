// What the API reads that no other capability lists page by page: issues and guides, in the order of their ids,
// after a cursor. The cursor is opaque to clients: base64url JSON of the last item's position.
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { ApiProblem } from "./endpoint.server";

export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/** The position a cursor holds, checked by `valid`; a cursor that is not one of ours is a 400 naming it. */
export function decodeCursor<T>(cursor: string | undefined, valid: (value: unknown) => value is T): T | null {
  if (cursor === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  if (!valid(value)) throw new ApiProblem(400, "Bad Request", "The cursor is not one this API gave.", [{ parameter: "cursor", detail: "Pass back a nextCursor as it was given." }]);
  return value;
}

export const isIdCursor = (value: unknown): value is { id: number } =>
  typeof value === "object" && value !== null && Number.isSafeInteger((value as { id?: unknown }).id);
export const isNameCursor = (value: unknown): value is { id: string } =>
  typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string" && (value as { id: string }).id.length <= 100;
export const isShareCursor = (value: unknown): value is { createdAt: string; id: string } =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { createdAt?: unknown }).createdAt === "string" &&
  typeof (value as { id?: unknown }).id === "string" &&
  (value as { id: string }).id.length <= 100;

function issuesQuery(db: Db) {
  return db
    .selectFrom("issues")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .select(["issues.id", "issues.name", "issues.guide_id", "issues.sensitive", "issues.content", "categories.id as country_id", "categories.name as country_name"]);
}

type IssueRow = Awaited<ReturnType<ReturnType<typeof issuesQuery>["executeTakeFirstOrThrow"]>>;

function issueOf(row: IssueRow, base: string) {
  return {
    id: row.id,
    name: row.name,
    country: { id: row.country_id, name: row.country_name },
    guideId: row.guide_id,
    sensitive: row.sensitive === 1,
    links: { self: `${base}/issues/${row.id}` },
  };
}

/** One page of the published issues, by id. */
export async function issuesPage(page: { limit: number; afterId: number | null }, base: string, db: Db = database()) {
  let query = issuesQuery(db);
  if (page.afterId !== null) query = query.where("issues.id", ">", page.afterId);
  const rows = await query.orderBy("issues.id").limit(page.limit).execute();
  return rows.map((row) => issueOf(row, base));
}

export async function readIssue(id: number, base: string, db: Db = database()) {
  const row = await issuesQuery(db).where("issues.id", "=", id).executeTakeFirst();
  return row ? { ...issueOf(row, base), content: row.content } : null;
}

function guidesQuery(db: Db) {
  return db.selectFrom("guides").select(["id", "title", "language", "published_version", "translation_of"]);
}

function guideOf(row: Awaited<ReturnType<ReturnType<typeof guidesQuery>["executeTakeFirstOrThrow"]>>, base: string) {
  return {
    id: row.id,
    title: row.title,
    language: row.language,
    publishedVersion: row.published_version,
    translationOf: row.translation_of,
    links: { self: `${base}/guides/${encodeURIComponent(row.id)}` },
  };
}

/** One page of the stored guides, by id. */
export async function guidesPage(page: { limit: number; afterId: string | null }, base: string, db: Db = database()) {
  let query = guidesQuery(db);
  if (page.afterId !== null) query = query.where("id", ">", page.afterId);
  const rows = await query.orderBy("id").limit(page.limit).execute();
  return rows.map((row) => guideOf(row, base));
}

export async function readGuideSummary(id: string, base: string, db: Db = database()) {
  const [row, issues] = await Promise.all([
    guidesQuery(db).where("id", "=", id).executeTakeFirst(),
    db.selectFrom("issues").select("id").where("guide_id", "=", id).orderBy("id").execute(),
  ]);
  return row ? { ...guideOf(row, base), issueIds: issues.map((issue) => issue.id) } : null;
}

/** The next page's cursor: the last item's position when the page is full, else none. */
export function nextCursor<T>(items: T[], limit: number, position: (last: T) => unknown): string | null {
  const last = items[items.length - 1];
  return items.length === limit && last !== undefined ? encodeCursor(position(last)) : null;
}
