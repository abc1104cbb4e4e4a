import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LANGUAGE, findLanguage, PSEUDO_LANGUAGE } from "./languages";

/** The name of the cookie that keeps a person's choice of language (a year; no account needed). */
export const LANGUAGE_COOKIE = "lang";

export interface LanguageSignals {
  /** `?lang=` of the address: a shared link, or the switcher. */
  query?: string | null;
  /** The `lang` cookie: a choice made earlier on this browser. */
  cookie?: string | null;
  /** A signed-in person's language, kept in their account. */
  account?: string | null;
  /** The browser's Accept-Language header: the first visit. */
  acceptLanguage?: string | null;
}

export interface LanguageChoice {
  language: string;
  /** Where it came from: a choice (`query`) is kept in the cookie and the account. */
  source: keyof LanguageSignals | "default";
}

/**
 * The language of a page, among those the organisation offers: what the address asks for, else the person's
 * earlier choice on this browser, else their account's, else the best match of the browser's languages, else the
 * organisation's default. A tag that is not offered is passed over, never an error.
 */
export function chooseLanguage(signals: LanguageSignals, offered: readonly string[], { pseudo = false } = {}): LanguageChoice {
  const offeredCode = (tag: string | null | undefined) => {
    if (pseudo && tag?.toLowerCase() === PSEUDO_LANGUAGE.toLowerCase()) return PSEUDO_LANGUAGE;
    const code = findLanguage(tag)?.code;
    return code && offered.includes(code) ? code : undefined;
  };
  for (const source of ["query", "cookie", "account"] as const) {
    const code = offeredCode(signals[source]);
    if (code) return { language: code, source };
  }
  const requested = acceptedLanguages(signals.acceptLanguage);
  const fallback = offered.includes(DEFAULT_LANGUAGE) ? DEFAULT_LANGUAGE : (offered[0] ?? DEFAULT_LANGUAGE);
  if (requested.length && offered.length) {
    const best = match(requested, [...offered], "und", { algorithm: "best fit" });
    if (best !== "und") return { language: best, source: "acceptLanguage" };
  }
  return { language: fallback, source: "default" };
}

/** The tags of an Accept-Language header, most wanted first ("fr-CA,fr;q=0.8,*;q=0.1" → fr-CA, fr). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, quality }) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) && quality > 0 && Number.isFinite(quality))
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag)
    .filter((tag) => {
      try {
        return Intl.getCanonicalLocales(tag).length === 1;
      } catch {
        return false;
      }
    });
}
