/**
 * Personal details taken out of a text before it leaves the server, and put back into the AI's answer.
 * Best effort by pattern: email addresses, identity numbers (US social security, Singapore NRIC/FIN, UK
 * National Insurance, Australian tax file numbers) and phone numbers; and, when the caller knows them (the
 * account's own name), names given to it. Amounts, dates and years stay.
 */

export type PlaceholderKind = "EMAIL" | "ID" | "PHONE" | "NAME";

export interface Redaction {
  /** The text with each personal detail replaced by a placeholder such as [EMAIL_1]. */
  text: string;
  /** Placeholder → the original detail. */
  replaced: Map<string, string>;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

const IDENTITY_NUMBER = new RegExp(
  [
    /\b\d{3}-\d{2}-\d{4}\b/, // US social security number
    /\b[STFGM]\d{7}[A-Z]\b/, // Singapore NRIC / FIN
    /\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/, // UK National Insurance number
    /\b\d{3} \d{3} \d{3}\b/, // Australian tax file number
  ]
    .map((pattern) => pattern.source)
    .join("|"),
  "gi",
);

// A run of digits with the separators phone numbers use; kept only when it has 8 to 15 digits and is not a
// date or a range of years.
const PHONE_CANDIDATE = /(?<![\w$€£.,/-])\+?\(?\d[\d ()-]{5,}\d(?![\w/]|[.,]\d)/g;
const DATE_OR_RANGE = /^(?:\d{1,4}[-./]\d{1,2}[-./]\d{1,4}|\d{4} ?- ?\d{4})$/;

function looksLikePhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, "").length;
  return digits >= 8 && digits <= 15 && !DATE_OR_RANGE.test(candidate.replace(/^\(/, "").trim());
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Replaces personal details with numbered placeholders; the same detail gets the same placeholder. `names` (e.g.
 * the person's first and last name) are replaced as whole words, in any case; names under 2 letters are ignored.
 */
export function redactPersonalData(input: string, names: readonly string[] = []): Redaction {
  const replaced = new Map<string, string>();
  const byValue = new Map<string, string>();
  const counts: Record<PlaceholderKind, number> = { EMAIL: 0, ID: 0, PHONE: 0, NAME: 0 };
  // `key`: what makes two details the same one (a name in any case is one name; it is put back as first written).
  const placeholder = (kind: PlaceholderKind, value: string, key = value) => {
    const known = byValue.get(key);
    if (known) return known;
    const name = `[${kind}_${++counts[kind]}]`;
    replaced.set(name, value);
    byValue.set(key, name);
    return name;
  };
  let text = input.replace(EMAIL, (email) => placeholder("EMAIL", email));
  text = text.replace(IDENTITY_NUMBER, (id) => placeholder("ID", id));
  text = text.replace(PHONE_CANDIDATE, (candidate) => (looksLikePhone(candidate) ? placeholder("PHONE", candidate) : candidate));
  const known = [...new Set(names.map((name) => name.trim()).filter((name) => name.length >= 2))].sort((a, b) => b.length - a.length);
  if (known.length) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${known.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`, "giu");
    text = text.replace(pattern, (name) => placeholder("NAME", name, `name:${name.toLowerCase()}`));
  }
  return { text, replaced };
}

/** Puts the original details back where the AI kept the placeholders. */
export function restorePersonalData(text: string, replaced: Map<string, string>): string {
  if (replaced.size === 0) return text;
  return text.replace(/\[(?:EMAIL|ID|PHONE|NAME)_\d+\]/g, (name) => replaced.get(name) ?? name);
}
