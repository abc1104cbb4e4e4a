/**
 * Runtime values of the script language and A2J's loose (JavaScript-like) semantics.
 * One deliberate difference from A2J: a blank (null) value concatenates as "" rather than "null"/"undefined".
 */

/** A script value. `null` stands for both JavaScript's null and undefined. */
export type Val = string | number | boolean | null;

/** Remove thousands separators, `$` and surrounding spaces from a numeric-looking string. */
export function unformatNumber(s: string): string {
  return s.replace(/[$,\s]/g, "");
}

/** Parse a number the way A2J number fields do ("1,234.5" → 1234.5, "$25,000" → 25000). NaN if not a number. */
export function parseLooseNumber(s: string): number {
  const t = unformatNumber(s);
  if (t === "" || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return NaN;
  return Number(t);
}

/** JavaScript ToNumber on a script value. */
export function toNumber(v: Val): number {
  if (v === null) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  const t = v.trim();
  if (t === "") return 0;
  return Number(t);
}

/** JavaScript ToString, except that null gives "". */
export function toStr(v: Val): string {
  if (v === null) return "";
  if (typeof v === "string") return v;
  return String(v);
}

/** JavaScript truthiness. */
export function truthy(v: Val): boolean {
  if (v === null) return false;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  if (typeof v === "string") return v !== "";
  return v;
}

/** JavaScript loose equality (`==`) on script values. */
export function looseEquals(a: Val, b: Val): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === typeof b) return a === b;
  // number/string/boolean mix: compare as numbers, as JS does.
  return toNumber(a) === toNumber(b);
}

/** JavaScript `+`: string concatenation if either side is a string, else numeric addition. */
export function add(a: Val, b: Val): Val {
  if (typeof a === "string" || typeof b === "string") return toStr(a) + toStr(b);
  return toNumber(a) + toNumber(b);
}

/** JavaScript relational comparison. Returns -1/0/1, or null when incomparable (NaN). */
export function compare(a: Val, b: Val): -1 | 0 | 1 | null {
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return null;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** "a", "a and b", "a, b and c" (A2J's readable list for repeating variables without an index). */
export function readableList(items: readonly string[], and = "and"): string {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0] ?? "";
  return items.slice(0, -1).join(", ") + ` ${and} ` + (items[items.length - 1] ?? "");
}
