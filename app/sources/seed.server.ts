// The seed's sources (SEED_DIR/sources/*.md: front matter title, url, country, and optionally issue and language, a
// shipped language's tag such as `fr` or `zh-Hans`, English when not said). Only sources that are missing are added:
// what an administrator added, changed or deleted is theirs.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Db } from "../../db/database";
import { parseFrontMatter } from "../../db/seed";
import { database } from "~/db.server";
import { isLanguageCode, languages } from "~/i18n/languages";
import { addSource } from "./sources.server";

const seedSourceAttributes = z.object({
  title: z.string().min(1),
  url: z.url({ protocol: /^https?$/ }),
  country: z.coerce.number().int(),
  issue: z.coerce.number().int().optional(),
  /** The language the source is written in: passages are searched with its words' rules, and shown marked with it. */
  language: z
    .string()
    .refine(isLanguageCode, { message: `not a shipped language's tag (one of ${languages.map((l) => l.code).join(", ")})` })
    .optional(),
});

/**
 * Adds each seed source whose title is not yet among its country's sources. With `onlyIfNone` (at start-up) nothing
 * is added once the database has any source, so a seed source an administrator deleted does not come back.
 * Returns the titles added.
 */
export async function importSeedSources(seedDir: string, options: { onlyIfNone: boolean }, db: Db = database()): Promise<string[]> {
  const dir = path.join(seedDir, "sources");
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".md")).sort();
  if (!names.length) return [];
  if (options.onlyIfNone && (await db.selectFrom("sources").select("id").limit(1).executeTakeFirst())) return [];
  const added: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const { attributes, body } = parseFrontMatter(await readFile(file, "utf8"));
    const parsed = seedSourceAttributes.safeParse(attributes);
    if (!parsed.success) throw new Error(`Seed source ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    const { title, url, country, issue, language } = parsed.data;
    const existing = await db.selectFrom("sources").select("id").where("country_id", "=", country).where("title", "=", title).executeTakeFirst();
    if (existing) continue;
    const result = await addSource({ countryId: country, issueId: issue ?? null, title, url, ...(language ? { language } : {}) }, { markdown: body }, null, db);
    if (!result.ok) throw new Error(`Seed source ${file}: ${result.message}`);
    added.push(title);
  }
  return added;
}
