import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { unzipSync } from "fflate";
import type { Db } from "../../db/database";
import { type Guide, loadGuide } from "~/a2j";
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

/** A folder or a zip, by what the path is. */
export async function readGuideSource(source: string): Promise<GuideFiles> {
  const info = await stat(source).catch(() => null);
  if (!info) throw new GuideImportError(`No such file or folder: ${source}`);
  return info.isDirectory() ? readGuideFolder(source) : readGuideZip(await readFile(source));
}

function findFile(files: GuideFiles, name: string): string | undefined {
  return [...files.keys()].find((file) => file.toLowerCase() === name.toLowerCase());
}

/** The guide of a set of files, checked by the engine: Guide.json preferred, else Guide.xml. */
export function parseGuideFiles(files: GuideFiles): { guide: Guide; format: "json" | "xml"; source: string; warnings: string[] } {
  const json = findFile(files, "Guide.json");
  const xml = findFile(files, "Guide.xml");
  const file = json ?? xml;
  if (!file) throw new GuideImportError("The guide has neither Guide.json nor Guide.xml.");
  const source = new TextDecoder("utf-8").decode(files.get(file));
  const loaded = loadGuide(source);
  if (!loaded.ok) throw new GuideImportError(`${file} is not a valid A2J guide: ${loaded.error}`);
  return { guide: loaded.guide, format: json ? "json" : "xml", source, warnings: loaded.warnings };
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
  const { guide, format, source, warnings } = parseGuideFiles(files);
  // Notes beside a guide (README, ATTRIBUTION) are not part of it.
  const others = [...files.entries()].filter(([file]) => !/^guide\.(json|xml)$/i.test(file) && !/\.(md|txt)$/i.test(file));
  const refused = others.filter(([file]) => !ALLOWED.has(extension(file)) || file.includes(".."));
  if (refused.length) {
    throw new GuideImportError(`The guide holds files of a kind it may not: ${refused.map(([file]) => file).join(", ")}`);
  }
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
