/**
 * Answers from elsewhere (an answer file, another interview) checked against a guide before they are used
 * (issue 29): each value must be of its variable's type in this guide, and a pick list's variable one of the
 * list's choices. Nothing is taken silently: what does not fit is a problem, named with the variable.
 */
import { BUILTIN_VARS } from "./guide";
import { isBlank, varKey } from "./answers";
import { parseMdy } from "./dates";
import type { Answers, AnswerValue, Guide, VarType } from "./types";
import { own, setOwn } from "./util";
import { listOptions } from "./validate";
import { decodeEntities } from "./xml";

/** What is wrong with a value from elsewhere. */
export type AnswerProblem =
  /** The guide has no variable of this name. */
  | { kind: "unknown"; name: string }
  /** The value is not of the variable's type in the guide (a word in a number, a date that is no date…). */
  | { kind: "type"; name: string; expected: VarType; value: string }
  /** The variable is answered from a list and the value is not on it. */
  | { kind: "choice"; name: string; value: string };

/** A variable's values from elsewhere that fit the guide: `values[0]` is the first answer (A2J's index 1). */
export interface FittingAnswer {
  key: string;
  /** The name as the guide writes it. */
  name: string;
  type: VarType;
  repeating: boolean;
  values: AnswerValue[];
}

const BUILTIN_KEYS = new Set(BUILTIN_VARS.map((v) => varKey(v.name)));

/** A variable a person answers (not one of A2J's own, such as "A2J Step 1" or "User Gender"). */
export function answerableVar(guide: Guide, key: string): boolean {
  return own(guide.vars, key) !== undefined && !BUILTIN_KEYS.has(key) && own(guide.vars, key)?.type !== "Attachment";
}

/**
 * The choices of each variable answered from a list in the guide: a pick list's options (`textpick` with its
 * list), or the values of its radio buttons. A variable also answered by a field without a list has none.
 */
export function choicesOf(guide: Guide): Map<string, Set<string>> {
  const choices = new Map<string, Set<string>>();
  const free = new Set<string>();
  for (const page of Object.values(guide.pages)) {
    for (const field of page.fields) {
      const key = varKey(field.name);
      if (key === "") continue;
      if (field.type === "textpick" && field.listData.trim() !== "") {
        const set = choices.get(key) ?? new Set<string>();
        for (const option of listOptions(field)) set.add(option.value);
        choices.set(key, set);
      } else if (field.type === "radio" && field.value !== "") {
        const set = choices.get(key) ?? new Set<string>();
        set.add(field.value);
        choices.set(key, set);
      } else {
        free.add(key);
      }
    }
  }
  for (const key of free) choices.delete(key);
  return choices;
}

/** Why one value does not fit a variable of this type (and choices), or null when it does. */
export function valueProblem(name: string, type: VarType, value: AnswerValue, choices?: Set<string>): AnswerProblem | null {
  if (value === null) return null;
  const shown = String(value);
  const wrongType: AnswerProblem = { kind: "type", name, expected: type, value: shown };
  switch (type) {
    case "Number":
      return typeof value === "number" && Number.isFinite(value) ? null : wrongType;
    case "TF":
      return typeof value === "boolean" ? null : wrongType;
    case "Date":
      return typeof value === "string" && parseMdy(value.trim()) !== null ? null : wrongType;
    case "MC":
      if (typeof value !== "string" && typeof value !== "number") return wrongType;
      return choices && !choices.has(shown) ? { kind: "choice", name, value: shown } : null;
    case "Text":
      return typeof value === "string" ? null : wrongType;
    default:
      return null;
  }
}

/**
 * An answer set from elsewhere checked against a guide: the variables whose every value fits, and the problems
 * (variables the guide does not have, values of the wrong type or not among a list's choices). Blank values are
 * neither; A2J's own variables are left out.
 */
export function checkAnswers(guide: Guide, answers: Answers): { fitting: FittingAnswer[]; problems: AnswerProblem[] } {
  const choices = choicesOf(guide);
  const fitting: FittingAnswer[] = [];
  const problems: AnswerProblem[] = [];
  for (const key of Object.keys(answers)) {
    const record = own(answers, key);
    if (!record || BUILTIN_KEYS.has(key)) continue;
    const values = record.values.slice(1);
    while (values.length > 0 && isBlank(values[values.length - 1] ?? null)) values.pop();
    if (values.every((value) => isBlank(value ?? null))) continue;
    const guideVar = own(guide.vars, key);
    if (!guideVar) {
      problems.push({ kind: "unknown", name: record.name });
      continue;
    }
    if (!answerableVar(guide, key)) continue;
    const found = values.map((value) => valueProblem(guideVar.name, guideVar.type, isBlank(value ?? null) ? null : (value ?? null), choices.get(key))).filter((p) => p !== null);
    if (found.length > 0) {
      problems.push(found[0]!);
      continue;
    }
    if (!guideVar.repeating && values.length > 1) {
      problems.push({ kind: "type", name: guideVar.name, expected: guideVar.type, value: values.map((v) => String(v ?? "")).join(", ") });
      continue;
    }
    fitting.push({ key, name: guideVar.name, type: guideVar.type, repeating: guideVar.repeating, values: values.map((v) => (isBlank(v ?? null) ? null : (v ?? null))) });
  }
  return { fitting, problems };
}

/** Answers with these variables' values put in (each replacing what the variable held). Returns a new set. */
export function withAnswers(answers: Answers, chosen: readonly FittingAnswer[]): Answers {
  const out: Answers = {};
  for (const key of Object.keys(answers)) {
    const record = own(answers, key);
    if (record) setOwn(out, key, { ...record, values: record.values.slice() });
  }
  for (const answer of chosen) {
    const existing = own(out, answer.key);
    setOwn(out, answer.key, { ...(existing ?? { name: answer.name, type: answer.type, repeating: answer.repeating }), values: [null, ...answer.values] });
  }
  return out;
}

/** The question that asks for a variable, as plain text (the first field's label that names it), else its name. */
export function questionLabel(guide: Guide, key: string): string {
  for (const page of Object.values(guide.pages)) {
    for (const field of page.fields) {
      if (varKey(field.name) !== key) continue;
      const label = decodeEntities(field.label.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
      if (label !== "") return label;
    }
  }
  return own(guide.vars, key)?.name ?? key;
}
