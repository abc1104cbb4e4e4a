// The languages the product's own words are written in (docs/decisions/0043-languages.md). Each catalogue in
// app/i18n/catalogues/ has the same keys as English's; `review` says honestly whether a fluent reviewer has read
// it. A drafted language is offered to people only when the organisation turns it on (administration).

export type TextDirection = "ltr" | "rtl";

export interface Language {
  /** A BCP 47 tag: `lang` attributes, cookies, `?lang=`. */
  code: string;
  /** The language named in itself, as the switcher shows it. */
  name: string;
  /** Its name in English, for the administration. */
  englishName: string;
  dir: TextDirection;
  /**
   * "latin": the site's subset Roboto covers it (English, French, Spanish, Welsh, Malay); "system": the person's own
   * fonts (Chinese, Tamil, Arabic would need multi-megabyte web fonts; Vietnamese three of Roboto's files, 45 kB).
   */
  fonts: "latin" | "system";
  review: "reviewed" | "drafted";
}

export const languages = [
  { code: "en", name: "English", englishName: "English", dir: "ltr", fonts: "latin", review: "reviewed" },
  { code: "zh-Hans", name: "中文", englishName: "Chinese (simplified)", dir: "ltr", fonts: "system", review: "drafted" },
  { code: "ms", name: "Bahasa Melayu", englishName: "Malay", dir: "ltr", fonts: "latin", review: "drafted" },
  { code: "ta", name: "தமிழ்", englishName: "Tamil", dir: "ltr", fonts: "system", review: "drafted" },
  { code: "fr", name: "Français", englishName: "French (Canada)", dir: "ltr", fonts: "latin", review: "drafted" },
  { code: "cy", name: "Cymraeg", englishName: "Welsh", dir: "ltr", fonts: "latin", review: "drafted" },
  { code: "es", name: "Español", englishName: "Spanish", dir: "ltr", fonts: "latin", review: "drafted" },
  { code: "vi", name: "Tiếng Việt", englishName: "Vietnamese", dir: "ltr", fonts: "system", review: "drafted" },
  { code: "ar", name: "العربية", englishName: "Arabic", dir: "rtl", fonts: "system", review: "drafted" },
] as const satisfies readonly Language[];

export type LanguageCode = (typeof languages)[number]["code"];

/** The organisation's default language: every text exists in it, and a missing translation falls back to it. */
export const DEFAULT_LANGUAGE: LanguageCode = "en";

/**
 * Accented, 40 % longer English, for finding words that are not in the catalogue (a test renders every page in
 * it). Never offered to people: only a server started with PSEUDO_LANGUAGE=true answers `?lang=en-XA`.
 */
export const PSEUDO_LANGUAGE = "en-XA";

const byCode = new Map<string, Language>(languages.map((language) => [language.code.toLowerCase(), language]));

/** A shipped language by its tag, whatever its case ("zh-hans" is "zh-Hans"). */
export function findLanguage(code: string | null | undefined): Language | undefined {
  return code ? byCode.get(code.toLowerCase()) : undefined;
}

export function isLanguageCode(code: string): code is LanguageCode {
  return byCode.has(code.toLowerCase()) && findLanguage(code)!.code === code;
}
