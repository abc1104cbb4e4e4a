import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import {
  addVersion,
  type ContentBodies,
  type ContentKind,
  changedItems,
  HOME_KEY,
  itemId,
  latestVersion,
  sameBody,
  seedAuthor,
  writeLive,
} from "./content-versions";
import type { Db } from "./database";

/** A markdown file with a block of `key: value` lines between `---` lines at its top. */
export function parseFrontMatter(source: string): { attributes: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { attributes: {}, body: source };
  const attributes: Record<string, string> = {};
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    attributes[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { attributes, body: source.slice(match[0].length).trim() + "\n" };
}

const countrySchema = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  order: z.number(),
  // How the country writes dates for people (DateLocale in app/a2j/dates.ts); A2J's month/day/year when left out.
  // digits: "native" writes dates in a language with digits of its own with them (Arabic); Latin when left out.
  dates: z
    .object({ order: z.enum(["DMY", "MDY"]), style: z.enum(["long", "numeric"]), digits: z.enum(["latin", "native"]).optional() })
    .default({ order: "MDY", style: "numeric" }),
});
const emptyToNull = z.string().transform((value) => (value === "" ? null : value));
const issueAttributes = z.object({
  id: z.coerce.number().int(),
  name: z.string().min(1),
  country: z.coerce.number().int(),
  guideId: emptyToNull.default(""),
  guidePath: emptyToNull.default(""),
  modelAI: z.string().default("gpt-3.5-turbo"),
  rephraseContent: z.string().default(""),
  // Comma-separated variable names of long-text questions that offer "Rephrase with AI".
  rephraseVariables: z
    .string()
    .default("")
    .transform((list) => list.split(",").map((name) => name.trim()).filter(Boolean)),
  // "true" marks an issue people may not want seen on their screen (its page offers a quick exit).
  sensitive: z
    .enum(["true", "false", ""])
    .default("")
    .transform((value) => value === "true"),
});

export interface SeedContent {
  countries: z.infer<typeof countrySchema>[];
  issues: (z.infer<typeof issueAttributes> & { content: string })[];
  home: { headline: string; subHeadline: string; bodyCopy: string };
  legal: { slug: string; name: string; content: string }[];
  /** settings.json: the languages the demo organisation offers (all shipped ones), set only where none is set. */
  languages: string[] | null;
}

async function readMarkdown(file: string) {
  try {
    return parseFrontMatter(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`Cannot read seed file ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Every markdown file of a folder, in name order. */
async function readMarkdownFolder(dir: string) {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".md")).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      return { file, ...(await readMarkdown(file)) };
    }),
  );
}

function parseOrExplain<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  throw new Error(`Seed file ${file} is invalid: ${problems}`);
}

/** Reads the seed folder (db/seed by default): countries.json, home.md, issues/*.md, legal/*.md. */
export async function readSeedContent(dir: string): Promise<SeedContent> {
  const countriesFile = path.join(dir, "countries.json");
  const countries = parseOrExplain(
    z.array(countrySchema),
    JSON.parse(await readFile(countriesFile, "utf8")),
    countriesFile,
  );

  const issues = (await readMarkdownFolder(path.join(dir, "issues"))).map(({ file, attributes, body }) => ({
    ...parseOrExplain(issueAttributes, attributes, file),
    content: body,
  }));

  const homeFile = path.join(dir, "home.md");
  const home = await readMarkdown(homeFile);
  const homeAttributes = parseOrExplain(
    z.object({ headline: z.string().min(1), subHeadline: z.string().min(1) }),
    home.attributes,
    homeFile,
  );

  const legal = (await readMarkdownFolder(path.join(dir, "legal"))).map(({ file, attributes, body }) => ({
    slug: path.basename(file, ".md"),
    name: parseOrExplain(z.object({ name: z.string().min(1) }), attributes, file).name,
    content: body,
  }));

  const settingsFile = path.join(dir, "settings.json");
  const settings = await readFile(settingsFile, "utf8").then(
    (text) => parseOrExplain(z.object({ languages: z.array(z.string().min(2)).min(1) }), JSON.parse(text), settingsFile),
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    },
  );

  return { countries, issues, home: { ...homeAttributes, bodyCopy: home.body }, legal, languages: settings?.languages ?? null };
}

/** What a seed run did: the items it left as an administrator (or the command line) changed them, as "kind:key". */
export interface SeedReport {
  kept: string[];
}

/**
 * Writes the seed content; running it again updates the same rows (keyed by id or slug) and records a version
 * by the seed where the content changed. An item someone changed (any version not made by the seed) is left as
 * it is: after the first load the database is the source of truth (docs/decisions/0028-content-versions.md).
 */
export async function applySeedContent(db: Db, content: SeedContent): Promise<SeedReport> {
  return db.transaction().execute(async (trx) => {
    const changed = await changedItems(trx);
    const kept: string[] = [];
    const seedItem = async <K extends ContentKind>(kind: K, key: string, body: ContentBodies[K]) => {
      if (changed.has(itemId(kind, key))) {
        kept.push(itemId(kind, key));
        return;
      }
      await writeLive(trx, kind, key, body);
      const latest = await latestVersion(trx, kind, key);
      if (!latest || latest.status !== "published" || !sameBody(kind, latest.body, body)) {
        await addVersion(trx, { kind, key, status: "published", body }, seedAuthor, { recordEarlier: false });
      }
    };
    for (const country of content.countries) {
      await seedItem("country", String(country.id), { name: country.name, order: country.order, dateOrder: country.dates.order, dateStyle: country.dates.style, dateDigits: country.dates.digits ?? "latin" });
    }
    const countries = new Set((await trx.selectFrom("categories").select("id").execute()).map((row) => row.id));
    for (const issue of content.issues) {
      // The country an administrator deleted takes its seed issues with it: they are not made again.
      if (!countries.has(issue.country)) {
        kept.push(itemId("issue", String(issue.id)));
        continue;
      }
      await seedItem("issue", String(issue.id), {
        name: issue.name,
        countryId: issue.country,
        content: issue.content,
        guideId: issue.guideId,
        guidePath: issue.guidePath,
        modelAI: issue.modelAI,
        rephraseContent: issue.rephraseContent,
        rephraseVariables: issue.rephraseVariables,
        sensitive: issue.sensitive,
      });
    }
    await seedItem("home", HOME_KEY, content.home);
    for (const doc of content.legal) await seedItem("legal", doc.slug, { name: doc.name, content: doc.content });
    // The languages offered: set once; an administrator's choice is never overwritten.
    if (content.languages) {
      await trx
        .insertInto("site_settings")
        .values({ key: "languages", value: JSON.stringify(content.languages), updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column("key").doNothing())
        .execute();
    }
    return { kept };
  });
}

/** Loads the seed folder into the database, except what someone changed there. */
export async function seedDatabase(db: Db, dir: string): Promise<SeedReport> {
  return applySeedContent(db, await readSeedContent(dir));
}

/** Seeds only a database that has no content yet (first start); returns whether it seeded. */
export async function seedIfEmpty(db: Db, dir: string): Promise<boolean> {
  const existing = await db.selectFrom("categories").select("id").limit(1).executeTakeFirst();
  if (existing) return false;
  await seedDatabase(db, dir);
  return true;
}
