import { findLanguage } from "~/i18n/languages";
import { useT } from "~/i18n/react";

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
      <p>{t.t("language.notYetAvailable", { language: page.name, fallback: shown.name })}</p>
    </div>
  );
}
