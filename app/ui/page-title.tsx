import { useT } from "~/i18n/react";
import { type Translator, translator } from "~/i18n/translator";

/** The site's name in English, as the spec writes it; other languages' come from their catalogue. */
export const SITE_NAME = "Legal Self-Help";

/**
 * A page's document title, "Sign in | Legal Self-Help", with "Error: " in front while the page shows errors:
 * the title is the first thing a screen reader says of a page that comes back from the server.
 */
export function pageTitle(title: string, showsErrors = false, t: Translator = translator("en")): string {
  return t.t("site.title", { title: showsErrors ? t.t("site.errorTitle", { title }) : title, site: t.t("site.name") });
}

/** The title element for a page whose title depends on its state (a form's errors); React puts it in the head. */
export function PageTitle({ title, errors = false }: { title: string; errors?: boolean }) {
  return <title>{pageTitle(title, errors, useT())}</title>;
}
