// Where each editable item lives under /admin/content: /admin/content/pages/home|about|terms|privacy,
// /admin/content/countries/:id and /admin/content/issues/:id ("new" for one being added).
import { type ContentKind, HOME_KEY, legalSlugs } from "../../db/content-versions";

export type Section = "pages" | "countries" | "issues";

export interface ItemRef {
  kind: ContentKind;
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

export function itemHref(kind: ContentKind, key: string): string {
  if (kind === "home" || kind === "legal") return `/admin/content/pages/${key}`;
  return `/admin/content/${kind === "country" ? "countries" : "issues"}/${key}`;
}

/** How the pages name an item: a page by its title, a country or issue by its name. */
export function itemTitle(kind: ContentKind, key: string, name?: string | null): string {
  if (kind === "home" || kind === "legal") return pageTitles[key] ?? key;
  return name || `${kind === "country" ? "Country" : "Issue"} ${key}`;
}
