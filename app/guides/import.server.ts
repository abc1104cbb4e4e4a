import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { unzipSync, zipSync } from "fflate";
import type { Db } from "../../db/database";
import type { GuideOrigin } from "../../db/schema";
import { BUILTIN_VARS, type Guide, loadGuide, pickListWarnings } from "~/a2j";
import { database } from "~/db.server";
import { GUIDE_ID, guideIdMessage } from "./guide-id";
import { guideLanguageTag } from "./guide-language";
import { type GuidePin, type GuideReport, type GuideWarning, type GuideWarningKind, getGuideSource, getGuideVersionFiles, publishedVersion } from "./guides.server";

export class GuideImportError extends Error {
  override name = "GuideImportError";
}

/** The files of a published guide, by path relative to its folder ("Guide.json", "template1.json", …). */
export type GuideFiles = Map<string, Uint8Array>;

const CONTENT_TYPES: Record<string, string> = {
  json: "application/json",
  xml: "application/xml",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
};

/** What a published guide may hold (A2J's own allow-list, plus Word templates). */
const ALLOWED = new Set(Object.keys(CONTENT_TYPES));

function extension(file: string) {
  return path.extname(file).slice(1).toLowerCase();
}

/** Reads a guide folder (recursively). */
export async function readGuideFolder(dir: string): Promise<GuideFiles> {
  const files: GuideFiles = new Map();
  async function walk(current: string) {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.set(path.relative(dir, full).split(path.sep).join("/"), await readFile(full));
    }
  }
  await walk(dir);
  return files;
}

/** Reads a published guide zip; a single top folder inside it is taken as the guide folder. */
export function readGuideZip(zip: Uint8Array): GuideFiles {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (error) {
    throw new GuideImportError(`The file is not a readable zip: ${(error as Error).message}`);
  }
  const names = Object.keys(entries).filter((name) => !name.endsWith("/") && !name.startsWith("__MACOSX/"));
  const tops = new Set(names.map((name) => name.split("/")[0]));
  const strip = tops.size === 1 && names.every((name) => name.includes("/")) ? `${[...tops][0]}/` : "";
  return new Map(names.map((name) => [name.slice(strip.length), entries[name]!]));
}

/**
 * A folder, a zip, or one guide file (Guide.json, Guide.xml, or an A2J 4 guide such as `Divorce_Interview.xml`
 * or `divorce.a2j`), by what the path is.
 */
export async function readGuideSource(source: string): Promise<GuideFiles> {
  const info = await stat(source).catch(() => null);
  if (!info) throw new GuideImportError(`No such file or folder: ${source}`);
  if (info.isDirectory()) return readGuideFolder(source);
  return readGuideUpload(path.basename(source), await readFile(source));
}

/** An uploaded file: one guide file by its name (.json, .xml, .a2j) unless its content is a zip, else a published zip. */
export function readGuideUpload(fileName: string, bytes: Uint8Array): GuideFiles {
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (!isZip && /\.(xml|a2j|json)$/i.test(fileName)) return new Map([[path.basename(fileName.replace(/\\/g, "/")), bytes]]);
  return readGuideZip(bytes);
}

function findFile(files: GuideFiles, name: string): string | undefined {
  return [...files.keys()].find((file) => file.toLowerCase() === name.toLowerCase());
}

const decode = (bytes: Uint8Array | undefined) => new TextDecoder("utf-8").decode(bytes);

/** An A2J 4 guide is one XML file, root <TEMPLATE>, under any name (A2J 4 saved `*.a2j` and `*_Interview.xml`). */
const A2J4_START = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<TEMPLATE[\s>/]/i;

function findA2J4Guide(files: GuideFiles): string | undefined {
  const candidates = [...files.keys()].filter((file) => /\.(xml|a2j)$/i.test(file) && A2J4_START.test(decode(files.get(file)?.subarray(0, 4096))));
  if (candidates.length > 1) {
    throw new GuideImportError(`There are several A2J 4 guides here (${candidates.join(", ")}): import them one at a time.`);
  }
  return candidates[0];
}

/**
 * The guide of a set of files, checked by the engine: Guide.json preferred, else Guide.xml, else an A2J 4 guide.
 * An A2J 4 guide is stored converted, as the Guide.json A2J Author would save after opening it (`source`).
 */
export function parseGuideFiles(files: GuideFiles): {
  guide: Guide;
  format: "json" | "xml";
  source: string;
  /** The file the guide was read from (not stored among the guide's other files). */
  file: string;
  warnings: string[];
} {
  const json = findFile(files, "Guide.json");
  const xml = findFile(files, "Guide.xml");
  const file = json ?? xml ?? findA2J4Guide(files);
  if (!file) throw new GuideImportError("The guide has neither Guide.json nor Guide.xml, nor an A2J 4 guide (an XML file whose root is <TEMPLATE>).");
  const text = decode(files.get(file));
  const loaded = loadGuide(text);
  if (!loaded.ok) throw new GuideImportError(`${file} is not a valid A2J guide: ${loaded.error}`);
  if (loaded.a2j4) {
    return { guide: loaded.guide, format: "json", source: JSON.stringify(loaded.guide), file, warnings: loaded.warnings };
  }
  return { guide: loaded.guide, format: json ? "json" : "xml", source: text, file, warnings: loaded.warnings };
}


/**
 * A media file (image, sound, video) larger than this is reported: the viewer serves it to people on slow phone
 * connections, and a guide zip must fit the upload limit as a whole (docs/decisions/0029-guide-versions.md).
 */
export const MAX_GUIDE_MEDIA_BYTES = 1024 * 1024;
const MEDIA = new Set(["jpg", "jpeg", "png", "gif", "mp3", "mp4"]);

export { GUIDE_ID, guideIdMessage } from "./guide-id";

const BUILTIN_NAMES = new Set(BUILTIN_VARS.map((b) => b.name.toLowerCase()));

export interface CheckedGuide {
  guide: Guide;
  format: "json" | "xml";
  source: string;
  /** The files kept with the guide: templates, PDFs, pick lists, media. */
  others: [string, Uint8Array][];
  report: GuideReport;
}

function warningKind(message: string): GuideWarningKind {
  if (/unknown function/i.test(message)) return "function";
  if (/\b(codeBefore|codeAfter)\b/.test(message)) return "script";
  return "guide";
}

/** templates.json's list (its templateIds), or a warning when it cannot be read. */
function templateWarnings(files: Map<string, Uint8Array>): GuideWarning[] {
  const list = files.get("templates.json");
  if (!list) return [];
  let ids: unknown;
  try {
    ids = (JSON.parse(decode(list)) as { templateIds?: unknown }).templateIds;
  } catch {
    return [{ kind: "template", message: "templates.json is not valid JSON, so no document can be made." }];
  }
  if (!Array.isArray(ids)) return [{ kind: "template", message: "templates.json has no templateIds list, so no document can be made." }];
  return ids
    .filter((id) => !files.has(`template${id}.json`) && !files.has(`template${id}.docx`))
    .map((id) => ({
      kind: "template" as const,
      message: `templates.json lists template ${String(id)}, but neither template${String(id)}.json nor template${String(id)}.docx is among the guide's files: documents cannot be made until it is added.`,
    }));
}

function mediaWarnings(others: [string, Uint8Array][]): GuideWarning[] {
  const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return others
    .filter(([file, bytes]) => MEDIA.has(extension(file)) && bytes.length > MAX_GUIDE_MEDIA_BYTES)
    .map(([file, bytes]) => ({
      kind: "media" as const,
      message: `The media file "${file}" is ${megabytes(bytes.length)}, over the ${megabytes(MAX_GUIDE_MEDIA_BYTES)} a guide's media may have: people on slow connections wait for it. Make it smaller and upload the guide again.`,
    }));
}

/**
 * Reads and checks a guide's files without storing anything: the guide, the files to keep with it, and the
 * import report (pages, variables, templates, and every warning). A guide that cannot be read at all is a
 * GuideImportError that says why.
 */
export function checkGuideFiles(files: GuideFiles): CheckedGuide {
  const parsed = parseGuideFiles(files);
  const { guide, format, source } = parsed;
  // Notes beside a guide (README, ATTRIBUTION) are not part of it.
  const others = [...files.entries()].filter(
    ([file]) => file !== parsed.file && !/^guide\.(json|xml)$/i.test(file) && !/\.(md|txt)$/i.test(file),
  );
  const refused = others.filter(([file]) => !ALLOWED.has(extension(file)) || file.includes(".."));
  if (refused.length) {
    throw new GuideImportError(`The guide holds files of a kind it may not: ${refused.map(([file]) => file).join(", ")}`);
  }
  const kept = new Map(others);
  const lists = Object.fromEntries(others.filter(([file]) => extension(file) === "xml").map(([file, bytes]) => [file, decode(bytes)]));
  const warnings: GuideWarning[] = [
    ...parsed.warnings.map((message) => ({ kind: warningKind(message), message })),
    ...pickListWarnings(guide, lists).map((message) => ({ kind: "pick-list" as const, message })),
    ...templateWarnings(kept),
    ...mediaWarnings(others),
  ];
  const report: GuideReport = {
    pages: Object.keys(guide.pages).length,
    // The guide's own variables, not A2J's built-in ones (A2J Bookmark, …) that every guide has.
    variables: Object.values(guide.vars).filter((v) => !BUILTIN_NAMES.has(v.name.toLowerCase())).length,
    templates: others.map(([file]) => file).filter((file) => /^templates?\d*\.(json|docx|pdf)$/i.test(file)).sort(),
    files: others.length,
    warnings,
  };
  return { guide, format, source, others, report };
}

/** Who made a version: the seed, the command line, or an administrator (their id and email). */
export interface GuideUploader {
  origin: GuideOrigin;
  id: string | null;
  email: string;
}

export const seedUploader: GuideUploader = { origin: "seed", id: null, email: "seed" };

/**
 * Keeps checked files as a new, unpublished version of a guide (the guide is made when it is new). Nothing
 * that runs changes. Run it inside a transaction (`trx`) with whatever else records the upload.
 */
export async function addGuideVersion(guideId: string, checked: CheckedGuide, uploader: GuideUploader, trx: Db): Promise<GuidePin & { title: string }> {
  if (!GUIDE_ID.test(guideId)) throw new GuideImportError(guideIdMessage);
  const title = checked.guide.title || guideId;
  const existing = await trx.selectFrom("guides").select("id").where("id", "=", guideId).executeTakeFirst();
  // A new guide is in the language its text names; later versions leave it as it is (an administrator may have
  // corrected it).
  if (!existing) await trx.insertInto("guides").values({ id: guideId, title, published_version: null, language: guideLanguageTag(checked.guide.language) }).execute();
  const { last } = await trx
    .selectFrom("guide_versions")
    .select((eb) => eb.fn.max("version").as("last"))
    .where("guide_id", "=", guideId)
    .executeTakeFirstOrThrow();
  const version = Number(last ?? 0) + 1;
  await trx
    .insertInto("guide_versions")
    .values({
      guide_id: guideId,
      version,
      title,
      format: checked.format,
      source: checked.source,
      origin: uploader.origin,
      uploaded_by_id: uploader.id,
      uploaded_by_email: uploader.email,
      uploaded_at: new Date().toISOString(),
      published_at: null,
      discarded_at: null,
      report: JSON.stringify(checked.report),
    })
    .execute();
  for (const [file, bytes] of checked.others) {
    await trx
      .insertInto("guide_version_files")
      .values({ guide_id: guideId, version, path: file, content_type: CONTENT_TYPES[extension(file)]!, content: Buffer.from(bytes).toString("base64") })
      .execute();
  }
  return { guideId, version, title };
}

/**
 * Makes a pending version the one new interviews run (interviews already started keep theirs). False when
 * there is no such pending version.
 */
export async function publishGuideVersion(pin: GuidePin, trx: Db): Promise<boolean> {
  const row = await trx
    .selectFrom("guide_versions")
    .select("title")
    .where("guide_id", "=", pin.guideId)
    .where("version", "=", pin.version)
    .where("published_at", "is", null)
    .where("discarded_at", "is", null)
    .executeTakeFirst();
  if (!row) return false;
  await trx.updateTable("guide_versions").set({ published_at: new Date().toISOString() }).where("guide_id", "=", pin.guideId).where("version", "=", pin.version).execute();
  await trx.updateTable("guides").set({ published_version: pin.version, title: row.title }).where("id", "=", pin.guideId).execute();
  return true;
}

/**
 * Throws away a pending version: its files go, its row stays in the history (and its number is not used
 * again). A new guide whose only version this was is removed, unless an issue names it already.
 * False when there is no such pending version.
 */
export async function discardGuideVersion(pin: GuidePin, trx: Db): Promise<boolean> {
  const result = await trx
    .updateTable("guide_versions")
    .set({ discarded_at: new Date().toISOString() })
    .where("guide_id", "=", pin.guideId)
    .where("version", "=", pin.version)
    .where("published_at", "is", null)
    .where("discarded_at", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await trx.deleteFrom("guide_version_files").where("guide_id", "=", pin.guideId).where("version", "=", pin.version).execute();
  const others = await trx.selectFrom("guide_versions").select("version").where("guide_id", "=", pin.guideId).where("discarded_at", "is", null).executeTakeFirst();
  const named = await trx.selectFrom("issues").select("id").where("guide_id", "=", pin.guideId).executeTakeFirst();
  if (!others && !named) await trx.deleteFrom("guides").where("id", "=", pin.guideId).execute();
  return true;
}

/**
 * Imports a guide and publishes it at once, as a new version of the guide of that id (made when new): the
 * seed, the command line and the tests. A bad guide is refused with a GuideImportError that says what is wrong.
 */
export async function importGuide(
  guideId: string,
  files: GuideFiles,
  db: Db = database(),
  uploader: GuideUploader = { origin: "command line", id: null, email: "command line" },
  record?: (trx: Db, imported: GuidePin & { title: string; report: GuideReport }) => Promise<void>,
): Promise<{ title: string; files: number; warnings: string[]; version: number }> {
  if (!GUIDE_ID.test(guideId)) throw new GuideImportError(guideIdMessage);
  const checked = checkGuideFiles(files);
  const added = await db.transaction().execute(async (trx) => {
    const pin = await addGuideVersion(guideId, checked, uploader, trx);
    await publishGuideVersion(pin, trx);
    await record?.(trx, { ...pin, report: checked.report });
    return pin;
  });
  return { title: added.title, files: checked.others.length, warnings: checked.report.warnings.map((w) => w.message), version: added.version };
}

/** Whether checked files are the same guide as a stored version (its text and every file). */
async function sameAsVersion(checked: CheckedGuide, pin: GuidePin, db: Db): Promise<boolean> {
  const stored = await getGuideSource(pin.guideId, db, pin.version);
  if (!stored || stored.source !== checked.source) return false;
  const files = await getGuideVersionFiles(pin, db);
  return files.size === checked.others.length && checked.others.every(([file, bytes]) => files.get(file)?.content === Buffer.from(bytes).toString("base64"));
}

/**
 * Imports the demo guides of the seed folder (`<seed>/guides/<guideId>/`). On start-up only the ones the
 * database does not have yet; the seed command also refreshes a demo guide whose files changed, as a new
 * published version, but never a guide an administrator (or the command line) made a version of: after the
 * first load, the database is the source of truth.
 */
export async function importSeedGuides(seedDir: string, { onlyMissing }: { onlyMissing: boolean }, db: Db = database()) {
  const dir = path.join(seedDir, "guides");
  const folders = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
  const versions = await db.selectFrom("guide_versions").select(["guide_id", "origin"]).execute();
  const existing = new Set((await db.selectFrom("guides").select("id").execute()).map((row) => row.id));
  const imported: string[] = [];
  for (const folder of folders) {
    const guideId = folder.name;
    if (existing.has(guideId) && (onlyMissing || versions.some((v) => v.guide_id === guideId && v.origin !== "seed"))) continue;
    const files = await readGuideFolder(path.join(dir, guideId));
    const published = await publishedVersion(guideId, db);
    if (published && (await sameAsVersion(checkGuideFiles(files), published, db))) continue;
    await importGuide(guideId, files, db, seedUploader);
    imported.push(guideId);
  }
  return imported;
}

/** A guide version as a published zip (Guide.json or Guide.xml and its files), which the upload reads back. */
export async function guideVersionZip(pin: GuidePin, db: Db = database()): Promise<Uint8Array | null> {
  const stored = await getGuideSource(pin.guideId, db, pin.version);
  if (!stored) return null;
  const entries: Record<string, Uint8Array> = { [stored.format === "json" ? "Guide.json" : "Guide.xml"]: new TextEncoder().encode(stored.source) };
  for (const [file, { content }] of await getGuideVersionFiles(pin, db)) entries[file] = new Uint8Array(Buffer.from(content, "base64"));
  return zipSync(entries);
}
