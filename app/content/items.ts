// Where each editable item lives under /admin/content: /admin/content/pages/home|about|terms|privacy,
// /admin/content/countries/:id and /admin/content/issues/:id ("new" for one being added); an item in another
// language at …/in/:language (/admin/content/issues/3/in/fr); the interface's words in a language at
// /admin/content/words/:language. Each has its history at …/history and its versions at …/versions/:n.
import { type ContentKind, HOME_KEY, type ItemKind, legalSlugs, translationKey } from "../../db/content-versions";
import { DEFAULT_LANGUAGE, findLanguage } from "~/i18n/languages";
import { findViewerLanguage } from "~/i18n/viewer-languages";

export type Section = "pages" | "countries" | "issues";

export interface ItemRef {
  kind: ItemKind;
  /** Null for a new country or issue. */
  key: string | null;
  section: Section;
  /** The URL's last segment: the key, or "new". */
  urlKey: string;
}

export const pageTitles: Record<string, string> = { home: "Home page", about: "About", terms: "Terms and conditions", privacy: "Privacy policy" };

/** The item a URL names, or null when it names none (the route answers 404). */
export function itemFromUrl(section: string | undefined, urlKey: string | undefined): ItemRef | null {
  if (!urlKey) return null;
  if (section === "pages") {
    if (urlKey === HOME_KEY) return { kind: "home", key: HOME_KEY, section, urlKey };
    return (legalSlugs as readonly string[]).includes(urlKey) ? { kind: "legal", key: urlKey, section, urlKey } : null;
  }
  if (section !== "countries" && section !== "issues") return null;
  const kind = section === "countries" ? "country" : "issue";
  if (urlKey === "new") return { kind, key: null, section, urlKey };
  return /^[1-9]\d{0,9}$/.test(urlKey) ? { kind, key: urlKey, section, urlKey } : null;
}

/** A language content can be written in besides the default: a shipped one, named by its exact tag. */
export function translationLanguage(code: string | undefined): string | null {
  const language = findLanguage(code);
  return language && language.code === code && language.code !== DEFAULT_LANGUAGE ? language.code : null;
}

export function itemHref(kind: ItemKind, key: string, language?: string | null): string {
  const base = kind === "home" || kind === "legal" ? `/admin/content/pages/${key}` : `/admin/content/${kind === "country" ? "countries" : "issues"}/${key}`;
  return language ? `${base}/in/${language}` : base;
}

/**
 * A language whose interface words an administrator may correct: a shipped one besides the default, or one only
 * the interview viewer speaks (its `viewer.*` words alone: docs/decisions/0047-the-viewer-speaks-the-guides-language.md).
 */
export function wordsLanguage(code: string | undefined): { code: string; name: string; englishName: string; viewerOnly: boolean } | null {
  const shipped = translationLanguage(code);
  if (shipped) {
    const language = findLanguage(shipped)!;
    return { code: language.code, name: language.name, englishName: language.englishName, viewerOnly: false };
  }
  const viewerOnly = findViewerLanguage(code);
  return viewerOnly?.viewerOnly && viewerOnly.code === code ? { code: viewerOnly.code, name: viewerOnly.name, englishName: viewerOnly.englishName, viewerOnly: true } : null;
}

export function wordsHref(language: string): string {
  return `/admin/content/words/${language}`;
}

/** How the pages name an item: a page by its title, a country or issue by its name. */
export function itemTitle(kind: ItemKind, key: string, name?: string | null): string {
  if (kind === "home" || kind === "legal") return pageTitles[key] ?? key;
  return name || `${kind === "country" ? "Country" : "Issue"} ${key}`;
}

/** Something with versions, as the history and version pages name it: an item, its translation, or words. */
export interface VersionedRef {
  kind: ContentKind;
  key: string;
  /** Its edit page; its history and versions are under it. */
  href: string;
  /** Its name on those pages, from the name its newest version gives it. */
  title(name: string | null): string;
  /** The item it translates (null for an item itself, and for words). */
  item: { kind: ItemKind; key: string } | null;
}

/** What /admin/content/:section/:key[/in/:language] names for its history and versions; null: 404. */
export function versionedFromUrl(params: { section?: string; key?: string; language?: string }): VersionedRef | null {
  if (params.section === "words") {
    const language = wordsLanguage(params.key);
    if (!language || params.language !== undefined) return null;
    return { kind: "strings", key: language.code, href: wordsHref(language.code), title: () => `Interface words in ${language.englishName}`, item: null };
  }
  const item = itemFromUrl(params.section, params.key);
  if (!item?.key) return null;
  const { kind, key } = item;
  if (params.language === undefined) return { kind, key, href: itemHref(kind, key), title: (name) => itemTitle(kind, key, name), item: null };
  const language = translationLanguage(params.language);
  if (!language) return null;
  return {
    kind: "translation",
    key: translationKey(kind, key, language),
    href: itemHref(kind, key, language),
    title: (name) => `${itemTitle(kind, key, name)} in ${findLanguage(language)!.englishName}`,
    item: { kind, key },
  };
}

/** The name a version's content gives its item (a translation's translated name), if any. */
export function nameIn(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  if ("fields" in body) return ((body as { fields: Record<string, string> }).fields.name ?? null) || null;
  return "name" in body && typeof body.name === "string" ? body.name : null;
}
