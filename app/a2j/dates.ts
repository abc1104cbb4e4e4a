/**
 * Dates as whole days since 1970-01-01, computed in UTC so that no time zone or daylight-saving
 * shift can move a date. "Today" is always passed in by the caller.
 */
import { latinDigits } from "./numbers";
import type { MessageSays } from "./messages";

const MS_PER_DAY = 86_400_000;

/** A calendar date. */
export interface Ymd {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

/** Days since 1970-01-01 for a calendar date, or null if the date does not exist. */
export function ymdToDays(year: number, month: number, day: number): number | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1 || year > 9999) return null;
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  // Date.UTC maps years 0..99 to 1900..1999; fix that.
  if (year < 100) d.setUTCFullYear(year);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return Math.round(d.getTime() / MS_PER_DAY);
}

/** Calendar date for a day count. */
export function daysToYmd(days: number): Ymd {
  const d = new Date(Math.floor(days) * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function pad2(n: number): string {
  return n < 10 ? "0" + n : String(n);
}

/** `MM/DD/YYYY` for a day count. */
export function formatDays(days: number): string {
  const { year, month, day } = daysToYmd(days);
  return `${pad2(month)}/${pad2(day)}/${String(year).padStart(4, "0")}`;
}

/** Expand a two-digit year: 00-68 → 2000-2068, 69-99 → 1969-1999. */
function expandYear(y: string): number {
  const n = parseInt(y, 10);
  if (y.length <= 2) return n <= 68 ? 2000 + n : 1900 + n;
  return n;
}

const MDY_RE = /^\s*(\d{1,2})\s*[/\-.]\s*(\d{1,2})\s*[/\-.]\s*(\d{2}|\d{4})\s*$/;

/** Does this string look like an m/d/y date with slashes (the shape A2J reads from Text as a date)? */
export function looksLikeMdy(s: string): boolean {
  return /^\s*\d{1,2}\/\d{1,2}\/(\d{2}|\d{4})\s*$/.test(s);
}

/**
 * Parse a US date in the forms A2J accepts: `m/d/yyyy`, `m/d/yy`, `m-d-yyyy`, `MMDDYYYY`, `MMDDYY`.
 * Returns days since the epoch or null.
 */
export function parseMdy(s: string): number | null {
  const m = MDY_RE.exec(s);
  if (m) return ymdToDays(expandYear(m[3] ?? ""), parseInt(m[1] ?? "", 10), parseInt(m[2] ?? "", 10));
  const compact = /^\s*(\d{2})(\d{2})(\d{2}|\d{4})\s*$/.exec(s);
  if (compact) {
    return ymdToDays(expandYear(compact[3] ?? ""), parseInt(compact[1] ?? "", 10), parseInt(compact[2] ?? "", 10));
  }
  return null;
}

/** Parse an ISO `yyyy-mm-dd` date (as HTML date inputs send) into days. */
export function parseIsoDate(s: string): number | null {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/.exec(s);
  if (!m) return null;
  return ymdToDays(parseInt(m[1] ?? "", 10), parseInt(m[2] ?? "", 10), parseInt(m[3] ?? "", 10));
}

/** Parse a date as users and guides write it (US forms first, then ISO). */
export function parseUserDate(s: string): number | null {
  return parseMdy(s) ?? parseIsoDate(s);
}

/** Whole years from `fromDays` to `toDays` (absolute value), as a birthday-style age. */
export function yearsBetween(fromDays: number, toDays: number): number {
  let a = daysToYmd(fromDays);
  let b = daysToYmd(toDays);
  if (fromDays > toDays) [a, b] = [b, a];
  let years = b.year - a.year;
  if (b.month < a.month || (b.month === a.month && b.day < a.day)) years--;
  return Math.abs(years);
}

/**
 * Days for the calendar day that `instant` falls on in an IANA time zone (e.g. "America/Chicago"), so that
 * "today" is the user's date, not the server's. Returns null for an unknown time zone.
 */
export function daysInTimeZone(instant: Date, timeZone: string): number | null {
  try {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" }).formatToParts(instant);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    return ymdToDays(get("year"), get("month"), get("day"));
  } catch {
    return null;
  }
}

/** Days for a JS Date's UTC calendar day (helper for callers that compute "today"). */
export function daysFromDate(d: Date): number {
  return Math.floor(d.getTime() / MS_PER_DAY);
}

/**
 * Swap the first two `/`-separated parts (ANX dates are day/month/year, A2J's are month/day/year).
 * Values that are not slash dates are returned unchanged.
 */
export function swapMonthAndDay(s: string): string {
  const parts = s.split("/");
  if (parts.length !== 3) return s;
  return [parts[1], parts[0], parts[2]].join("/");
}

/**
 * How a country writes dates for people: the order of day and month (for the three date boxes and short dates)
 * and the style of dates shown back (popups, macros, documents). A2J itself always keeps `MM/DD/YYYY`.
 */
export interface DateLocale {
  order: "DMY" | "MDY";
  /** `long`: "13 January 1990" (DMY) or "January 13, 1990" (MDY); `numeric`: "13/01/1990" or "01/13/1990". */
  style: "long" | "numeric";
  /**
   * The language dates are written in (the guide's: BCP 47). Absent or English: the names above, in the country's
   * order. Another: the month's name and the order as that language writes them ("13 janvier 1990",
   * "1990年1月13日"), with Latin digits unless `digits` says the language's own.
   */
  language?: string;
  /** "native": a language with digits of its own writes dates with them (Arabic: "١٣ يناير ١٩٩٠"); else Latin. */
  digits?: "latin" | "native";
}

/** A2J's own way, for guides run outside any country (preview) and for countries that write month first. */
export const A2J_DATES: DateLocale = { order: "MDY", style: "numeric" };

/** A country's stored date columns as a locale; anything unknown falls back to A2J's own way. */
export function dateLocale(order: string, style: string, digits = "latin"): DateLocale {
  return { order: order === "DMY" ? "DMY" : "MDY", style: style === "long" ? "long" : "numeric", ...(digits === "native" ? { digits: "native" as const } : {}) };
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * The names people may type in a date's Month box, by language: each month's full name, and any start of it of
 * three letters or more ("Mar", "Sept"). English now; another language adds its twelve names here.
 */
export const MONTH_WORDS: Readonly<Record<string, readonly string[]>> = { en: MONTH_NAMES };

/** Whether dates in this language are written with our English names (no language, or English). */
const english = (language: string | undefined) => !language || /^en(-|$)/i.test(language);

/** Intl's formatter of a language, or null for a tag it cannot read. */
function intlDates(language: string, options: Intl.DateTimeFormatOptions, digits: DateLocale["digits"] = "latin"): Intl.DateTimeFormat | null {
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: "UTC", numberingSystem: digits === "native" ? ownDigits(language) : "latn" });
  } catch {
    return null;
  }
}

/** The twelve month names of a language: ours for English, else Intl's (the standalone form: "janvier"). */
export function monthNames(language: string): readonly string[] {
  if (english(language)) return MONTH_NAMES;
  const format = intlDates(language, { month: "long" });
  return format ? Array.from({ length: 12 }, (_, i) => format.format(Date.UTC(2001, i, 15))) : MONTH_NAMES;
}

/** The month (1 to 12) a typed word names ("March", "mar", "Mar."; "janvier" in French), or null. */
export function monthFromWord(typed: string, language = "en"): number | null {
  const lower = (text: string) => {
    try {
      return text.toLocaleLowerCase(language);
    } catch {
      return text.toLowerCase();
    }
  };
  const word = lower(typed.trim().replace(/\.$/, ""));
  if (word.length < 3) return null;
  const names = MONTH_WORDS[language] ?? monthNames(language);
  const found = names.findIndex((name) => lower(name).startsWith(word));
  return found < 0 ? null : found + 1;
}

/** A day count written the way the locale shows dates to people. */
export function formatDaysFor(days: number, locale: DateLocale): string {
  const { year, month, day } = daysToYmd(days);
  const y = String(year).padStart(4, "0");
  if (locale.style === "numeric") {
    const numeric = locale.order === "DMY" ? `${pad2(day)}/${pad2(month)}/${y}` : `${pad2(month)}/${pad2(day)}/${y}`;
    return locale.digits === "native" && !english(locale.language) ? inOwnDigits(numeric, locale.language!) : numeric;
  }
  if (!english(locale.language)) {
    const format = intlDates(locale.language!, { day: "numeric", month: "long", year: "numeric" }, locale.digits);
    const utc = new Date(Date.UTC(2000, month - 1, day));
    utc.setUTCFullYear(year);
    if (format) return format.format(utc);
  }
  const name = MONTH_NAMES[month - 1] ?? "";
  return locale.order === "DMY" ? `${day} ${name} ${y}` : `${name} ${day}, ${y}`;
}

/**
 * The digits a language has of its own (Unicode's numbering systems), which Intl does not take by default for
 * every region (Arabic in Egypt does, Arabic alone and in Morocco do not); Latin for a language without.
 */
const OWN_DIGITS: Readonly<Record<string, string>> = { ar: "arab", fa: "arabext", ur: "arabext", bn: "beng", hi: "deva", mr: "deva", ne: "deva", ta: "tamldec", th: "thai", km: "khmr", lo: "laoo", my: "mymr" };

function ownDigits(language: string): string {
  return OWN_DIGITS[language.split("-")[0]!.toLowerCase()] ?? "latn";
}

/** Latin digits in a text written in the language's own digits, where it has them ("13/01" → "١٣/٠١" in Arabic). */
function inOwnDigits(text: string, language: string): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(language, { useGrouping: false, numberingSystem: ownDigits(language) });
  } catch {
    return text;
  }
  return text.replace(/[0-9]/g, (digit) => format.format(Number(digit)));
}

/** A stored A2J date (`M/D/YYYY`) as the locale shows it; any other text is returned unchanged. */
export function showStoredDate(stored: string, locale: DateLocale): string {
  if (!looksLikeMdy(stored)) return stored;
  const days = parseMdy(stored);
  return days === null ? stored : formatDaysFor(days, locale);
}

/** The three boxes of a date field, as typed (strings, so that a wrong entry can be shown back as it was). */
export interface DateBoxes {
  day: string;
  month: string;
  year: string;
}

export type DateBox = keyof DateBoxes;

/** The boxes for a stored A2J date (blank boxes for a blank or unreadable value). */
export function boxesFromStored(stored: string): DateBoxes {
  const days = parseUserDate(stored);
  if (days === null) return { day: "", month: "", year: "" };
  const { year, month, day } = daysToYmd(days);
  return { day: String(day), month: String(month), year: String(year) };
}

/** What three date boxes say: nothing at all, an A2J date (`MM/DD/YYYY`), or what is wrong and in which boxes. */
export type BoxesReading = { kind: "blank" } | { kind: "date"; value: string } | { kind: "wrong"; message: string; says: MessageSays; boxes: DateBox[] };

const BOX_ORDER: DateBox[] = ["day", "month", "year"];

function listed(words: string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** The boxes missing, as one word (`dateMissing`'s value): "day", "dayMonth", "monthYear"… */
function missingWord(missing: DateBox[]): string {
  return missing.map((box, i) => (i === 0 ? box : box.charAt(0).toUpperCase() + box.slice(1))).join("");
}

/** The English of a date box's message (the engine's own, validate.ts's englishMessage). */
export function dateBoxesEnglish({ id, values = {} }: MessageSays): string {
  switch (id) {
    case "dateMissing":
      return `The date must include a ${listed(String(values.boxes ?? "").split(/(?=[A-Z])/).map((w) => w.toLowerCase()))}.`;
    case "dayRange":
      return "The day must be a number from 1 to 31.";
    case "monthRange":
      return "The month must be a number from 1 to 12, or its name.";
    case "yearDigits":
      return "The year must have 4 digits, for example 2007.";
    default:
      return `The day must be a real day: ${values.monthEnglish ?? ""} ${values.year ?? ""} has ${values.days ?? ""} days.`;
  }
}

function wrong(says: MessageSays, boxes: DateBox[]): BoxesReading {
  return { kind: "wrong", message: dateBoxesEnglish(says), says, boxes };
}

/**
 * Reads the Day, Month and Year boxes (GOV.UK's date-input pattern: no order is ever guessed). Every message
 * names the box that is wrong, so that the page can mark only that box; `says` is the message as an identifier
 * (a viewer words it in the guide's language; `month` there is the month's name in `language`).
 */
export function readDateBoxes(boxes: DateBoxes, language = "en"): BoxesReading {
  // Digits of any script read as Latin (an Arabic keyboard types ١٣).
  const typed = { day: latinDigits(boxes.day.trim()), month: latinDigits(boxes.month.trim()), year: latinDigits(boxes.year.trim()) };
  const missing = BOX_ORDER.filter((box) => typed[box] === "");
  if (missing.length === 3) return { kind: "blank" };
  if (missing.length) return wrong({ id: "dateMissing", values: { boxes: missingWord(missing) } }, missing);
  const whole = (s: string) => (/^\d+$/.test(s) ? Number(s) : NaN);
  const day = whole(typed.day);
  const month = /^\d+$/.test(typed.month) ? whole(typed.month) : (monthFromWord(typed.month, language) ?? NaN);
  const year = whole(typed.year);
  if (!(day >= 1 && day <= 31)) return wrong({ id: "dayRange" }, ["day"]);
  if (!(month >= 1 && month <= 12)) return wrong({ id: "monthRange" }, ["month"]);
  if (!/^\d{4}$/.test(typed.year) || year < 1000) return wrong({ id: "yearDigits" }, ["year"]);
  const days = ymdToDays(year, month, day);
  if (days === null) {
    const last = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && ymdToDays(year, 2, 29) === null ? 1 : 0);
    const values = { month: monthNames(language)[month - 1] ?? "", monthEnglish: MONTH_NAMES[month - 1] ?? "", year, days: last };
    return wrong({ id: "realDay", values }, ["day"]);
  }
  return { kind: "date", value: formatDays(days) };
}
