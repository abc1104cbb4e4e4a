/**
 * Writing systems in printed documents (decision 0046): which characters a script's own font draws, which run
 * right to left, where a line may break between Chinese characters, and the Unicode Bidirectional Algorithm's
 * levels and reordering (bidi-js). Pure: no fonts, no PDF; the PDF writers (text-pdf.server.ts,
 * overlay-pdf.server.ts) use it.
 */
import bidiFactory from "bidi-js";

/** The scripts with a font of their own (Noto); everything else is Arimo/Tinos, else DejaVu. */
export type ScriptFont = "tamil" | "arabic" | "cjk";

/** The script font that draws a code point, by Unicode block, or null. */
export function scriptFontOf(cp: number): ScriptFont | null {
  if (cp >= 0x0b80 && cp <= 0x0bff) return "tamil";
  if (cp >= 0x11fc0 && cp <= 0x11fff) return "tamil";
  if ((cp >= 0x0600 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0x08a0 && cp <= 0x08ff)) return "arabic";
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) return "arabic";
  if (isCjk(cp)) return "cjk";
  return null;
}

/** Han, kana, Bopomofo, CJK punctuation and full-width forms. */
export function isCjk(cp: number): boolean {
  return (
    (cp >= 0x2e80 && cp <= 0x2fdf) || // radicals
    (cp >= 0x3000 && cp <= 0x303f) || // CJK punctuation
    (cp >= 0x3040 && cp <= 0x30ff) || // kana
    (cp >= 0x3100 && cp <= 0x312f) || // Bopomofo
    (cp >= 0x3190 && cp <= 0x31ff) ||
    (cp >= 0x3200 && cp <= 0x33ff) || // enclosed, compatibility
    (cp >= 0x3400 && cp <= 0x4dbf) || // extension A
    (cp >= 0x4e00 && cp <= 0x9fff) || // unified ideographs
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0xfe30 && cp <= 0xfe4f) || // compatibility forms
    (cp >= 0xff00 && cp <= 0xffef) || // full-width and half-width forms
    (cp >= 0x20000 && cp <= 0x2fa1f)
  );
}

const RIGHT_TO_LEFT_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

export function hasRightToLeft(text: string): boolean {
  return RIGHT_TO_LEFT_CHAR.test(text);
}

/** Languages written right to left (BCP 47 primary subtags). */
export function isRightToLeftLanguage(lang: string | undefined): boolean {
  return !!lang && /^(ar|he|iw|fa|ur|yi|ps|dv|ckb|sd|ug)(-|$)/i.test(lang);
}

/** Whether a line may break between two neighbouring characters of Chinese or Japanese text. */
export function breaksBetween(before: string, after: string): boolean {
  const a = before.codePointAt(0)!;
  const b = after.codePointAt(0)!;
  if (!isCjk(a) && !isCjk(b)) return false;
  // Kinsoku: closing punctuation never starts a line, opening punctuation never ends one.
  if (NO_LINE_START.has(after) || NO_LINE_END.has(before)) return false;
  return true;
}
const NO_LINE_START = new Set([..."，。、；：？！）」』】〉》〕］｝”’…‥・ー々〻ゝゞヽヾ,.;:!?)]}%"]);
const NO_LINE_END = new Set([..."（「『【〈《〔［｛“‘([{$"]);

// fontkit lays a run out right to left (and reverses its glyphs) when the first character of a script other
// than Common and Inherited is of a right-to-left script: the same test, so the writers know what it will do.
const FIRST_SCRIPT_CHAR = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
const RIGHT_TO_LEFT_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;

/** Whether fontkit (pdfkit's and pdf-lib's shaper) will lay this text out right to left. */
export function shapedRightToLeft(text: string): boolean {
  const first = FIRST_SCRIPT_CHAR.exec(text);
  return !!first && RIGHT_TO_LEFT_SCRIPT.test(first[0]);
}

const bidi = bidiFactory();

/**
 * The embedding level of each UTF-16 unit of a paragraph (even: left to right, odd: right to left) and the
 * paragraph's own level. The base direction is the first strong character's, unless the document's language
 * is written right to left and the paragraph holds right-to-left text; a paragraph with no strong character
 * takes the language's.
 */
export function paragraphLevels(text: string, lang?: string): { levels: Uint8Array; base: 0 | 1 } {
  const rtlLanguage = isRightToLeftLanguage(lang);
  let direction: "ltr" | "rtl" | "auto" = "auto";
  if (rtlLanguage && hasRightToLeft(text)) direction = "rtl";
  else if (!/[\p{L}]/u.test(text)) direction = rtlLanguage ? "rtl" : "ltr";
  const result = bidi.getEmbeddingLevels(text, direction);
  const base = (result.paragraphs[0]?.level ?? (direction === "rtl" ? 1 : 0)) % 2 === 1 ? 1 : 0;
  return { levels: result.levels, base };
}

/**
 * Pieces of one line in the order they are seen, left to right (UAX #9, L2): from the highest level down to the
 * lowest odd one, every sequence of pieces at that level or above is reversed. Each piece has one level.
 */
export function visualOrder<T extends { level: number }>(pieces: T[]): T[] {
  const out = [...pieces];
  if (!out.length) return out;
  const highest = Math.max(...out.map((p) => p.level));
  const lowestOdd = Math.min(...out.map((p) => (p.level % 2 ? p.level : p.level + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.level < level) continue;
      let j = i;
      while (j + 1 < out.length && out[j + 1]!.level >= level) j++;
      const reversed = out.slice(i, j + 1).reverse();
      out.splice(i, reversed.length, ...reversed);
      i = j;
    }
  }
  return out;
}

/**
 * Text of one piece as it must be handed to fontkit to come out in visual order: right-to-left text with no
 * right-to-left letter (brackets, punctuation, a Latin symbol) is mirrored and reversed here, since fontkit lays
 * it out left to right; left-to-right text that fontkit would reverse (Arabic-Indic digits) is reversed first.
 */
export function textForShaping(text: string, level: number): string {
  const rtl = level % 2 === 1;
  const fontkitRtl = shapedRightToLeft(text);
  if (rtl && !fontkitRtl) return [...text].reverse().map((ch) => bidi.getMirroredCharacter(ch) ?? ch).join("");
  if (!rtl && fontkitRtl) return [...text].reverse().join("");
  return text;
}

/** Whether text needs its clusters' logical text written beside the glyphs (/ActualText): Tamil's vowel signs
 * are drawn before the consonant they follow, so glyph order alone reads back wrongly. */
export function needsActualText(text: string): boolean {
  return /[\u0b80-\u0bff]/u.test(text);
}
