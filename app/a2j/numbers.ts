/**
 * Numbers as people type them in the guide's language (issue 27). A2J reads a number field with a point before
 * the decimals and strips commas ("1,250.50"), so "1250,50" typed in French would be 1250 times too much. In a
 * language that writes a decimal comma, a number typed with a comma is read that way ("1 250,50", "1.250,50" →
 * "1250.50"); one typed with a point alone is read as A2J reads it, as many people type it so.
 */

/** Digits of any script as Latin ones ("١٢٣" → "123", "১২" → "12"): what a keyboard in the person's language types. */
export function latinDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0)!;
    // Unicode puts each script's zero at a code point ending in 0 (or 6 for a few): find it by stepping back.
    for (let zero = code; zero > code - 10; zero--) {
      if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return String(code - zero);
    }
    return digit;
  });
}

/** The decimal separator a language writes with Latin digits ("," for fr, es, vi; "." for en, zh, ar…). */
export function decimalSeparator(language: string | undefined): "." | "," {
  if (!language) return ".";
  try {
    const parts = new Intl.NumberFormat(language, { numberingSystem: "latn" }).formatToParts(1.5);
    return parts.find((part) => part.type === "decimal")?.value === "," ? "," : ".";
  } catch {
    return ".";
  }
}

/**
 * What a person typed in a number field, as A2J reads numbers: in a decimal-comma language, a comma is the
 * decimal sign and points, spaces and apostrophes group thousands. Anything else is left for A2J's own reading
 * (and its error message) as it was typed.
 */
export function readTypedNumber(typed: string, language: string | undefined): string {
  typed = latinDigits(typed);
  if (decimalSeparator(language) !== "," || !typed.includes(",")) return typed;
  const text = typed.trim().replace(/[\s\u00a0\u202f'’]/g, "");
  // One comma, digits after it, and only digits, grouping points and a sign or dollar before it.
  const match = /^([-+]?\$?)([\d.]*\d)?,(\d+)(\s*\$)?$/.exec(text);
  if (!match) return typed;
  const [, sign = "", whole = "0", decimals, dollar = ""] = match;
  return `${sign}${whole.replace(/\./g, "")}.${decimals}${dollar.trim()}`;
}

/** A stored number shown back in a field in the guide's language: "1250.5" is "1250,5" in French. */
export function numberAsTyped(stored: string, language: string | undefined): string {
  return decimalSeparator(language) === "," && /^-?\d+\.\d+$/.test(stored) ? stored.replace(".", ",") : stored;
}
