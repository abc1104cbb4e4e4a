// The languages the interview viewer speaks (docs/decisions/0047-the-viewer-speaks-the-guides-language.md): the
// viewer writes its own words in the GUIDE's language, not the page's. It speaks the nine languages of the product
// (their catalogues in app/i18n/catalogues/ hold the `viewer.*` keys too) and every other language CCALI's A2J
// viewer ships its interface in, whose catalogues (app/i18n/viewer-catalogues/<tag>.json) hold only the
// `viewer.*` keys. A guide's `language` attribute ("en", "zh-cn", "mkh"…) is matched to one of them; an unknown
// one gives English.
import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LANGUAGE, type Language, languages } from "./languages";

export interface ViewerLanguage extends Pick<Language, "code" | "name" | "englishName" | "dir" | "review"> {
  /** Only the viewer speaks it: its catalogue holds the `viewer.*` keys alone (the rest of a page stays English). */
  viewerOnly: boolean;
}

/**
 * The languages of CCALI's A2J viewer that the product does not speak as a whole. Tags are BCP 47: Khmer is `km`
 * (A2J writes "mkh", Mon-Khmer, the family's code); Chaldean is `cld` (Chaldean Neo-Aramaic), written in the
 * Syriac script, right to left; Hmong is `hmn` as A2J writes it (the words are White Hmong, in the Romanized
 * Popular Alphabet).
 */
export const viewerOnlyLanguages = [
  { code: "sq", name: "Shqip", englishName: "Albanian", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "bn", name: "বাংলা", englishName: "Bengali", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "cld", name: "ܣܘܪܝܬ", englishName: "Chaldean", dir: "rtl", review: "drafted", viewerOnly: true },
  { code: "nl", name: "Nederlands", englishName: "Dutch", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "he", name: "עברית", englishName: "Hebrew", dir: "rtl", review: "drafted", viewerOnly: true },
  { code: "hmn", name: "Hmoob", englishName: "Hmong", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "ko", name: "한국어", englishName: "Korean", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "km", name: "ខ្មែរ", englishName: "Khmer", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "pl", name: "Polski", englishName: "Polish", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "ru", name: "Русский", englishName: "Russian", dir: "ltr", review: "drafted", viewerOnly: true },
  { code: "th", name: "ไทย", englishName: "Thai", dir: "ltr", review: "drafted", viewerOnly: true },
] as const satisfies readonly ViewerLanguage[];

export type ViewerOnlyCode = (typeof viewerOnlyLanguages)[number]["code"];

/** Every language the viewer speaks: the product's nine, then the viewer's own. */
export const viewerLanguages: readonly ViewerLanguage[] = [
  ...languages.map(({ code, name, englishName, dir, review }) => ({ code, name, englishName, dir, review, viewerOnly: false })),
  ...viewerOnlyLanguages,
];

const byCode = new Map(viewerLanguages.map((language) => [language.code.toLowerCase(), language]));

/** A language the viewer speaks, by its tag in any case. */
export function findViewerLanguage(code: string | null | undefined): ViewerLanguage | undefined {
  return code ? byCode.get(code.toLowerCase()) : undefined;
}

/**
 * Codes A2J writes that are not the BCP 47 tag of our catalogue, or that CLDR's matching cannot see through: "mkh"
 * (Mon-Khmer, a family) is Khmer; "iw" and "in" are Hebrew's and Indonesian's old codes (Malay's nearest);
 * "zh-cn", "zh" and "zh-sg" are written in simplified characters. Traditional Chinese (zh-tw, zh-hk) has no
 * catalogue: it is English, as CLDR's matching says. "syr" is how a guide's language is stored for A2J's "cld"
 * (the BCP 47 registry folded Chaldean Neo-Aramaic into Syriac: app/guides/guide-language.ts).
 */
const A2J_CODES: Readonly<Record<string, string>> = { mkh: "km", iw: "he", in: "ms", "zh-cn": "zh-Hans", zh: "zh-Hans", "zh-sg": "zh-Hans", chaldean: "cld", syr: "cld" };

const tags = viewerLanguages.map((language) => language.code);

/**
 * The catalogue for a guide's `language` attribute: "en-US" is English, "fr" French, "zh-cn" Chinese
 * (simplified), "mkh" Khmer, "he" Hebrew; an unknown or empty one is English. CLDR's "best fit" matching
 * (FormatJS's intl-localematcher) finds a region's or script's language ("es-MX" is Spanish, "fr-CA" French).
 */
export function viewerLanguageOf(a2jLanguage: string | null | undefined): ViewerLanguage {
  const english = findViewerLanguage(DEFAULT_LANGUAGE)!;
  const typed = (a2jLanguage ?? "").trim().replace(/_/g, "-").toLowerCase();
  if (typed === "") return english;
  // An old code keeps its meaning with a region ("iw-IL"); "zh" alone does not ("zh-TW" is not simplified).
  const prefix = typed.split("-")[0]!;
  const alias = A2J_CODES[typed] ?? (prefix !== "zh" ? A2J_CODES[prefix] : undefined);
  if (alias) return findViewerLanguage(alias) ?? english;
  const exact = findViewerLanguage(typed);
  if (exact) return exact;
  try {
    return findViewerLanguage(match([typed], tags, DEFAULT_LANGUAGE, { algorithm: "best fit" })) ?? english;
  } catch {
    // Not a well-formed tag ("English", "??"): English.
    return english;
  }
}
