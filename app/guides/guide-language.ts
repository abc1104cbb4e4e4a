// The language a guide is written in, and which of an issue's guides a person gets
// (docs/decisions/0048-guides-per-language.md). Pure: no I/O.
/**
 * A guide's language as a canonical BCP 47 tag: A2J's `language` ("en", "zh-cn", "hmn", "cld"…) or what an
 * administrator chose. A guide that names none, or names something that is no tag, is English, as A2J assumes.
 */
export function guideLanguageTag(named: string | null | undefined): string {
  const trimmed = named?.trim();
  if (!trimmed) return "en";
  try {
    return Intl.getCanonicalLocales(trimmed)[0] ?? "en";
  } catch {
    return "en";
  }
}

/**
 * The languages administrators choose a guide's language from: every language CCALI's A2J viewer speaks and every
 * language of the product, with the A2J tags guides use (a guide's own tag is offered too when it is none of these).
 */
export const GUIDE_LANGUAGES = [
  "en",
  "ar",
  "bn",
  "cy",
  "es",
  "fr",
  "he",
  "hmn",
  "km",
  "ko",
  "ms",
  "nl",
  "pl",
  "ru",
  "sq",
  // Chaldean: A2J writes "cld", a tag since folded into Syriac ("syr"), the script it is written in.
  "syr",
  "ta",
  "th",
  "vi",
  "zh-CN",
  "zh-TW",
] as const;

/** A language's name, in English (the administration's language) or in the language of a page. */
export function languageName(tag: string, inLanguage = "en"): string {
  try {
    const name = new Intl.DisplayNames([inLanguage, "en"], { type: "language", fallback: "none" }).of(tag);
    if (name) return name;
  } catch {
    // An unknown tag: its code is all there is to show.
  }
  return tag;
}

/** One of an issue's guides: its default one, or one that is the same interview in another language. */
export interface GuideInLanguage {
  guideId: string;
  language: string;
}

/** A tag's language and script, as a reader needs them to match ("zh-CN" and "zh-Hans" are both zh-Hans); null if no tag. */
function readAs(tag: string): { language: string; script: string | undefined; region: string | undefined } | null {
  try {
    const full = new Intl.Locale(tag).maximize();
    return { language: full.language, script: full.script, region: full.region };
  } catch {
    return null;
  }
}

/** Whether a reader of `personLanguage` reads what is written in `written`: the same language in the same script. */
export function readsIn(personLanguage: string, written: string): boolean {
  const person = readAs(personLanguage);
  const text = readAs(written);
  return Boolean(person && text && person.language === text.language && person.script === text.script);
}

/**
 * The guide a person gets, among the published guides (the default first): one in their language and
 * script (zh-Hans finds zh-CN but not zh-TW; fr-CA finds fr, and prefers fr-CA), else the default.
 * `inTheirLanguage` is false when the guide is in another language than theirs: the interview then says so. Not
 * CLDR's "best fit", which sends readers of Tamil or Welsh to English as if it were their language.
 */
export function chooseGuide(guides: readonly GuideInLanguage[], personLanguage: string): GuideInLanguage & { inTheirLanguage: boolean } {
  const readable = guides.filter((guide) => readsIn(personLanguage, guide.language));
  const region = readAs(personLanguage)?.region;
  const found = readable.find((guide) => readAs(guide.language)?.region === region) ?? readable[0];
  return found ? { ...found, inTheirLanguage: true } : { ...guides[0]!, inTheirLanguage: false };
}
