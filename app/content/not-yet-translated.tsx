import { findLanguage } from "~/i18n/languages";
import { useT } from "~/i18n/react";

/** A language's name in the words of another ("anglais" in French), or its own name where Intl has none. */
function nameIn(pageLanguage: string, language: string): string {
  try {
    return new Intl.DisplayNames([pageLanguage], { type: "language" }).of(language) ?? findLanguage(language)!.name;
  } catch {
    return findLanguage(language)!.name;
  }
}

/**
 * "This page is not yet available in Français": above a page whose text the organisation has not published in the
 * person's language, so the text below (marked with its own `lang`) is in `lang`. Nothing otherwise.
 */
export function NotYetTranslated({ lang }: { lang: string }) {
  const t = useT();
  const page = findLanguage(t.lang);
  const shown = findLanguage(lang);
  if (!page || !shown || page.code === shown.code) return null;
  return (
    <div className="notice" role="note">
      <p>{t.t("language.notYetAvailable", { language: page.name, fallback: nameIn(page.code, shown.code) })}</p>
    </div>
  );
}
