// Stored guides and their versions (docs/decisions/0029-guide-versions.md): a guide is one id; what runs is a
// version of it. New interviews run the published version; an interview keeps the version it started on.
import type { Db } from "../../db/database";
import type { GuideOrigin } from "../../db/schema";
import { type Guide, loadGuide, withPickLists } from "~/a2j";
import { database } from "~/db.server";
import { chooseGuide, type GuideInLanguage } from "./guide-language";

/** A guide version: what an interview runs. */
export interface GuidePin {
  guideId: string;
  version: number;
}

// Parsed guide versions, by "id@version", kept while the version's upload time is the same (a database made
// afresh, as the tests do, may hold another text under the same number). Versions never change once stored.
const cache = new Map<string, { uploadedAt: string; guide: Guide }>();
const CACHE_SIZE = 64;

/** The published version of a guide, or null when there is no such guide or none is published. */
export async function publishedVersion(guideId: string, db: Db = database()): Promise<GuidePin | null> {
  const row = await db.selectFrom("guides").select("published_version").where("id", "=", guideId).executeTakeFirst();
  return row?.published_version ? { guideId, version: row.published_version } : null;
}

/** The guide an interview runs: the version it started on, else (none recorded) its issue's published guide. */
export async function interviewGuidePin(pin: GuidePin | null, issueGuideId: string | null, db: Db = database()): Promise<GuidePin | null> {
  if (pin) return pin;
  return issueGuideId ? publishedVersion(issueGuideId, db) : null;
}

/**
 * An issue's guides that can run: its own (first) and the published guides that are the same interview in another
 * language (docs/decisions/0048-guides-per-language.md). Empty when its own guide has no published version.
 */
export async function issueGuides(issueGuideId: string, db: Db = database()): Promise<GuideInLanguage[]> {
  const rows = await db
    .selectFrom("guides")
    .select(["id", "language"])
    .where((eb) => eb.or([eb("id", "=", issueGuideId), eb("translation_of", "=", issueGuideId)]))
    .where("published_version", "is not", null)
    .orderBy("id")
    .execute();
  const own = rows.find((row) => row.id === issueGuideId);
  if (!own) return [];
  return [own, ...rows.filter((row) => row !== own)].map((row) => ({ guideId: row.id, language: row.language }));
}

/** The issue's guide a new interview runs for a person who reads `language`; null when the issue has none that runs. */
export async function guideForPerson(issueGuideId: string, language: string, db: Db = database()) {
  const guides = await issueGuides(issueGuideId, db);
  return guides.length ? chooseGuide(guides, language) : null;
}

/** The published version of a stored guide, parsed (and with its pick lists), or null. */
export async function getGuide(guideId: string, db: Db = database()): Promise<Guide | null> {
  const pin = await publishedVersion(guideId, db);
  return pin ? getGuideVersion(pin, db) : null;
}

/** A version of a guide, parsed (and with its pick lists), or null (no such version, or discarded). */
export async function getGuideVersion(pin: GuidePin, db: Db = database()): Promise<Guide | null> {
  const row = await db
    .selectFrom("guide_versions")
    .select("uploaded_at")
    .where("guide_id", "=", pin.guideId)
    .where("version", "=", pin.version)
    .where("discarded_at", "is", null)
    .executeTakeFirst();
  return row ? getGuideVersionUploadedAt(pin, row.uploaded_at, db) : null;
}

/**
 * The parsed guide of that version from the cache when it is the one uploaded then, without an await (the
 * viewer's every step asks): undefined when getGuideVersionUploadedAt must read it.
 */
export function cachedGuideVersion(pin: GuidePin, uploadedAt: string): Guide | undefined {
  const cached = cache.get(`${pin.guideId}@${pin.version}`);
  return cached?.uploadedAt === uploadedAt ? cached.guide : undefined;
}

/**
 * A guide version whose upload time the caller has just read from the database (with other rows, in one
 * query): the parsed guide from the cache, else read again. Null when it is not there.
 */
export async function getGuideVersionUploadedAt(pin: GuidePin, uploadedAt: string, db: Db = database()): Promise<Guide | null> {
  const key = `${pin.guideId}@${pin.version}`;
  const cached = cachedGuideVersion(pin, uploadedAt);
  if (cached) return cached;
  // The guide's text (often hundreds of kB) is read only when it is not cached.
  const row = await db
    .selectFrom("guide_versions")
    .select(["uploaded_at", "source"])
    .where("guide_id", "=", pin.guideId)
    .where("version", "=", pin.version)
    .where("discarded_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  const loaded = loadGuide(row.source);
  if (!loaded.ok) return null;
  const lists = await versionFiles(db, pin).select(["path", "content"]).where("path", "like", "%.xml").execute();
  const guide = lists.length
    ? withPickLists(loaded.guide, Object.fromEntries(lists.map((f) => [f.path, Buffer.from(f.content, "base64").toString("utf8")])))
    : loaded.guide;
  cache.delete(key);
  cache.set(key, { uploadedAt: row.uploaded_at, guide });
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return guide;
}

const versionFiles = (db: Db, pin: GuidePin) =>
  db.selectFrom("guide_version_files").where("guide_id", "=", pin.guideId).where("version", "=", pin.version);

/** The source of a guide version (the published one unless named): the spec's "interview guides/{id}". */
export async function getGuideSource(guideId: string, db: Db = database(), version?: number) {
  const pin = version === undefined ? await publishedVersion(guideId, db) : { guideId, version };
  if (!pin) return undefined;
  return db
    .selectFrom("guide_versions")
    .select(["guide_id as id", "version", "title", "format", "source", "published_at"])
    .where("guide_id", "=", pin.guideId)
    .where("version", "=", pin.version)
    .where("discarded_at", "is", null)
    .executeTakeFirst();
}

/** One of the files of a guide version (the published one unless named). */
export async function getGuideFile(guideId: string, file: string, db: Db = database(), version?: number) {
  const pin = version === undefined ? await publishedVersion(guideId, db) : { guideId, version };
  if (!pin) return null;
  const row = await versionFiles(db, pin).select(["content_type", "content"]).where("path", "=", file).executeTakeFirst();
  return row ? { contentType: row.content_type, bytes: Buffer.from(row.content, "base64") } : null;
}

/** Every file of a guide version, by path (its guide text aside). */
export async function getGuideVersionFiles(pin: GuidePin, db: Db = database()): Promise<Map<string, { contentType: string; content: string }>> {
  const rows = await versionFiles(db, pin).select(["path", "content_type", "content"]).orderBy("path").execute();
  return new Map(rows.map((row) => [row.path, { contentType: row.content_type, content: row.content }]));
}

export interface GuideVersionSummary {
  version: number;
  title: string;
  format: "json" | "xml";
  origin: GuideOrigin;
  uploadedByEmail: string;
  uploadedAt: string;
  publishedAt: string | null;
  discardedAt: string | null;
  published: boolean;
  report: GuideReport;
}

/** What an import found in a guide: shown before it is published, kept with the version. */
export interface GuideReport {
  pages: number;
  variables: number;
  /** Template files found (templates.json's templateN files, and any other templateN file). */
  templates: string[];
  /** Other files kept with the guide: PDFs, pick lists, media. */
  files: number;
  warnings: GuideWarning[];
}

export type GuideWarningKind = "script" | "function" | "pick-list" | "template" | "media" | "guide";

export interface GuideWarning {
  kind: GuideWarningKind;
  message: string;
}

export function readReport(json: string): GuideReport {
  const parsed = JSON.parse(json) as Partial<GuideReport>;
  return { pages: parsed.pages ?? 0, variables: parsed.variables ?? 0, templates: parsed.templates ?? [], files: parsed.files ?? 0, warnings: parsed.warnings ?? [] };
}

/** Every version of a guide, newest first, or null when there is no such guide. */
export async function listGuideVersions(guideId: string, db: Db = database()) {
  const guide = await db.selectFrom("guides").select(["id", "title", "published_version", "language", "translation_of"]).where("id", "=", guideId).executeTakeFirst();
  if (!guide) return null;
  const rows = await db
    .selectFrom("guide_versions")
    .select(["version", "title", "format", "origin", "uploaded_by_email", "uploaded_at", "published_at", "discarded_at", "report"])
    .where("guide_id", "=", guideId)
    .orderBy("version", "desc")
    .execute();
  const versions: GuideVersionSummary[] = rows.map((row) => ({
    version: row.version,
    title: row.title,
    format: row.format,
    origin: row.origin,
    uploadedByEmail: row.uploaded_by_email,
    uploadedAt: row.uploaded_at,
    publishedAt: row.published_at,
    discardedAt: row.discarded_at,
    published: row.version === guide.published_version,
    report: readReport(row.report),
  }));
  return { id: guide.id, title: guide.title, publishedVersion: guide.published_version, language: guide.language, translationOf: guide.translation_of, versions };
}

/** One version of a guide with its report, or null. */
export async function findGuideVersion(pin: GuidePin, db: Db = database()) {
  const listed = await listGuideVersions(pin.guideId, db);
  const version = listed?.versions.find((v) => v.version === pin.version);
  return listed && version ? { guide: { id: listed.id, title: listed.title, publishedVersion: listed.publishedVersion }, version } : null;
}

export interface GuideListItem {
  id: string;
  title: string;
  publishedVersion: number | null;
  language: string;
  /** The guide this one is the same interview as, in another language. */
  translationOf: string | null;
  /** The newest version not yet published or discarded, if any. */
  pendingVersion: number | null;
  issues: { id: number; name: string }[];
}

/** Every guide, by title, with its published version, a pending one, and the issues that run it. */
export async function listGuides(db: Db = database()): Promise<GuideListItem[]> {
  const guides = await db.selectFrom("guides").select(["id", "title", "published_version", "language", "translation_of"]).orderBy("title").orderBy("id").execute();
  const pending = await db
    .selectFrom("guide_versions")
    .select(["guide_id", (eb) => eb.fn.max("version").as("version")])
    .where("published_at", "is", null)
    .where("discarded_at", "is", null)
    .groupBy("guide_id")
    .execute();
  const issues = await db.selectFrom("issues").select(["id", "name", "guide_id"]).where("guide_id", "is not", null).orderBy("name").execute();
  return guides.map((guide) => {
    const newest = pending.find((p) => p.guide_id === guide.id)?.version;
    return {
      id: guide.id,
      title: guide.title,
      publishedVersion: guide.published_version,
      language: guide.language,
      translationOf: guide.translation_of,
      pendingVersion: newest !== undefined && newest !== null && Number(newest) > (guide.published_version ?? 0) ? Number(newest) : null,
      issues: issues.filter((issue) => issue.guide_id === guide.id).map((issue) => ({ id: issue.id, name: issue.name })),
    };
  });
}
