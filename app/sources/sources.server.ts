// The organisation's sources: added by administrators per country (and optionally per issue), their text split
// into passages and searched in the database itself (docs/decisions/0031-sources-and-search.md).
import { DEFAULT_LANGUAGE } from "~/i18n/languages";
import { PostgresAdapter, sql } from "kysely";
import type { Db } from "../../db/database";
import { availableSearchConfigs, searchConfigExpression } from "../../db/text-search";
import { database } from "~/db.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { attachmentMessages, MAX_ATTACHMENT_BYTES } from "~/interviews/attachments.server";
import { extractDocumentText } from "./extract.server";
import { MAX_PASSAGES_PER_SOURCE, type PassageDraft, splitIntoPassages } from "./passages";
import { sourceMessages } from "./schemas";

export const sourceProblems = {
  noCountry: sourceMessages.country,
  issueNotInCountry: "This issue is not one of the chosen country's issues.",
  noContent: sourceMessages.content,
  tooLong: `This source is too long (more than ${MAX_PASSAGES_PER_SOURCE.toLocaleString("en")} passages): split it into several sources.`,
} as const;

export type SourceField = "title" | "url" | "countryId" | "issueId" | "file" | "markdown" | "language";

export interface SourceDetails {
  countryId: number;
  issueId: number | null;
  title: string;
  url: string;
  /** The language it is written in (a shipped language's tag); the default when not said. */
  language?: string;
}

/** What the source is made of: an uploaded file, or markdown pasted in. */
export type SourceContent = { file: { name: string; type: string; bytes: Uint8Array } } | { markdown: string };

export type AddedSource = { ok: true; id: number; passages: number } | { ok: false; field: SourceField; message: string };

/**
 * What a source's form gave as its text: an uploaded file (refused over the upload limit), pasted markdown, or
 * nothing (null: editing keeps the passages).
 */
export async function submittedContent(value: { file?: File; markdown?: string }): Promise<{ ok: true; content: SourceContent | null } | { ok: false; field: SourceField; message: string }> {
  const { file, markdown } = value;
  if (file && file.size > MAX_ATTACHMENT_BYTES) return { ok: false, field: "file", message: attachmentMessages.tooLarge };
  if (file && file.size > 0) return { ok: true, content: { file: { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) } } };
  return { ok: true, content: markdown?.trim() ? { markdown } : null };
}

/** Its text, extracted and split. Slow for a large file (a worker reads it), so done before the transaction. */
async function passagesOf(content: SourceContent) {
  if ("markdown" in content) {
    const drafts = splitIntoPassages({ text: content.markdown.replace(/\r\n?/g, "\n") });
    return drafts.length
      ? { ok: true as const, drafts, fileName: null, contentType: "text/markdown" }
      : { ok: false as const, field: "markdown" as const, message: sourceProblems.noContent };
  }
  const { name, type, bytes } = content.file;
  // A markdown file's type is often empty or generic: its name says what it is.
  const declared = /\.(md|markdown|txt)$/i.test(name) ? "text/markdown" : type;
  const extracted = await extractDocumentText(bytes, declared);
  if (!extracted.ok) return { ok: false as const, field: "file" as const, message: extracted.message };
  const contentType = {
    markdown: "text/markdown",
    pdf: "application/pdf",
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  }[extracted.kind];
  return { ok: true as const, drafts: splitIntoPassages(extracted), fileName: name.slice(0, 255) || null, contentType };
}

/** The country exists and the issue, if any, is one of its issues. */
async function placeProblem(details: SourceDetails, db: Db): Promise<{ ok: false; field: SourceField; message: string } | null> {
  const country = await db.selectFrom("categories").select("id").where("id", "=", details.countryId).executeTakeFirst();
  if (!country) return { ok: false, field: "countryId", message: sourceProblems.noCountry };
  if (details.issueId !== null) {
    const issue = await db.selectFrom("issues").select("category_id").where("id", "=", details.issueId).executeTakeFirst();
    if (issue?.category_id !== details.countryId) return { ok: false, field: "issueId", message: sourceProblems.issueNotInCountry };
  }
  return null;
}

/** Its text read into passages, and not too many of them. */
async function readPassages(content: SourceContent) {
  const read = await passagesOf(content);
  if (!read.ok) return read;
  if (read.drafts.length > MAX_PASSAGES_PER_SOURCE) return { ok: false as const, field: ("markdown" in content ? "markdown" : "file") as SourceField, message: sourceProblems.tooLong };
  return read;
}

/**
 * Adds a source and its passages, and records it in the audit, all in one transaction. The seed (actor null) is
 * content shipped with the service, not an administrator's action: it is not recorded.
 */
export async function addSource(details: SourceDetails, content: SourceContent, actor: Actor | null, db: Db = database()): Promise<AddedSource> {
  const misplaced = await placeProblem(details, db);
  if (misplaced) return misplaced;
  const read = await readPassages(content);
  if (!read.ok) return read;
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("sources")
      .values({
        country_id: details.countryId,
        issue_id: details.issueId,
        title: details.title,
        url: details.url,
        language: details.language ?? DEFAULT_LANGUAGE,
        file_name: read.fileName,
        content_type: read.contentType,
        created_by: actor?.id ?? null,
        created_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await insertPassages(trx, Number(id), read.drafts, details.language ?? DEFAULT_LANGUAGE);
    if (actor) {
      const recorded = { sourceId: Number(id), countryId: details.countryId, issueId: details.issueId, passages: read.drafts.length };
      await recordAuditEvent(actor, { action: "source.added", subject: details.title, details: recorded }, trx);
    }
    return { ok: true as const, id: Number(id), passages: read.drafts.length };
  });
}

async function insertPassages(db: Db, sourceId: number, drafts: readonly PassageDraft[], language: string) {
  for (let i = 0; i < drafts.length; i += 200) {
    const rows = drafts.slice(i, i + 200).map((draft) => ({ source_id: sourceId, ordinal: draft.ordinal, heading: draft.heading, page: draft.page, text: draft.text, language }));
    await db.insertInto("passages").values(rows).execute();
  }
}

export type ChangedSource = { ok: true; passages: number } | { ok: false; field: SourceField; message: string } | null;

/**
 * Changes a source's title, link, country or issue, and (with `content`) its text, whose passages then replace
 * the old ones (found by search at once); recorded in the audit with what changed, in one transaction. Null when
 * there is no such source.
 */
export async function updateSource(id: number, details: SourceDetails, content: SourceContent | null, actor: Actor, db: Db = database()): Promise<ChangedSource> {
  const before = await db.selectFrom("sources").select(["title", "url", "country_id", "issue_id", "language"]).where("id", "=", id).executeTakeFirst();
  if (!before) return null;
  const misplaced = await placeProblem(details, db);
  if (misplaced) return misplaced;
  const read = content ? await readPassages(content) : null;
  if (read && !read.ok) return read;
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("sources")
      .set({
        title: details.title,
        url: details.url,
        country_id: details.countryId,
        issue_id: details.issueId,
        language: details.language ?? before.language,
        ...(read ? { file_name: read.fileName, content_type: read.contentType } : {}),
      })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    const language = details.language ?? before.language;
    if (read) {
      await trx.deleteFrom("passages").where("source_id", "=", id).execute();
      await insertPassages(trx, id, read.drafts, language);
    } else if (language !== before.language) {
      // Searched from now on with the language's stemming (PostgreSQL makes each passage's vector again).
      await trx.updateTable("passages").set({ language }).where("source_id", "=", id).execute();
    }
    const changed = [
      before.title !== details.title ? "title" : null,
      before.url !== details.url ? "link" : null,
      before.country_id !== details.countryId || before.issue_id !== details.issueId ? "place" : null,
      details.language !== undefined && before.language !== details.language ? "language" : null,
      read ? "text" : null,
    ].filter((what): what is string => what !== null);
    const recorded = { sourceId: id, countryId: details.countryId, issueId: details.issueId, changed, ...(read ? { passages: read.drafts.length } : {}) };
    await recordAuditEvent(actor, { action: "source.changed", subject: details.title, details: recorded }, trx);
    const passages = read
      ? read.drafts.length
      : Number((await trx.selectFrom("passages").select((eb) => eb.fn.countAll<string | number>().as("n")).where("source_id", "=", id).executeTakeFirstOrThrow()).n);
    return { ok: true as const, passages };
  });
}

/** Deletes a source and its passages (gone from search at once); null when there is no such source. */
export async function deleteSource(id: number, actor: Actor, db: Db = database()): Promise<{ title: string } | null> {
  return db.transaction().execute(async (trx) => {
    const source = await trx.selectFrom("sources").select(["id", "title", "country_id", "issue_id"]).where("id", "=", id).executeTakeFirst();
    if (!source) return null;
    await trx.deleteFrom("passages").where("source_id", "=", id).execute();
    await trx.deleteFrom("sources").where("id", "=", id).execute();
    await recordAuditEvent(actor, { action: "source.deleted", subject: source.title, details: { sourceId: id, countryId: source.country_id, issueId: source.issue_id } }, trx);
    return { title: source.title };
  });
}

export interface SourceSummary {
  id: number;
  title: string;
  url: string;
  fileName: string | null;
  countryId: number;
  countryName: string;
  issueId: number | null;
  issueName: string | null;
  passages: number;
  createdAt: string;
  language: string;
}

/** Every source, by country then title, with how many passages each has. */
export async function listSources(db: Db = database()): Promise<SourceSummary[]> {
  const rows = await db
    .selectFrom("sources as s")
    .innerJoin("categories as c", "c.id", "s.country_id")
    .leftJoin("issues as i", "i.id", "s.issue_id")
    .select((eb) => [
      "s.id",
      "s.title",
      "s.url",
      "s.file_name",
      "s.country_id",
      "c.name as country_name",
      "s.issue_id",
      "i.name as issue_name",
      "s.created_at",
      "s.language",
      eb.selectFrom("passages as p").select((inner) => inner.fn.countAll<string | number>().as("n")).whereRef("p.source_id", "=", "s.id").as("passages"),
    ])
    .orderBy("c.sort_order")
    .orderBy("s.title")
    .orderBy("s.id")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    url: row.url,
    fileName: row.file_name,
    countryId: row.country_id,
    countryName: row.country_name,
    issueId: row.issue_id,
    issueName: row.issue_name,
    passages: Number(row.passages ?? 0),
    createdAt: row.created_at,
    language: row.language,
  }));
}

export interface StoredPassage {
  id: number;
  ordinal: number;
  heading: string | null;
  page: number | null;
  text: string;
}

/** A source with its passages in order, or null. */
export async function getSource(id: number, db: Db = database()): Promise<(SourceSummary & { passageList: StoredPassage[] }) | null> {
  const summary = (await listSources(db)).find((source) => source.id === id);
  if (!summary) return null;
  const passages = await db.selectFrom("passages").select(["id", "ordinal", "heading", "page", "text"]).where("source_id", "=", id).orderBy("ordinal").execute();
  return { ...summary, passageList: passages.map((p) => ({ ...p, id: Number(p.id) })) };
}

/** The countries and their issues, for choosing where a source belongs. */
export async function sourcePlaces(db: Db = database()) {
  const countries = await db.selectFrom("categories").select(["id", "name"]).orderBy("sort_order").execute();
  const issues = await db.selectFrom("issues").select(["id", "name", "category_id"]).orderBy("name").execute();
  return countries.map((country) => ({ ...country, issues: issues.filter((issue) => issue.category_id === country.id).map(({ id, name }) => ({ id, name })) }));
}

// ---------------------------------------------------------------------------------------------------------------
// Search

export interface FoundPassage {
  passageId: number;
  sourceId: number;
  sourceTitle: string;
  sourceUrl: string;
  /** The language its source is written in. */
  language: string;
  text: string;
  heading?: string;
  page?: number;
  /** Higher is better; comparable only within one search. */
  rank: number;
}

// Words too common to say what a question is about; left out unless the question has nothing else.
const STOP_WORDS = new Set(
  ("a about after all am an and any are as at be been before but by can could did do does doing for from had has have how i if in into is it its " +
    "just me my no nor not of off on or our out so some than that the their them then there these they this to too up was we were what when where " +
    "which while who why will with would you your yours").split(" "),
);
export const MAX_SEARCH_TERMS = 32;

/**
 * The words of whatever a person typed, as search terms: letters and digits only (so no operator, quote or bracket
 * reaches the search syntax), lower case, each once, common words left out, at most MAX_SEARCH_TERMS.
 */
export function searchTerms(query: string): string[] {
  const words = [...new Set(query.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter(
    (word) => word.length <= 40 && (word.length > 1 || /\d/.test(word)),
  );
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  return (meaningful.length ? meaningful : words).slice(0, MAX_SEARCH_TERMS);
}

export interface SearchRequest {
  countryId: number;
  /** The issue's own sources come with the country's general ones; without an issue, every source of the country. */
  issueId?: number | null;
  query: string;
  limit?: number;
  /** The person's language: passages of sources written in it come first among those that match. */
  language?: string;
}

/** Writing systems that do not put spaces between words: their text is searched by pairs of characters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
const MAX_PAIRS = 24;

/**
 * The pairs of characters of a query in a writing system without spaces ("押金退还" gives 押金, 金退, 退还): the
 * words' tokenisers of both databases (FTS5's unicode61, PostgreSQL's configurations) take such a run for one
 * word, so it is matched by its pairs, each a plain substring.
 */
export function characterPairs(query: string): string[] {
  const pairs = new Set<string>();
  for (const run of query.normalize("NFKC").match(UNSPACED_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) pairs.add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i += 1) pairs.add(chars[i]! + chars[i + 1]!);
  }
  return [...pairs].slice(0, MAX_PAIRS);
}

/** Whether any source serves this issue: one for its country (every issue), or one for the issue itself. */
export async function issueHasSources(issue: { id: number; countryId: number }, db: Db = database()): Promise<boolean> {
  const row = await db
    .selectFrom("sources")
    .select("id")
    .where("country_id", "=", issue.countryId)
    .where((eb) => eb.or([eb("issue_id", "is", null), eb("issue_id", "=", issue.id)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The passages that best match the words of a query, best first, from the sources of one country (those for every
 * issue, and the given issue's). Any words at all: a query with none gives nothing; it never throws on its text.
 * Any passage matching any word is found; the ranking (BM25 on SQLite, ts_rank on PostgreSQL, headings weighing
 * more) puts those with more, and rarer, of the words first.
 */
export async function searchPassages(request: SearchRequest, db: Db = database()): Promise<FoundPassage[]> {
  const limit = Math.min(Math.max(1, Math.floor(request.limit ?? 6)), 50);
  const found = UNSPACED.test(request.query) ? await searchByPairs(request, limit, db) : await searchByWords(request, limit, db);
  if (!request.language) return found;
  // Among the passages found, those in the person's language first (each group in its rank's order).
  const theirs = found.filter((passage) => passage.language === request.language);
  return theirs.length ? [...theirs, ...found.filter((passage) => passage.language !== request.language)] : found;
}

/**
 * A question in Chinese (or another writing system without spaces): the passages holding most of its pairs of
 * characters, those with more of the rarer pairs first. A substring scan of the country's passages, which are
 * the organisation's few hundred, not an index's millions.
 */
async function searchByPairs(request: SearchRequest, limit: number, db: Db): Promise<FoundPassage[]> {
  const pairs = characterPairs(request.query);
  if (!pairs.length) return [];
  let query = db
    .selectFrom("passages as p")
    .innerJoin("sources as s", "s.id", "p.source_id")
    .select(["p.id", "p.source_id", "p.heading", "p.page", "p.text", "p.ordinal", "s.title", "s.url", "s.language"])
    .where("s.country_id", "=", request.countryId)
    .where((eb) => eb.or(pairs.flatMap((pair) => [eb("p.text", "like", `%${pair}%`), eb("p.heading", "like", `%${pair}%`)])));
  const issueId = request.issueId ?? null;
  if (issueId !== null) query = query.where((eb) => eb.or([eb("s.issue_id", "is", null), eb("s.issue_id", "=", issueId)]));
  const rows = await query.limit(500).execute();
  const holding = (row: { text: string; heading: string | null }, pair: string) => row.text.includes(pair) || (row.heading ?? "").includes(pair);
  // A pair found in fewer passages says more about what is asked (as BM25's inverse document frequency).
  const weight = new Map(pairs.map((pair) => [pair, Math.log(1 + rows.length / Math.max(1, rows.filter((row) => holding(row, pair)).length))]));
  return rows
    .map((row) => ({ row, score: pairs.reduce((sum, pair) => sum + (holding(row, pair) ? weight.get(pair)! : 0), 0) }))
    .sort((a, b) => b.score - a.score || Number(a.row.source_id) - Number(b.row.source_id) || Number(a.row.ordinal) - Number(b.row.ordinal))
    .slice(0, limit)
    .map(({ row, score }) => foundPassage(row, score));
}

/** A passage row of either search, as the search returns it. */
function foundPassage(
  row: { id: number; source_id: number; heading: string | null; page: number | null; text: string; title: string; url: string; language: string },
  rank: number,
): FoundPassage {
  return {
    passageId: Number(row.id),
    sourceId: Number(row.source_id),
    sourceTitle: row.title,
    sourceUrl: row.url,
    language: row.language,
    text: row.text,
    ...(row.heading ? { heading: row.heading } : {}),
    ...(row.page ? { page: Number(row.page) } : {}),
    rank,
  };
}

async function searchByWords(request: SearchRequest, limit: number, db: Db): Promise<FoundPassage[]> {
  const terms = searchTerms(request.query);
  if (!terms.length) return [];
  const issueId = request.issueId ?? null;
  const scope =
    issueId === null
      ? sql`s.country_id = ${request.countryId}`
      : sql`s.country_id = ${request.countryId} and (s.issue_id is null or s.issue_id = ${issueId})`;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  type Row = { id: number; source_id: number; heading: string | null; page: number | null; text: string; title: string; url: string; language: string; score: number };
  const { rows } = postgres
    ? await sql<Row>`
        select p.id, p.source_id, p.heading, p.page, p.text, s.title, s.url, s.language, ${await postgresScore(db, terms, scope)} as score
        from passages p
        join sources s on s.id = p.source_id
        where p.search @@ to_tsquery(${searchConfigExpression("p.language", await searchConfigs(db))}, ${terms.join(" | ")}) and ${scope}
        order by score desc, p.source_id, p.ordinal
        limit ${limit}`.execute(db)
    : await sql<Row>`
        select p.id, p.source_id, p.heading, p.page, p.text, s.title, s.url, s.language, -bm25(passages_fts, 2.0, 1.0) as score
        from passages_fts
        join passages p on p.id = passages_fts.rowid
        join sources s on s.id = p.source_id
        where passages_fts match ${terms.map((term) => `"${term}"`).join(" OR ")} and ${scope}
        order by score desc, p.source_id, p.ordinal
        limit ${limit}`.execute(db);
  return rows.map((row) => foundPassage(row, Number(row.score)));
}

const knownConfigs = new WeakMap<object, Promise<[string, string][]>>();

/** The text search configurations this PostgreSQL server has, read once per database handle. */
function searchConfigs(db: Db): Promise<[string, string][]> {
  let known = knownConfigs.get(db);
  if (!known) knownConfigs.set(db, (known = availableSearchConfigs(db)));
  return known;
}

/**
 * PostgreSQL's ts_rank knows nothing of how rare a word is: a passage that repeats a common word ("salary") beats
 * the one with the rare word that matters ("mediation"). Each word's rank is weighed by its inverse document
 * frequency among the passages searched (as BM25 does on SQLite), counted in one query first.
 */
async function postgresScore(db: Db, terms: string[], scope: ReturnType<typeof sql>) {
  // Each passage's words are read with its language's configuration, and the query's with the same.
  const config = searchConfigExpression("p.language", await searchConfigs(db));
  const queries = terms.map((term) => sql`to_tsquery(${config}, ${term})`);
  const counts = await sql<Record<string, string | number>>`
    select count(*) as total, ${sql.join(queries.map((query, i) => sql`count(*) filter (where p.search @@ ${query}) as ${sql.ref(`t${i}`)}`))}
    from passages p join sources s on s.id = p.source_id where ${scope}`.execute(db);
  const row = counts.rows[0] ?? {};
  const total = Number(row.total ?? 0);
  const weighed = queries.map((query, i) => {
    const found = Number(row[`t${i}`] ?? 0);
    const idf = Math.log(1 + (total - found + 0.5) / (found + 0.5));
    return sql`${sql.lit(Number(idf.toFixed(6)))} * ts_rank(p.search, ${query}, 1)`;
  });
  return sql`(${sql.join(weighed, sql` + `)})`;
}
