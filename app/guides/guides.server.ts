import type { Db } from "../../db/database";
import { type Guide, loadGuide, withPickLists } from "~/a2j";
import { database } from "~/db.server";

// Parsed guides by id, kept while their import time is the same.
const cache = new Map<string, { importedAt: string; guide: Guide }>();

/** A stored guide, parsed (and with its pick lists), or null. */
export async function getGuide(guideId: string, db: Db = database()): Promise<Guide | null> {
  const version = await db.selectFrom("guides").select("imported_at").where("id", "=", guideId).executeTakeFirst();
  if (!version) return null;
  return getGuideImportedAt(guideId, version.imported_at, db);
}

/**
 * A stored guide whose import time the caller has just read from the database (with other rows, in one
 * query): the parsed guide of that import from the cache, else read again. Null when it is not there.
 */
export async function getGuideImportedAt(guideId: string, importedAt: string, db: Db = database()): Promise<Guide | null> {
  const cached = cache.get(guideId);
  if (cached?.importedAt === importedAt) return cached.guide;
  // The guide's text (often hundreds of kB) is read only when it changed.
  const row = await db.selectFrom("guides").select(["imported_at", "source"]).where("id", "=", guideId).executeTakeFirst();
  if (!row) return null;
  const loaded = loadGuide(row.source);
  if (!loaded.ok) return null;
  const lists = await db.selectFrom("guide_files").select(["path", "content"]).where("guide_id", "=", guideId).where("path", "like", "%.xml").execute();
  const guide = lists.length
    ? withPickLists(loaded.guide, Object.fromEntries(lists.map((f) => [f.path, Buffer.from(f.content, "base64").toString("utf8")])))
    : loaded.guide;
  cache.set(guideId, { importedAt: row.imported_at, guide });
  return guide;
}

/** The source of a stored guide (the spec's "interview guides/{id}"). */
export async function getGuideSource(guideId: string, db: Db = database()) {
  return db.selectFrom("guides").select(["id", "title", "format", "source"]).where("id", "=", guideId).executeTakeFirst();
}

/** One of a guide's files. */
export async function getGuideFile(guideId: string, file: string, db: Db = database()) {
  const row = await db
    .selectFrom("guide_files")
    .select(["content_type", "content"])
    .where("guide_id", "=", guideId)
    .where("path", "=", file)
    .executeTakeFirst();
  return row ? { contentType: row.content_type, bytes: Buffer.from(row.content, "base64") } : null;
}
