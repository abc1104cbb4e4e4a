import { DEFAULT_LANGUAGE } from "~/i18n/languages";
import type { Translator } from "~/i18n/translator";
import type { Crumb } from "~/ui/breadcrumb";

/**
 * The attributes of an element holding the organisation's content (written in `lang`, by default the default
 * language) on a page in another language: its `lang`, and `dir="auto"` (a right-to-left page keeps English text
 * left to right). Nothing when the text is in the page's language.
 */
export function theirs(t: Pick<Translator, "lang">, lang: string = DEFAULT_LANGUAGE): { lang?: string; dir?: "auto" } {
  return t.lang === lang ? {} : { lang, dir: "auto" };
}

/** An issue's crumb: its name, or neutral words of ours when it is sensitive (docs/decisions/0041). */
export function issueCrumb(issue: { name: string; sensitive: boolean; lang?: { name: string } }, t: Translator, href?: string): Crumb {
  return issue.sensitive ? { label: t.t("common.sensitiveIssue"), href } : { label: issue.name, href, ...theirs(t, issue.lang?.name) };
}

/** A country's crumb: its name, as the organisation writes it. */
export function countryCrumb(country: { id: number; name: string; lang?: { name: string } }, t: Translator): Crumb {
  return { label: country.name, href: `/?country=${country.id}`, ...theirs(t, country.lang?.name) };
}
