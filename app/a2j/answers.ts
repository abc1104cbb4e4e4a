/**
 * Answers in A2J's JSON form: a map of lower-cased variable name → {name, type, repeating, values}.
 * `values[0]` is always null. Read and write coercions: docs/a2j-formats.md.
 */
import { formatDays, looksLikeMdy, parseMdy } from "./dates";
import type { Answers, AnswerValue, AnswerVar, Guide, Result, VarType } from "./types";
import { VAR_TYPES } from "./types";
import { own, setOwn } from "./util";
import { parseLooseNumber, readableList, toStr, type Val } from "./values";

/** Lower-cased, trimmed key for a variable name. */
export function varKey(name: string): string {
  return name.trim().toLowerCase();
}

/** A fresh answer set holding every guide variable with `values: [null]`. */
export function createAnswers(guide: Guide): Answers {
  const answers: Answers = {};
  for (const [key, v] of Object.entries(guide.vars)) {
    setOwn(answers, key, { name: v.name, type: v.type, repeating: v.repeating, comment: v.comment, values: [null] });
  }
  return answers;
}

/** A deep copy of an answer set (cheap: values are primitives). */
export function cloneAnswers(answers: Answers): Answers {
  const out: Answers = {};
  for (const key of Object.keys(answers)) {
    const v = own(answers, key);
    if (v) setOwn(out, key, { ...v, values: v.values.slice() });
  }
  return out;
}

/** Look up a variable record case-insensitively. */
export function getVar(answers: Answers, name: string): AnswerVar | undefined {
  return own(answers, varKey(name));
}

/** The raw stored value at an index (default 1), or null. */
export function getRaw(answers: Answers, name: string, index = 1): AnswerValue {
  const v = getVar(answers, name);
  if (!v) return null;
  return v.values[index] ?? null;
}

/** Is a stored value blank (null, undefined or "")? */
export function isBlank(v: AnswerValue | undefined): boolean {
  return v === null || v === undefined || v === "";
}

function tfFromString(s: string): boolean | null {
  const t = s.trim().toLowerCase();
  if (t === "true") return true;
  if (t === "false") return false;
  return null;
}

/** String form of a stored value for display in lists and ANX. */
export function displayValue(v: AnswerValue): string {
  return toStr(v);
}

/** Read-time coercion of a stored value by variable type (script `_VG` with date2num and num2num). */
export function coerceRead(type: VarType, raw: AnswerValue): Val {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case "Date":
      if (typeof raw === "string") {
        if (raw.trim() === "") return null;
        return parseMdy(raw) ?? raw;
      }
      return raw;
    case "Number":
      if (typeof raw === "string") {
        if (raw.trim() === "") return null;
        const n = parseLooseNumber(raw);
        return Number.isNaN(n) ? raw : n;
      }
      return raw;
    case "TF":
      if (typeof raw === "string") return tfFromString(raw) ?? raw;
      return raw;
    case "Text":
      if (typeof raw === "string" && looksLikeMdy(raw)) return parseMdy(raw) ?? raw;
      return raw;
    default:
      return raw;
  }
}

/**
 * Read a variable for the script language. Unknown variables read as null. A repeating variable read
 * without an index gives the readable list "a, b and c" of its non-blank values. No index → index 1.
 */
export function varGet(answers: Answers, name: string, index?: number): Val {
  const v = getVar(answers, name);
  if (!v) return null;
  if (index === undefined && v.repeating) {
    const items: string[] = [];
    for (let i = 1; i < v.values.length; i++) {
      const x = v.values[i];
      if (!isBlank(x ?? null)) items.push(displayValue(x ?? null));
    }
    return readableList(items);
  }
  const i = index === undefined ? 1 : index;
  if (!Number.isInteger(i) || i < 0) return null;
  return coerceRead(v.type, v.values[i] ?? null);
}

/** Write-time coercion by variable type. */
export function coerceWrite(type: VarType, value: Val): AnswerValue {
  switch (type) {
    case "Date":
      if (typeof value === "number") return Number.isFinite(value) ? formatDays(value) : null;
      return value;
    case "Text":
    case "Attachment":
      return value === null ? "" : value;
    case "TF":
      if (typeof value === "boolean" || value === null) return value;
      if (typeof value === "string") return tfFromString(value);
      return null;
    case "Number":
      if (typeof value === "number") return Number.isNaN(value) ? null : value;
      if (typeof value === "string") {
        if (value.trim() === "") return null;
        const n = parseLooseNumber(value);
        return Number.isNaN(n) ? value : n;
      }
      return value;
    default:
      return value;
  }
}

/**
 * Write a variable (mutates `answers`). An unknown variable is created as Text (repeating if an index is given).
 * Without an index the value goes to index 1; `null` on a non-Text variable without an index resets it to `[null]`.
 */
export function varSet(answers: Answers, name: string, value: Val, index?: number): void {
  const key = varKey(name);
  let v = own(answers, key);
  if (!v) {
    v = { name: name.trim(), type: "Text", repeating: index !== undefined, values: [null] };
    setOwn(answers, key, v);
  }
  if (value === null && index === undefined && v.type !== "Text" && v.type !== "Attachment") {
    v.values = [null];
    return;
  }
  const i = index === undefined ? 1 : index;
  if (!Number.isInteger(i) || i < 1 || i > 100_000) return;
  const stored = coerceWrite(v.type, value);
  while (v.values.length < i) v.values.push(null);
  v.values[i] = stored;
  v.values[0] = null;
}

/** The JSON answer form, ready for `JSON.stringify`. */
export function answersToJSON(answers: Answers): Answers {
  return cloneAnswers(answers);
}

function normaliseType(t: unknown): VarType {
  if (typeof t !== "string") return "Unknown";
  const found = VAR_TYPES.find((x) => x.toLowerCase() === t.toLowerCase());
  return found ?? "Unknown";
}

/** Read-time coercion of a JSON answer value (old files hold TF as "true"/"false" and numbers as strings). */
function coerceJsonValue(type: VarType, v: unknown): AnswerValue {
  if (v === undefined || v === null) return null;
  if (typeof v === "string") {
    if (type === "TF") return tfFromString(v) ?? v;
    if (type === "Number") {
      if (v.trim() === "") return null;
      const n = parseLooseNumber(v);
      return Number.isNaN(n) ? v : n;
    }
    return v;
  }
  if (typeof v === "number" || typeof v === "boolean") return v;
  // Objects (e.g. user avatar) are kept as JSON strings.
  try {
    return JSON.stringify(v) ?? null;
  } catch {
    return null;
  }
}

/**
 * Read answers from A2J's JSON form (a string or a parsed object). Keys are re-derived from names
 * (lower-cased), `values[0]` is forced to null, holes are kept as null. When a guide is given, its variables
 * that are missing from the answers are added with `values: [null]`.
 */
export function answersFromJSON(input: string | unknown, guide?: Guide): Result<Answers> {
  try {
    return readJSON(input, guide);
  } catch (e) {
    return { ok: false, error: `could not read the answers: ${String(e)}` };
  }
}

function readJSON(input: string | unknown, guide?: Guide): Result<Answers> {
  let data: unknown = input;
  if (typeof input === "string") {
    try {
      data = JSON.parse(input);
    } catch (e) {
      return { ok: false, error: `answers are not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ok: false, error: "answers must be a JSON object keyed by variable name" };
  }
  const answers: Answers = guide ? createAnswers(guide) : {};
  for (const [rawKey, rec] of Object.entries(data as Record<string, unknown>)) {
    if (typeof rec !== "object" || rec === null || Array.isArray(rec)) {
      return { ok: false, error: `answer "${rawKey}" must be an object` };
    }
    const r = rec as Record<string, unknown>;
    const name = typeof r.name === "string" && r.name.trim() !== "" ? r.name.trim() : rawKey;
    const key = varKey(name);
    if (key === "") continue;
    const guideVar = guide ? own(guide.vars, key) : undefined;
    let type = normaliseType(r.type);
    if (type === "Unknown" && guideVar) type = guideVar.type;
    const rawValues = Array.isArray(r.values) ? (r.values as unknown[]) : [];
    const values: AnswerValue[] = [null];
    for (let i = 1; i < rawValues.length; i++) values.push(coerceJsonValue(type, rawValues[i]));
    const out: AnswerVar = {
      name: guideVar?.name ?? name,
      type,
      repeating: typeof r.repeating === "boolean" ? r.repeating : r.repeating === "true" || (guideVar?.repeating ?? false),
      values,
    };
    if (typeof r.comment === "string") out.comment = r.comment;
    else if (guideVar) out.comment = guideVar.comment;
    setOwn(answers, key, out);
  }
  return { ok: true, value: answers };
}

/** The path of an `Attachment` variable: its last non-blank value, or null. */
export function attachmentPath(answers: Answers, name: string): string | null {
  const v = getVar(answers, name);
  if (!v) return null;
  for (let i = v.values.length - 1; i >= 1; i--) {
    const x = v.values[i];
    if (typeof x === "string" && x !== "") return x;
  }
  return null;
}
