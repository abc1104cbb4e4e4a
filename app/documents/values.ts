/**
 * Answer values as documents print them and as DAT conditions compare them (docs/a2j-formats.md;
 * A2J's `eval-author-condition`). Pure: no I/O.
 */
import { A2J_DATES, type AnswerValue, type Answers, type DateLocale, getRaw, showStoredDate } from "~/a2j";
import type { Condition } from "./template";

function lookup(answers: Answers, name: string) {
  const key = name.trim().toLowerCase();
  return Object.hasOwn(answers, key) ? answers[key] : undefined;
}

function blank(v: AnswerValue | undefined): boolean {
  return v === null || v === undefined || v === "";
}

function readable(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}


function formatNumber(v: AnswerValue): string {
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  return String(v).trim();
}

/**
 * One stored value printed by its variable's type; a date (stored as A2J's M/D/YYYY) the way the person's
 * country writes dates ("13 January 1990"), A2J's "01/13/1990" by default. Other text is printed as stored.
 */
export function formatValue(type: string, v: AnswerValue, dates: DateLocale = A2J_DATES): string {
  if (blank(v)) return "";
  switch (type) {
    case "Date":
      return showStoredDate(String(v).trim(), dates);
    case "Number":
      return formatNumber(v);
    case "TF":
      return v === true || String(v).trim().toLowerCase() === "true" ? "true" : "false";
    case "Attachment":
      // The answer is "attachments/<id>.<ext>"; the file itself is appended to the document.
      return String(v).replace(/^.*\//, "");
    default:
      return String(v);
  }
}

/**
 * What `<a2j-variable name>` prints: the value at `index` (inside a loop), else the first value; a repeating
 * variable without an index prints "a, b and c". Null when the variable is unanswered (printed as blank space).
 */
export function variableText(answers: Answers, name: string, index?: number, dates: DateLocale = A2J_DATES): string | null {
  const v = lookup(answers, name);
  if (!v) return null;
  if (index === undefined && v.repeating) {
    const items = v.values.slice(1).filter((x) => !blank(x)).map((x) => formatValue(v.type, x ?? null, dates));
    return items.length ? readable(items) : null;
  }
  // Inside a loop a repeating variable is read at the iteration; any other variable at [1].
  const raw = v.values[index !== undefined && (v.repeating || v.values.length > 2) ? index : 1];
  return blank(raw) ? null : formatValue(v.type, raw ?? null, dates);
}

/** The value a condition compares: the stored value at [1]; a repeating variable gives "a, b and c". */
export function operandValue(answers: Answers, name: string): AnswerValue {
  const v = lookup(answers, name);
  if (!v) return null;
  if (v.repeating) {
    const items = v.values.slice(1).filter((x) => !blank(x)).map((x) => String(x));
    return items.length > 1 ? readable(items) : getRaw(answers, name, 1);
  }
  return getRaw(answers, name, 1);
}

function isTrue(v: AnswerValue): boolean {
  if (v === null || v === false || v === 0 || v === "" || Number.isNaN(v)) return false;
  return !(typeof v === "string" && v.trim().toLowerCase() === "false");
}

/** JavaScript `<` / `>` on stored values (strings compare as strings, otherwise as numbers). */
function jsLess(a: AnswerValue, b: AnswerValue): boolean {
  if (typeof a === "string" && typeof b === "string") return a < b;
  const x = a === null ? 0 : Number(a);
  const y = b === null ? 0 : Number(b);
  return x < y;
}

/**
 * A DAT condition. `is-true`: truthy and not the string "false"; `is-false`: the opposite. Equality is strict
 * on stored values (5 is not "5"), as A2J's `===`; greater/less are JavaScript comparisons.
 */
export function evalCondition(condition: Condition, answers: Answers): boolean {
  const left = condition.leftOperand ? operandValue(answers, condition.leftOperand) : null;
  const right = condition.rightOperandType === "variable" ? operandValue(answers, condition.rightOperand) : condition.rightOperand;
  switch (condition.operator) {
    case "is-true":
      return isTrue(left);
    case "is-false":
      return !isTrue(left);
    case "is-equal":
      return left === right;
    case "is-not-equal":
      return left !== right;
    case "is-greater-than":
      return jsLess(right, left);
    case "is-less-than":
      return jsLess(left, right);
  }
}

/** How many times a repeat loop runs: its counter, or the value of its loop variable (the last one stored). */
export function loopCount(loop: { loopType: "counter" | "variable"; loopCounter: number; loopVariable: string }, answers: Answers): number {
  let n: number;
  if (loop.loopType === "counter") n = loop.loopCounter;
  else {
    const v = lookup(answers, loop.loopVariable);
    const values = v ? v.values.slice(1).filter((x) => !blank(x)) : [];
    n = Number(values[values.length - 1] ?? 0);
  }
  // A bound keeps a mistyped answer from printing a million empty rows.
  return Number.isFinite(n) ? Math.min(1000, Math.max(0, Math.floor(n))) : 0;
}
