// The product's words in a person's language: ICU MessageFormat (plurals, selects, numbers and dates through
// Intl) by FormatJS's intl-messageformat, from the catalogues in app/i18n/catalogues/ (docs/decisions/0043).
// Everything renders on the server, so no catalogue and no formatter is ever sent to a browser.
import { IntlMessageFormat } from "intl-messageformat";
import ar from "./catalogues/ar.json";
import cy from "./catalogues/cy.json";
import en from "./catalogues/en.json";
import es from "./catalogues/es.json";
import fr from "./catalogues/fr.json";
import ms from "./catalogues/ms.json";
import ta from "./catalogues/ta.json";
import vi from "./catalogues/vi.json";
import zhHans from "./catalogues/zh-Hans.json";
import bn from "./viewer-catalogues/bn.json";
import cld from "./viewer-catalogues/cld.json";
import he from "./viewer-catalogues/he.json";
import hmn from "./viewer-catalogues/hmn.json";
import km from "./viewer-catalogues/km.json";
import ko from "./viewer-catalogues/ko.json";
import nl from "./viewer-catalogues/nl.json";
import pl from "./viewer-catalogues/pl.json";
import ru from "./viewer-catalogues/ru.json";
import sq from "./viewer-catalogues/sq.json";
import th from "./viewer-catalogues/th.json";
import { findViewerLanguage, type ViewerOnlyCode } from "./viewer-languages";
import { DEFAULT_LANGUAGE, findLanguage, type LanguageCode, PSEUDO_LANGUAGE, type TextDirection } from "./languages";
import { PSEUDO_CLOSE, PSEUDO_OPEN, pseudoMessage } from "./pseudo";

/** Every key of the English catalogue; the other catalogues have exactly these (app/i18n/catalogues.test.ts). */
export type MessageKey = keyof typeof en;
export type MessageValue = string | number | Date | null | undefined;
export type MessageValues = Record<string, MessageValue>;
type Catalogue = Record<string, string>;

export const catalogues: Record<LanguageCode, Catalogue> = { en, "zh-Hans": zhHans, ms, ta, fr, cy, es, vi, ar };

/**
 * The catalogues of the languages only the interview viewer speaks (app/i18n/viewer-languages.ts): the `viewer.*`
 * keys alone; any other key falls back to English (docs/decisions/0047).
 */
export const viewerCatalogues: Record<ViewerOnlyCode, Catalogue> = { sq, bn, cld, nl, he, hmn, ko, km, pl, ru, th };

/** The words of one language, with the organisation's published corrections (overrides) on top. */
export interface Translator {
  /** The `lang` attribute: a shipped language's tag (or the pseudo-language's). */
  readonly lang: string;
  readonly dir: TextDirection;
  /** A message, its {placeholders} filled in. */
  t(key: MessageKey, values?: MessageValues): string;
  /**
   * A message kept as a reference (validation errors, refusals: `messageRef`), or a text that is not ours (a
   * guide's, a person's), shown as it is.
   */
  message(textOrRef: string): string;
  /** A date in the language's words ("25 November 2026", "2026年11月25日"). */
  date(value: Date | string | number, options?: Intl.DateTimeFormatOptions): string;
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /**
   * A message with markup: each <tag>…</tag> is drawn by the function of that name (a link inside a sentence),
   * so translators can move it where their grammar needs it. Returns the pieces, in order.
   */
  rich<Part>(key: MessageKey, values: MessageValues, tags: Record<string, (chunks: (string | Part)[]) => Part>): (string | Part)[];
  /** "a, b and c" in the language. */
  list(items: string[], type?: "conjunction" | "disjunction"): string;
}

const REF_SEPARATOR = "?";

/**
 * A message to be put into words later, where the language is known: a validation message in a zod schema, a
 * refusal returned by a capability. "auth.tooManyAttempts?minutes=5" names the key and its values.
 */
export function messageRef(key: MessageKey, values?: Record<string, string | number>): string {
  if (!values || Object.keys(values).length === 0) return key;
  return `${key}${REF_SEPARATOR}${new URLSearchParams(Object.entries(values).map(([name, value]) => [name, String(value)]))}`;
}

function readRef(text: string): { key: MessageKey; values: MessageValues } | null {
  const at = text.indexOf(REF_SEPARATOR);
  const key = at === -1 ? text : text.slice(0, at);
  if (!Object.hasOwn(en, key)) return null;
  const values: MessageValues = {};
  if (at !== -1) {
    for (const [name, value] of new URLSearchParams(text.slice(at + 1))) values[name] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return { key: key as MessageKey, values };
}

/** Interface words an administrator has published per language (content kind "strings"): app/i18n/overrides.server.ts. */
let publishedOverrides: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map();

export function setInterfaceOverrides(overrides: ReadonlyMap<string, Readonly<Record<string, string>>>): void {
  publishedOverrides = overrides;
  translators.clear();
}

const translators = new Map<string, Translator>();

/**
 * The translator of a language (a shipped one, the pseudo-language, a language only the viewer speaks, or else the
 * default). Cached.
 */
export function translator(code: string): Translator {
  const cached = translators.get(code);
  if (cached) return cached;
  const made = makeTranslator(code);
  translators.set(code, made);
  return made;
}

function makeTranslator(code: string): Translator {
  const pseudo = code === PSEUDO_LANGUAGE;
  const language = pseudo ? findLanguage(DEFAULT_LANGUAGE)! : (findLanguage(code) ?? findViewerLanguage(code) ?? findLanguage(DEFAULT_LANGUAGE)!);
  const lang = pseudo ? PSEUDO_LANGUAGE : language.code;
  // Intl has no data for the pseudo-language: its numbers, dates and plurals are English's. English dates are
  // written day first ("25 November 2026"), as in three of the four countries served; a country's own order
  // applies where a date belongs to it (app/a2j/dates.ts).
  const intlLocale = pseudo || lang === "en" ? "en-GB" : lang === "fr" ? "fr-CA" : lang;
  const base = catalogues[language.code as LanguageCode] ?? viewerCatalogues[language.code as ViewerOnlyCode];
  const overrides = publishedOverrides.get(lang) ?? {};
  const formats = new Map<string, IntlMessageFormat>();
  const richFormats = new Map<string, IntlMessageFormat>();

  // Plain messages never parse tags, so a "<" a translator writes is shown as it is.
  function compiled(key: string, withTags: boolean): IntlMessageFormat {
    const cache = withTags ? richFormats : formats;
    let message = cache.get(key);
    if (!message) {
      const shipped = base[key] ?? (en as Catalogue)[key] ?? key;
      const make = (source: string) => new IntlMessageFormat(pseudo ? pseudoMessage(source) : source, intlLocale, undefined, { ignoreTag: !withTags });
      // A correction is checked when it is saved (app/content/words.server.ts); one that still does not compile
      // gives way to the shipped message rather than break the page.
      try {
        message = make(overrides[key] ?? shipped);
      } catch {
        message = make(shipped);
      }
      cache.set(key, message);
    }
    return message;
  }

  function format(key: string, values?: MessageValues): string {
    const text = compiled(key, false).format(values as Record<string, string | number | Date>);
    return Array.isArray(text) ? text.join("") : String(text);
  }

  // In the pseudo-language a date, number or list we put into words is ours too: bracketed as a message is, so a
  // month's name ("Nov") is not taken for a word left out of the catalogue.
  const ours = (text: string) => (pseudo ? `${PSEUDO_OPEN}${text}${PSEUDO_CLOSE}` : text);

  const t: Translator = {
    lang,
    dir: language.dir,
    t: (key, values) => format(key, values),
    message(textOrRef) {
      const ref = readRef(textOrRef);
      return ref ? format(ref.key, ref.values) : textOrRef;
    },
    rich<Part>(key: MessageKey, values: MessageValues, tags: Record<string, (chunks: (string | Part)[]) => Part>) {
      const parts = compiled(key, true).format<Part>({ ...values, ...tags } as Record<string, string | number | Date | Part | ((chunks: (string | Part)[]) => Part)>);
      return Array.isArray(parts) ? (parts as (string | Part)[]) : [parts as string | Part];
    },
    date: (value, options = { dateStyle: "long" }) => ours(new Intl.DateTimeFormat(intlLocale, options).format(new Date(value))),
    number: (value, options) => ours(new Intl.NumberFormat(intlLocale, options).format(value)),
    list: (items, type = "conjunction") => ours(new Intl.ListFormat(intlLocale, { style: "long", type }).format(items)),
  };
  return t;
}
