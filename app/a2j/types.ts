/**
 * The typed model of an A2J guide (Guide.json / Guide.xml) and of an answer set.
 * docs/a2j-formats.md describes the formats these types mirror.
 */

/** Result type used by every public function: errors are values, never exceptions. */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

/** A2J variable types, plus our `Attachment` extension (last value = stored file path). */
export type VarType = "Text" | "TF" | "MC" | "Number" | "Date" | "Other" | "Unknown" | "Attachment";

export const VAR_TYPES: readonly VarType[] = [
  "Text",
  "TF",
  "MC",
  "Number",
  "Date",
  "Other",
  "Unknown",
  "Attachment",
];

export interface GuideVar {
  /** Canonical (display) case of the name. */
  name: string;
  type: VarType;
  repeating: boolean;
  comment: string;
}

export type FieldType =
  | "text"
  | "textlong"
  | "textpick"
  | "number"
  | "numberdollar"
  | "numberpick"
  | "numberssn"
  | "numberphone"
  | "numberzip"
  | "datemdy"
  | "radio"
  | "checkbox"
  | "checkboxNOTA"
  | "gender"
  | "useravatar"
  | "checkboxmultiple"
  | "race"
  | "button"
  | "attachment";

export const FIELD_TYPES: readonly FieldType[] = [
  "text",
  "textlong",
  "textpick",
  "number",
  "numberdollar",
  "numberpick",
  "numberssn",
  "numberphone",
  "numberzip",
  "datemdy",
  "radio",
  "checkbox",
  "checkboxNOTA",
  "gender",
  "useravatar",
  "checkboxmultiple",
  "race",
  "button",
  "attachment",
];

export interface Field {
  type: FieldType;
  label: string;
  name: string;
  value: string;
  required: boolean;
  order: string;
  min: string;
  max: string;
  maxChars: string;
  calculator: boolean;
  listSrc: string;
  listData: string;
  sample: string;
  invalidPrompt: string;
}

export interface Button {
  label: string;
  next: string;
  url: string;
  message: string;
  name: string;
  value: string;
  repeatVar: string;
  repeatVarSet: string;
}

export interface Page {
  name: string;
  type: string;
  step: number;
  repeatVar: string;
  nested: boolean;
  outerLoopVar: string;
  text: string;
  textCitation: string;
  textAudioURL: string;
  learn: string;
  help: string;
  helpCitation: string;
  helpMediaLabel: string;
  helpAudioURL: string;
  helpReader: string;
  helpImageURL: string;
  helpAltText: string;
  helpVideoURL: string;
  fields: Field[];
  buttons: Button[];
  codeBefore: string;
  codeAfter: string;
  codeCitation: string;
  notes: string;
}

export interface Step {
  number: string;
  text: string;
}

export interface Author {
  name: string;
  title: string;
  organization: string;
  email: string;
}

export interface Guide {
  title: string;
  description: string;
  jurisdiction: string;
  subjectarea: string;
  language: string;
  version: string;
  tool: string;
  toolversion: string;
  avatar: string;
  guideGender: string;
  authors: Author[];
  firstPage: string;
  exitPage: string;
  steps: Step[];
  /** Variables keyed by lower-cased name. */
  vars: Record<string, GuideVar>;
  /** Pages keyed by exact name, in authoring order. */
  pages: Record<string, Page>;
}

/** A stored answer value. `null` is a hole/blank. */
export type AnswerValue = string | number | boolean | null;

export interface AnswerVar {
  name: string;
  type: VarType;
  repeating: boolean;
  comment?: string;
  /** `values[0]` is always null; non-repeating values sit at [1]. */
  values: AnswerValue[];
}

/** Answers keyed by lower-cased variable name (A2J's JSON answer form). */
export type Answers = Record<string, AnswerVar>;
