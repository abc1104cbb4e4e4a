// The language the AI answers a person in: theirs (docs/decisions/0044-content-in-every-language.md; issue 27).
// The model is told, and what it answers is checked: an answer in another writing system is refused, as an
// uncited one is. A pure module: no server code.
import { DEFAULT_LANGUAGE, findLanguage } from "~/i18n/languages";

/** The writing system of each language that is not written in Latin letters; every other is Latin. */
const SCRIPTS: Record<string, RegExp> = {
  "zh-Hans": /\p{Script=Han}/u,
  ta: /\p{Script=Tamil}/u,
  ar: /\p{Script=Arabic}/u,
};
const LATIN = /\p{Script=Latin}/u;

/** A shipped language's tag, or the default's. */
export function answerLanguage(code: string | null | undefined): string {
  return findLanguage(code)?.code ?? DEFAULT_LANGUAGE;
}

/** What the model is told about the language to write in. */
export function languageInstruction(language: string): string {
  const name = findLanguage(language)?.englishName ?? "English";
  if (language === DEFAULT_LANGUAGE) return `Write every "text" in ${name}.`;
  return `Write every "text" in ${name}: it is the person's language. The passages may be in another language: say what they say in ${name}, keeping names of laws, courts and forms as the passages write them.`;
}

/**
 * Whether a text is written in the language's writing system: at least half of its words are (names of laws or
 * places in Latin letters inside a Chinese sentence are fine). A word is a run of letters, and each Chinese
 * character one, as each carries about as much as a word. Placeholders for personal details ([EMAIL_1]) do not
 * count; a text of fewer than two words is not judged.
 */
export function writtenIn(text: string, language: string): boolean {
  const words = text.replace(/\[[A-Z]+_\d+\]/g, " ").match(/\p{Script=Han}|[\p{L}\p{M}]+/gu) ?? [];
  if (words.length < 2) return true;
  const script = SCRIPTS[language] ?? LATIN;
  return words.filter((word) => script.test(word)).length * 2 >= words.length;
}

/** The writing system most of a text's words are in (null for a text of fewer than two words). */
export function writingSystem(text: string): "Han" | "Tamil" | "Arabic" | "Latin" | "other" | null {
  const words = text.replace(/\[[A-Z]+_\d+\]/g, " ").match(/\p{Script=Han}|[\p{L}\p{M}]+/gu) ?? [];
  if (words.length < 2) return null;
  const counts = new Map<string, number>();
  for (const word of words) {
    const script = /\p{Script=Han}/u.test(word) ? "Han" : /\p{Script=Tamil}/u.test(word) ? "Tamil" : /\p{Script=Arabic}/u.test(word) ? "Arabic" : LATIN.test(word) ? "Latin" : "other";
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0] as "Han" | "Tamil" | "Arabic" | "Latin" | "other";
}

/** The reading-level formula (Flesch-Kincaid) is made for English: applied to nothing else. */
export function readingLevelApplies(language: string): boolean {
  return language === "en";
}
