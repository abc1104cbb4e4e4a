import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { unzipSync } from "fflate";
import type { Db } from "../../db/database";
import { type Guide, loadGuide, pickListWarnings } from "~/a2j";
import { database } from "~/db.server";

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
  const bytes = await readFile(source);
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (!isZip && /\.(xml|a2j|json)$/i.test(source)) return new Map([[path.basename(source), bytes]]);
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
 * Stores a guide under an id (replacing any guide of that id) with its other files: templates, PDFs, pick
 * lists, media. A bad guide is refused with a GuideImportError that says what is wrong.
 */
export async function importGuide(
  guideId: string,
  files: GuideFiles,
  db: Db = database(),
): Promise<{ title: string; files: number; warnings: string[] }> {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(guideId)) {
    throw new GuideImportError("A guide id is 1 to 63 lower-case letters, digits and dashes.");
  }
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
  const lists = Object.fromEntries(others.filter(([file]) => extension(file) === "xml").map(([file, bytes]) => [file, decode(bytes)]));
  const warnings = [...parsed.warnings, ...pickListWarnings(guide, lists)];
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("guide_files").where("guide_id", "=", guideId).execute();
    await trx.deleteFrom("guides").where("id", "=", guideId).execute();
    await trx
      .insertInto("guides")
      .values({ id: guideId, title: guide.title || guideId, format, source, imported_at: new Date().toISOString() })
      .execute();
    for (const [file, bytes] of others) {
      await trx
        .insertInto("guide_files")
        .values({
          guide_id: guideId,
          path: file,
          content_type: CONTENT_TYPES[extension(file)]!,
          content: Buffer.from(bytes).toString("base64"),
        })
        .execute();
    }
  });
  return { title: guide.title || guideId, files: others.length, warnings };
}

/**
 * Imports the demo guides of the seed folder (`<seed>/guides/<guideId>/`). On start-up only the ones the
 * database does not have yet; the seed command re-imports them all.
 */
export async function importSeedGuides(seedDir: string, { onlyMissing }: { onlyMissing: boolean }, db: Db = database()) {
  const dir = path.join(seedDir, "guides");
  const folders = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
  const existing = new Set((await db.selectFrom("guides").select("id").execute()).map((row) => row.id));
  const imported: string[] = [];
  for (const folder of folders) {
    if (onlyMissing && existing.has(folder.name)) continue;
    await importGuide(folder.name, await readGuideFolder(path.join(dir, folder.name)), db);
    imported.push(folder.name);
  }
  return imported;
}
