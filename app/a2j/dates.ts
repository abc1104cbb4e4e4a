/**
 * Dates as whole days since 1970-01-01, computed in UTC so that no time zone or daylight-saving
 * shift can move a date. "Today" is always passed in by the caller.
 */

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
