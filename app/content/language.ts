import type { Translator } from "~/i18n/translator";
import type { Crumb } from "~/ui/breadcrumb";

/** The language the organisation writes its content in (issue and country names, pages, guides, sources). */
export const CONTENT_LANGUAGE = "en";

/**
 * The attributes of an element holding the organisation's content on a page in another language: its `lang`, and
 * `dir="auto"` (a right-to-left page keeps English text left to right). Nothing on a page in the content's language.
 */
export function theirs(t: Pick<Translator, "lang">): { lang?: string; dir?: "auto" } {
  return t.lang === CONTENT_LANGUAGE ? {} : { lang: CONTENT_LANGUAGE, dir: "auto" };
}

/** An issue's crumb: its name, or neutral words of ours when it is sensitive (docs/decisions/0041). */
export function issueCrumb(issue: { name: string; sensitive: boolean }, t: Translator, href?: string): Crumb {
  return issue.sensitive ? { label: t.t("common.sensitiveIssue"), href } : { label: issue.name, href, ...theirs(t) };
}

/** A country's crumb: its name, as the organisation writes it. */
export function countryCrumb(country: { id: number; name: string }, t: Translator): Crumb {
  return { label: country.name, href: `/?country=${country.id}`, ...theirs(t) };
}
