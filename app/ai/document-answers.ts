// "Use a document I have" (docs/decisions/0032-grounded-ai-help.md): the questions of one interview page the model may
// answer from a person's letter or form, what is sent, and how each proposal is checked before the person sees it.
// A pure module: no server code.
import { type Field, type FieldType, listOptions, type Page, parseUserDate } from "~/a2j";
import { z } from "zod";
import type { ChatMessage } from "./chat.server";
import type { MessageKey } from "~/i18n/translator";
import { jsonInAnswer } from "./model-json";

/** The kinds of question a document can answer (not files, pictures, buttons or "none of the above"). */
const PROPOSABLE: ReadonlySet<FieldType> = new Set([
  "text",
  "textlong",
  "textpick",
  "number",
  "numberdollar",
  "numberpick",
  "numberphone",
  "numberzip",
  "datemdy",
  "radio",
  "checkbox",
  "gender",
]);

export type ProposalKind = "text" | "number" | "date" | "choice" | "yes-no";

/** A question of the page, as the model and the person see it. */
export interface ProposableField {
  /** The variable (lower-cased), the key of a proposal. */
  name: string;
  /** The variable as the guide writes it, for saving. */
  variable: string;
  /** The question in plain text. */
  label: string;
  kind: ProposalKind;
  /** For choices: the values the answer may take, with their labels. */
  choices: { value: string; label: string; labelKey?: MessageKey }[];
  /** When the label is ours (not the guide's): its message, for the page in the person's language. */
  labelKey?: MessageKey;
}

/** The longest document text sent to the model, and the most characters of one proposed answer. */
export const MAX_DOCUMENT_CHARS = 12_000;
const MAX_VALUE_CHARS = 2_000;
const MAX_QUOTE_CHARS = 600;

function kindOf(type: FieldType): ProposalKind {
  if (type === "number" || type === "numberdollar" || type === "numberpick") return "number";
  if (type === "datemdy") return "date";
  if (type === "textpick" || type === "radio" || type === "gender") return "choice";
  if (type === "checkbox") return "yes-no";
  return "text";
}

/**
 * The questions of a page a document could answer: one per variable (a radio group is one question with its
 * options as choices). `labelOf` turns a field's label into plain text (the caller renders its macros).
 */
export function proposableFields(page: Page, labelOf: (field: Field) => string): ProposableField[] {
  const byName = new Map<string, ProposableField>();
  for (const field of page.fields) {
    const name = field.name.trim().toLowerCase();
    if (!name || !PROPOSABLE.has(field.type)) continue;
    const kind = kindOf(field.type);
    const known = byName.get(name);
    if (known) {
      if (field.type === "radio") known.choices.push({ value: field.value, label: labelOf(field) || field.value });
      continue;
    }
    const choices =
      field.type === "radio"
        ? [{ value: field.value, label: labelOf(field) || field.value }]
        : field.type === "gender"
          ? [
              { value: "Male", label: "Male", labelKey: "ai.document.male" as const },
              { value: "Female", label: "Female", labelKey: "ai.document.female" as const },
            ]
          : field.type === "textpick"
            ? listOptions(field)
            : [];
    // A radio group's question is the page's (its fields' labels are the options).
    const label = field.type === "radio" ? "Choose one of the options" : labelOf(field);
    byName.set(name, { name, variable: field.name.trim(), label, kind, choices, ...(field.type === "radio" ? { labelKey: "ai.document.chooseOne" as const } : {}) });
  }
  return [...byName.values()].filter((field) => field.kind !== "choice" || field.choices.length > 0);
}

export function documentMessages(documentText: string, pageText: string, fields: readonly ProposableField[], redacted: boolean): ChatMessage[] {
  const described = fields.map((field) => {
    const shape =
      field.kind === "choice"
        ? `one of: ${field.choices.map((choice) => JSON.stringify(choice.value) + (choice.label !== choice.value ? ` (${choice.label})` : "")).join(", ")}`
        : field.kind === "date"
          ? "a date as YYYY-MM-DD"
          : field.kind === "number"
            ? "a number, digits only"
            : field.kind === "yes-no"
              ? '"true" or "false"'
              : "text";
    return `- "${field.name}": ${field.label} (${shape})`;
  });
  const system = [
    "You read a document a person received (a letter or a form) and propose answers to the questions of one page of a legal interview they are filling in.",
    "Propose an answer only where the document states it. For each answer, copy into \"quote\" the exact words of the document that support it (at most two sentences). Never guess; leave out a question the document does not answer.",
    'Answer with JSON only, in exactly this shape: {"answers":[{"field":"<question id>","value":"<answer>","quote":"<exact words from the document>"}]}',
    "The questions, by id, with the form each answer must take:",
    ...described,
  ];
  if (redacted) system.push("Placeholders such as [EMAIL_1], [PHONE_1], [ID_1] or [NAME_1] stand for personal details: keep each one exactly as written.");
  const user = `The interview page says:\n${pageText.slice(0, 2000)}\n\nThe document:\n${documentText.slice(0, MAX_DOCUMENT_CHARS)}`;
  return [
    { role: "system", content: system.join("\n") },
    { role: "user", content: user },
  ];
}

/** One answer the model proposes, checked: a question of the page, a value of the form it takes, a quote in the document. */
export interface Proposal {
  name: string;
  /** As the form posts it: text, a number, an ISO date, a choice's value, "true"/"false". */
  value: string;
  quote: string;
}

const answerSchema = z.object({
  answers: z
    .array(z.object({ field: z.string(), value: z.union([z.string(), z.number(), z.boolean()]), quote: z.string() }).loose())
    .max(100),
});

/** Text compared for quotes: quotes, dashes and white space of any kind made the same, case ignored. */
function comparable(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}


/** A proposed value in the form its question takes, or null when it does not fit. */
export function normaliseValue(field: ProposableField, raw: string | number | boolean): string | null {
  const text = String(raw).trim();
  if (!text) return null;
  switch (field.kind) {
    case "number": {
      const number = Number(text.replace(/[$€£,\s]/g, ""));
      return Number.isFinite(number) ? String(number) : null;
    }
    case "date": {
      const days = parseUserDate(text);
      return days === null || !/^\d{4}-\d{2}-\d{2}$/.test(text) ? null : text;
    }
    case "choice": {
      const lower = text.toLowerCase();
      const choice = field.choices.find((c) => c.value.toLowerCase() === lower) ?? field.choices.find((c) => c.label.toLowerCase() === lower);
      return choice ? choice.value : null;
    }
    case "yes-no":
      return /^(true|yes)$/i.test(text) ? "true" : /^(false|no)$/i.test(text) ? "false" : null;
    default:
      return text.slice(0, MAX_VALUE_CHARS);
  }
}

export type CheckedProposals = { ok: true; proposals: Proposal[]; dropped: number } | { ok: false; reason: "malformed" | "none"; dropped: number };

/**
 * Checks the model's answer against the page and the document: a proposal for a question the page does not have,
 * with a value its question cannot take, or with a quote that is not in the document is dropped. `restore` puts
 * back the personal details the document had before it was redacted.
 */
export function checkProposals(
  content: string,
  fields: readonly ProposableField[],
  documentText: string,
  restore: (text: string) => string = (text) => text,
): CheckedProposals {
  const parsed = answerSchema.safeParse(jsonInAnswer(content));
  if (!parsed.success) return { ok: false, reason: "malformed", dropped: 0 };
  const document = comparable(documentText);
  const proposals: Proposal[] = [];
  let dropped = 0;
  for (const answer of parsed.data.answers) {
    const field = fields.find((f) => f.name === answer.field.trim().toLowerCase());
    const value = field ? normaliseValue(field, typeof answer.value === "string" ? restore(answer.value) : answer.value) : null;
    const quote = restore(answer.quote).replace(/\s+/g, " ").trim().slice(0, MAX_QUOTE_CHARS);
    if (!field || value === null || !quote || !document.includes(comparable(quote)) || proposals.some((p) => p.name === field.name)) {
      dropped += 1;
      continue;
    }
    proposals.push({ name: field.name, value, quote });
  }
  return proposals.length ? { ok: true, proposals, dropped } : { ok: false, reason: "none", dropped };
}
