// The versions of editable content, of every kind, in one table (content_versions, migration 0011). The public
// tables (categories, issues, home_content, legal_documents) keep holding what is published; this module is
// the one place that knows how each kind's editable fields map onto its public row, so the seed
// (db/seed.ts) and the administration (app/content/versions.server.ts) write both the same way.
// docs/decisions/0028-content-versions.md.
import type { Db } from "./database";
import type { ContentVersionSource, ContentVersionStatus } from "./schema";

export type DateOrder = "DMY" | "MDY";
export type DateStyle = "long" | "numeric";
/** Dates in a language with digits of its own (Arabic): "latin" 0123, or "native" ٠١٢٣. */
export type DateDigits = "latin" | "native";

export interface CountryBody {
  name: string;
  order: number;
  dateOrder: DateOrder;
  dateStyle: DateStyle;
  dateDigits: DateDigits;
}

export interface IssueBody {
  name: string;
  countryId: number;
  /** Markdown (raw HTML allowed, sanitised when shown). */
  content: string;
  guideId: string | null;
  guidePath: string | null;
  modelAI: string;
  rephraseContent: string;
  rephraseVariables: string[];
  sensitive: boolean;
}

export interface HomeBody {
  headline: string;
  subHeadline: string;
  /** Markdown. */
  bodyCopy: string;
}

export interface LegalBody {
  name: string;
  /** Markdown. */
  content: string;
}

/**
 * An item's fields written in a language other than the default (its key: "issue/3/fr"). Only the fields
 * written are kept: a field left empty shows the default language's text.
 */
export interface TranslationBody {
  fields: Record<string, string>;
}

/** An administrator's corrections to the interface's own words in a language (its key: the language). */
export interface StringsBody {
  messages: Record<string, string>;
}

export interface ContentBodies {
  country: CountryBody;
  issue: IssueBody;
  home: HomeBody;
  legal: LegalBody;
  translation: TranslationBody;
  strings: StringsBody;
}

export type ContentKind = keyof ContentBodies;
/** The organisation's items, each edited with its own form; translations and strings are about them. */
export type ItemKind = "country" | "issue" | "home" | "legal";

/** The fields of each kind of item that are written in a language (a country's order, an issue's guide are not). */
export const translatedFields = {
  country: ["name"],
  issue: ["name", "content"],
  home: ["headline", "subHeadline", "bodyCopy"],
  legal: ["name", "content"],
} as const satisfies { [K in ItemKind]: readonly (keyof ContentBodies[K] & string)[] };

/** A translation's key in the version table: "issue/3/fr". */
export function translationKey(kind: ItemKind, key: string, language: string): string {
  return `${kind}/${key}/${language}`;
}

export function parseTranslationKey(key: string): { kind: ItemKind; key: string; language: string } | null {
  const [kind, itemKey, language, extra] = key.split("/");
  if (extra !== undefined || !itemKey || !language || !(kind === "country" || kind === "issue" || kind === "home" || kind === "legal")) return null;
  return { kind, key: itemKey, language };
}

/** The entries of a record whose values are not empty, sorted by key (so equal content is equal JSON). */
function writtenEntries(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record)
      .filter(([, value]) => typeof value === "string" && value.trim() !== "")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** The home page is one row; its key in the version table. */
export const HOME_KEY = "home";
export const legalSlugs = ["about", "terms", "privacy"] as const;

export interface ContentVersion<K extends ContentKind = ContentKind> {
  kind: K;
  key: string;
  version: number;
  status: ContentVersionStatus;
  source: ContentVersionSource;
  body: ContentBodies[K];
  authorId: string | null;
  authorEmail: string;
  createdAt: string;
  /** A draft published as it was saved (migration 0019): when and by whom; null otherwise. */
  published: { at: string; byEmail: string } | null;
}

/** Who made a version, as the table records it. */
export interface VersionAuthor {
  source: ContentVersionSource;
  id: string | null;
  email: string;
}

/** The author of the versions the seed files make, and of the first version of content older than versions. */
export const seedAuthor: VersionAuthor = { source: "seed", id: null, email: "seed files" };

/** A body with its fields in one order (so equal content is equal JSON) and nothing else. */
export function normalBody<K extends ContentKind>(kind: K, body: ContentBodies[K]): ContentBodies[K] {
  switch (kind) {
    case "country": {
      const b = body as CountryBody;
      // A version saved before migration 0025 has no digits: Latin, as dates were then.
      return { name: b.name, order: b.order, dateOrder: b.dateOrder, dateStyle: b.dateStyle, dateDigits: b.dateDigits === "native" ? "native" : "latin" } satisfies CountryBody as ContentBodies[K];
    }
    case "issue": {
      const b = body as IssueBody;
      return {
        name: b.name,
        countryId: b.countryId,
        content: b.content,
        guideId: b.guideId,
        guidePath: b.guidePath,
        modelAI: b.modelAI,
        rephraseContent: b.rephraseContent,
        rephraseVariables: [...b.rephraseVariables],
        sensitive: Boolean(b.sensitive),
      } satisfies IssueBody as ContentBodies[K];
    }
    case "home": {
      const b = body as HomeBody;
      return { headline: b.headline, subHeadline: b.subHeadline, bodyCopy: b.bodyCopy } satisfies HomeBody as ContentBodies[K];
    }
    case "translation":
      return { fields: writtenEntries((body as TranslationBody).fields) } satisfies TranslationBody as ContentBodies[K];
    case "strings":
      return { messages: writtenEntries((body as StringsBody).messages) } satisfies StringsBody as ContentBodies[K];
    default: {
      const b = body as LegalBody;
      return { name: b.name, content: b.content } satisfies LegalBody as ContentBodies[K];
    }
  }
}

export function sameBody<K extends ContentKind>(kind: K, a: ContentBodies[K], b: ContentBodies[K]): boolean {
  return JSON.stringify(normalBody(kind, a)) === JSON.stringify(normalBody(kind, b));
}

function parseList(json: string): string[] {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((n): n is string => typeof n === "string") : [];
  } catch {
    return [];
  }
}

/** What the public table holds for an item now (its published content), or null when it has no row. */
export async function liveBody<K extends ContentKind>(db: Db, kind: K, key: string): Promise<ContentBodies[K] | null> {
  switch (kind) {
    case "country": {
      const row = await db.selectFrom("categories").selectAll().where("id", "=", Number(key)).executeTakeFirst();
      if (!row) return null;
      const dateDigits: DateDigits = row.date_digits === "native" ? "native" : "latin";
      return { name: row.name, order: row.sort_order, dateOrder: row.date_order as DateOrder, dateStyle: row.date_style as DateStyle, dateDigits } satisfies CountryBody as ContentBodies[K];
    }
    case "issue": {
      const row = await db.selectFrom("issues").selectAll().where("id", "=", Number(key)).executeTakeFirst();
      if (!row) return null;
      return {
        name: row.name,
        countryId: row.category_id,
        content: row.content,
        guideId: row.guide_id,
        guidePath: row.guide_path,
        modelAI: row.model_ai,
        rephraseContent: row.rephrase_content,
        rephraseVariables: parseList(row.rephrase_variables),
        sensitive: Number(row.sensitive) === 1,
      } satisfies IssueBody as ContentBodies[K];
    }
    case "home": {
      const row = await db.selectFrom("home_content").selectAll().where("id", "=", 1).executeTakeFirst();
      if (!row) return null;
      return { headline: row.headline, subHeadline: row.sub_headline, bodyCopy: row.body_copy } satisfies HomeBody as ContentBodies[K];
    }
    case "translation":
    case "strings": {
      const place = livePlace(kind, key);
      if (!place) return null;
      const row = await db
        .selectFrom("content_translations")
        .select("body")
        .where("kind", "=", place.kind)
        .where("item_key", "=", place.key)
        .where("language", "=", place.language)
        .executeTakeFirst();
      return row ? (JSON.parse(row.body) as ContentBodies[K]) : null;
    }
    default: {
      const row = await db.selectFrom("legal_documents").selectAll().where("slug", "=", key).executeTakeFirst();
      if (!row) return null;
      return { name: row.name, content: row.content } satisfies LegalBody as ContentBodies[K];
    }
  }
}

/** Where a translation or the strings of a language are published in content_translations. */
function livePlace(kind: "translation" | "strings", key: string): { kind: string; key: string; language: string } | null {
  if (kind === "strings") return { kind: "strings", key: "", language: key };
  return parseTranslationKey(key);
}

/** Makes a body the published content: the public row is written (inserted or updated). */
export async function writeLive<K extends ContentKind>(db: Db, kind: K, key: string, body: ContentBodies[K]): Promise<void> {
  switch (kind) {
    case "country": {
      const b = body as CountryBody;
      const changes = { name: b.name, sort_order: b.order, date_order: b.dateOrder, date_style: b.dateStyle, date_digits: b.dateDigits ?? "latin" };
      await db.insertInto("categories").values({ id: Number(key), ...changes }).onConflict((oc) => oc.column("id").doUpdateSet(changes)).execute();
      return;
    }
    case "issue": {
      const b = body as IssueBody;
      const changes = {
        category_id: b.countryId,
        name: b.name,
        content: b.content,
        guide_id: b.guideId,
        guide_path: b.guidePath,
        model_ai: b.modelAI,
        rephrase_content: b.rephraseContent,
        rephrase_variables: JSON.stringify(b.rephraseVariables),
        sensitive: b.sensitive ? 1 : 0,
      };
      await db.insertInto("issues").values({ id: Number(key), ...changes }).onConflict((oc) => oc.column("id").doUpdateSet(changes)).execute();
      return;
    }
    case "home": {
      const b = body as HomeBody;
      const changes = { headline: b.headline, sub_headline: b.subHeadline, body_copy: b.bodyCopy };
      await db.insertInto("home_content").values({ id: 1, ...changes }).onConflict((oc) => oc.column("id").doUpdateSet(changes)).execute();
      return;
    }
    case "translation":
    case "strings": {
      const place = livePlace(kind, key);
      if (!place) throw new Error(`Not a translation's key: ${key}`);
      const changes = { body: JSON.stringify(normalBody(kind, body)) };
      await db
        .insertInto("content_translations")
        .values({ kind: place.kind, item_key: place.key, language: place.language, ...changes })
        .onConflict((oc) => oc.columns(["kind", "item_key", "language"]).doUpdateSet(changes))
        .execute();
      return;
    }
    default: {
      const b = body as LegalBody;
      const changes = { name: b.name, content: b.content };
      await db.insertInto("legal_documents").values({ slug: key, ...changes }).onConflict((oc) => oc.column("slug").doUpdateSet(changes)).execute();
    }
  }
}

/** Removes an item's public row (a country or an issue), and its published translations. */
export async function deleteLive(db: Db, kind: "country" | "issue", key: string): Promise<void> {
  if (kind === "country") await db.deleteFrom("categories").where("id", "=", Number(key)).execute();
  else await db.deleteFrom("issues").where("id", "=", Number(key)).execute();
  await db.deleteFrom("content_translations").where("kind", "=", kind).where("item_key", "=", key).execute();
}

/** What is published in a language for items of some kinds: their translated fields, by kind and key. */
export async function publishedTranslations(db: Db, language: string, kinds: readonly ItemKind[]): Promise<Map<string, Record<string, string>>> {
  const found = new Map<string, Record<string, string>>();
  if (!kinds.length) return found;
  const rows = await db.selectFrom("content_translations").select(["kind", "item_key", "body"]).where("language", "=", language).where("kind", "in", [...kinds]).execute();
  for (const row of rows) found.set(itemId(row.kind as ItemKind, row.item_key), (JSON.parse(row.body) as TranslationBody).fields ?? {});
  return found;
}

/** The interface corrections published in every language. */
export async function publishedStrings(db: Db): Promise<Map<string, Record<string, string>>> {
  const rows = await db.selectFrom("content_translations").select(["language", "body"]).where("kind", "=", "strings").execute();
  return new Map(rows.map((row) => [row.language, (JSON.parse(row.body) as StringsBody).messages ?? {}]));
}

type VersionRow = {
  kind: string;
  item_key: string;
  version: number;
  status: ContentVersionStatus;
  source: ContentVersionSource;
  body: string;
  author_id: string | null;
  author_email: string;
  created_at: string;
  published_at: string | null;
  published_by_email: string | null;
};

function versionFromRow<K extends ContentKind>(row: VersionRow): ContentVersion<K> {
  return {
    kind: row.kind as K,
    key: row.item_key,
    version: Number(row.version),
    status: row.status,
    source: row.source,
    body: JSON.parse(row.body) as ContentBodies[K],
    authorId: row.author_id,
    authorEmail: row.author_email,
    createdAt: row.created_at,
    published: row.published_at ? { at: row.published_at, byEmail: row.published_by_email ?? "" } : null,
  };
}

/** Every version of an item, newest first. */
export async function listVersions<K extends ContentKind>(db: Db, kind: K, key: string): Promise<ContentVersion<K>[]> {
  const rows = await db
    .selectFrom("content_versions")
    .selectAll()
    .where("kind", "=", kind)
    .where("item_key", "=", key)
    .orderBy("version", "desc")
    .execute();
  return rows.map((row) => versionFromRow<K>(row));
}

export async function getVersion<K extends ContentKind>(db: Db, kind: K, key: string, version: number): Promise<ContentVersion<K> | null> {
  const row = await db
    .selectFrom("content_versions")
    .selectAll()
    .where("kind", "=", kind)
    .where("item_key", "=", key)
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? versionFromRow<K>(row) : null;
}

export async function latestVersion<K extends ContentKind>(db: Db, kind: K, key: string): Promise<ContentVersion<K> | null> {
  const row = await db
    .selectFrom("content_versions")
    .selectAll()
    .where("kind", "=", kind)
    .where("item_key", "=", key)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? versionFromRow<K>(row) : null;
}

/**
 * Adds the next version of an item. Content older than versions (a database seeded before migration 0011)
 * first gets its public row recorded as version 1 by the seed, so the first change has something to be
 * compared with and restored to.
 */
export async function addVersion<K extends ContentKind>(
  db: Db,
  item: { kind: K; key: string; status: ContentVersionStatus; body: ContentBodies[K] },
  author: VersionAuthor,
  { recordEarlier = true }: { recordEarlier?: boolean } = {},
): Promise<ContentVersion<K>> {
  let latest = await latestVersion(db, item.kind, item.key);
  if (!latest && recordEarlier) {
    const live = await liveBody(db, item.kind, item.key);
    if (live) latest = await insertVersion(db, { kind: item.kind, key: item.key, status: "published", body: live, version: 1 }, seedAuthor);
  }
  return insertVersion(db, { ...item, version: (latest?.version ?? 0) + 1 }, author);
}

async function insertVersion<K extends ContentKind>(
  db: Db,
  item: { kind: K; key: string; status: ContentVersionStatus; body: ContentBodies[K]; version: number },
  author: VersionAuthor,
): Promise<ContentVersion<K>> {
  const row: VersionRow = {
    kind: item.kind,
    item_key: item.key,
    version: item.version,
    status: item.status,
    source: author.source,
    body: JSON.stringify(normalBody(item.kind, item.body)),
    author_id: author.id,
    author_email: author.email,
    created_at: new Date().toISOString(),
    published_at: null,
    published_by_email: null,
  };
  await db.insertInto("content_versions").values(row).execute();
  return versionFromRow<K>(row);
}

/**
 * Publishes a draft version as it is: it becomes the published version, saying when and by whom, rather than a
 * second version with the same content. False when that version is not a draft (any more).
 */
export async function publishDraftVersion(db: Db, kind: ContentKind, key: string, version: number, publisher: VersionAuthor): Promise<boolean> {
  const result = await db
    .updateTable("content_versions")
    .set({ status: "published", published_at: new Date().toISOString(), published_by_email: publisher.email })
    .where("kind", "=", kind)
    .where("item_key", "=", key)
    .where("version", "=", version)
    .where("status", "=", "draft")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The items someone changed (an administrator or the command line), as "kind:key": the seed leaves them alone. */
export async function changedItems(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom("content_versions").select(["kind", "item_key"]).where("source", "<>", "seed").distinct().execute();
  return new Set(rows.map((row) => itemId(row.kind as ContentKind, row.item_key)));
}

export function itemId(kind: ContentKind, key: string): string {
  return `${kind}:${key}`;
}
