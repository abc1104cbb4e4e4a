import type { AnswerValue, Answers, Guide, VarType } from "~/a2j";

/**
 * Merges a map of variables into an interview's answers (the "POST variables" rules): each value is stored as
 * `[null, value]`; TF strings become booleans and MC booleans become strings. Names match case-insensitively;
 * unknown names are created with the guide's type for them, else Text. With `index` (a loop's answer, from 1)
 * only that value is written and the variable's other values stay. Returns new answers.
 */
export function mergeVariables(answers: Answers, variables: Record<string, unknown>, guide?: Guide, index?: number): Answers {
  const merged: Answers = { ...answers };
  for (const [name, raw] of Object.entries(variables)) {
    const key = name.trim().toLowerCase();
    if (!key || key === "__proto__" || key === "constructor" || key === "prototype") continue;
    const existing = Object.hasOwn(merged, key) ? merged[key] : undefined;
    const type: VarType = existing?.type ?? guide?.vars[key]?.type ?? "Text";
    const value = coerce(type, raw);
    let values: AnswerValue[] = [null, value];
    if (index !== undefined) {
      values = [null, ...(existing?.values.slice(1) ?? [])];
      while (values.length <= index) values.push(null);
      values[index] = value;
    }
    merged[key] = {
      name: existing?.name ?? guide?.vars[key]?.name ?? name.trim(),
      type,
      repeating: existing?.repeating ?? (index !== undefined && index > 1),
      values,
    };
  }
  return merged;
}

function coerce(type: VarType, raw: unknown): AnswerValue {
  if (raw === null || raw === undefined) return null;
  if (type === "TF" && typeof raw === "string") {
    const text = raw.trim().toLowerCase();
    return text === "true" ? true : text === "false" ? false : raw;
  }
  if (type === "MC" && typeof raw === "boolean") return String(raw);
  if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") return raw;
  return JSON.stringify(raw);
}
