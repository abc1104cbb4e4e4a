/**
 * Built-in functions of the script language (case-insensitive names).
 * An unknown function returns the string `Unknown function "F"`, as A2J does.
 */
import { formatDays, parseUserDate, yearsBetween } from "./dates";
import { own } from "./util";
import { parseLooseNumber, toStr, type Val } from "./values";

export interface FnContext {
  /** Today as days since 1970-01-01. */
  today: number;
}

type Fn = (args: Val[], ctx: FnContext) => Val;

/** Numeric value of an argument: numbers as is, strings unformatted ("1,234" → 1234), blank → 0. */
function num(v: Val | undefined): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v.trim() === "") return 0;
  return parseLooseNumber(v);
}

/** Days for a date argument (a day count or a date string), or null. */
function days(v: Val | undefined): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? Math.floor(v) : null;
  if (typeof v === "string") return parseUserDate(v);
  return null;
}

/** Round half away from zero to `places` decimals without binary-float surprises (1.005 → 1.01). */
export function roundTo(n: number, places: number): number {
  if (!Number.isFinite(n)) return n;
  const sign = n < 0 ? -1 : 1;
  const r = Math.round(Number(`${Math.abs(n)}e${places}`));
  return sign * Number(`${r}e-${places}`);
}

function truncTo(n: number, places: number): number {
  if (!Number.isFinite(n)) return n;
  const sign = n < 0 ? -1 : 1;
  const r = Math.trunc(Number(`${Math.abs(n)}e${places}`));
  return sign * Number(`${r}e-${places}`);
}

/** Format with thousands separators and a fixed number of decimals ("1,345.68"). */
export function formatGrouped(n: number, decimals: number): string {
  if (!Number.isFinite(n)) return "";
  const fixed = roundTo(n, decimals).toFixed(decimals);
  const neg = fixed.startsWith("-");
  const body = neg ? fixed.slice(1) : fixed;
  const [intPart = "0", frac] = body.split(".");
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const out = frac !== undefined ? `${grouped}.${frac}` : grouped;
  return neg && Number(out.replace(/,/g, "")) !== 0 ? `-${out}` : out;
}

const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
];

/** "first", "second", … "twelfth" (A2J's English `Ordinals_N`), then "13th", "21st", "22nd", "23rd" … */
export function ordinal(n: number): string {
  if (!Number.isFinite(n)) return "";
  const i = Math.trunc(n);
  const word = ORDINALS[i - 1];
  if (word) return word;
  const mod100 = Math.abs(i) % 100;
  const mod10 = Math.abs(i) % 10;
  const suffix = mod100 >= 11 && mod100 <= 13 ? "th" : mod10 === 1 ? "st" : mod10 === 2 ? "nd" : mod10 === 3 ? "rd" : "th";
  return `${i}${suffix}`;
}

function gender(v: Val | undefined): "m" | "f" | "" {
  const s = toStr(v ?? null).trim().toLowerCase();
  if (s === "male" || s === "m") return "m";
  if (s === "female" || s === "f") return "f";
  return "";
}

/** Sum the numbers in a readable list ("100, 200 and 300" → 600); non-numbers are ignored. */
export function sumList(v: Val | undefined): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean" || v === null || v === undefined) return 0;
  let total = 0;
  for (const part of v.split(/,(?!\d{3}(?!\d))|\s+and\s+/)) {
    const n = parseLooseNumber(part.trim());
    if (!Number.isNaN(n)) total += n;
  }
  return total;
}

const FUNCTIONS: Record<string, Fn> = {
  age: ([d], ctx) => {
    const x = days(d);
    return x === null ? null : yearsBetween(x, ctx.today);
  },
  date: ([d]) => {
    if (d === null || d === undefined || d === "" || d === 0 || d === false) return "";
    const x = days(d);
    return x === null ? "" : formatDays(x);
  },
  trunc: ([n]) => truncTo(num(n), 0),
  trunc2: ([n]) => truncTo(num(n), 2),
  round: ([n]) => roundTo(num(n), 0),
  round2: ([n]) => roundTo(num(n), 2),
  dollar: ([n]) => formatGrouped(num(n), 2),
  dollarround: ([n]) => formatGrouped(num(n), 0),
  number: ([x]) => (typeof x === "number" ? x : typeof x === "string" ? parseFloat(x) : num(x)),
  string: ([x]) => (x === undefined || x === null ? "" : String(x)),
  hasanswered: ([x]) => !(x === undefined || x === null || x === ""),
  sum: ([x]) => sumList(x),
  ordinal: ([n]) => ordinal(num(n)),
  contains: ([a, b]) => toStr(a ?? null).toLowerCase().includes(toStr(b ?? null).toLowerCase()),
  hisher: ([g]) => ({ m: "his", f: "her", "": "their" })[gender(g)],
  himher: ([g]) => ({ m: "him", f: "her", "": "them" })[gender(g)],
  heshe: ([g]) => ({ m: "he", f: "she", "": "they" })[gender(g)],
};

/** Call a built-in function by name. */
export function callFunction(name: string, args: Val[], ctx: FnContext): Val {
  const fn = own(FUNCTIONS, name.toLowerCase());
  if (!fn) return `Unknown function "${name}"`;
  return fn(args, ctx);
}

/** Names of the built-in functions (lower case). */
export const FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS);
