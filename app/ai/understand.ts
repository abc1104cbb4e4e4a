// "Understand my situation" (docs/decisions/0032-grounded-ai-help.md): what is sent to the model and how its answer is
// checked before anyone sees it. A pure module: no server code, so the checks are tested on their own.
import { fleschKincaid } from "flesch-kincaid";
import { syllable } from "syllable";
import { z } from "zod";
import { type Answers, displayValue, isBlank } from "~/a2j";
import type { ChatMessage } from "./chat.server";
import { messageRef } from "~/i18n/translator";
import { jsonInAnswer } from "./model-json";
import { languageInstruction, writtenIn } from "./answer-language";

/** A passage of one of the organisation's sources, as the search finds it. */
export interface GroundingPassage {
  passageId: number;
  sourceTitle: string;
  sourceUrl: string;
  /** The language its source is written in: the page marks the passage with it. */
  language?: string;
  heading?: string | null;
  text: string;
}

export type ExplanationSection = "situation" | "options";

/** One statement shown to the person, with the passages (numbered from 1, as given to the model) behind it. */
export interface Statement {
  section: ExplanationSection;
  text: string;
  citations: number[];
}

/** The longest question, and the most passages given to the model. */
export const MAX_QUESTION_CHARS = 2000;
export const MAX_PASSAGES = 6;
const MAX_PASSAGE_CHARS = 1500;
const MAX_STATEMENT_CHARS = 800;
const MAX_STATEMENTS_PER_SECTION = 8;

/** The reading level aimed at (US school grades 6 to 8); above the upper bound the model is asked once to simplify. */
export const TARGET_GRADE = { low: 6, high: 8 };
export const SIMPLIFY_ABOVE_GRADE = 9;

export function systemMessage(context: { issueName: string; countryName: string; redacted: boolean; language?: string }): string {
  const lines = [
    `You explain a legal situation in plain language to a member of the public in ${context.countryName}, about "${context.issueName}".`,
    "Use only the numbered source passages you are given. Do not use anything else you know.",
    `Write short sentences and everyday words, for a reader at school grade ${TARGET_GRADE.low} to ${TARGET_GRADE.high}. Explain the person's situation, then the options people in this situation usually have. This is legal information, not advice: do not tell the person what they must do.`,
    'Answer with JSON only, in exactly this shape: {"situation":[{"text":"...","sources":[1]}],"options":[{"text":"...","sources":[2,3]}]}',
    "Every statement must list the numbers of the passages that support it in \"sources\". A statement no passage supports must be left out. If the passages do not answer the question, answer {\"situation\":[],\"options\":[]}.",
    languageInstruction(context.language ?? "en"),
  ];
  if (context.redacted) lines.push("Placeholders such as [EMAIL_1], [PHONE_1], [ID_1] or [NAME_1] stand for personal details: keep each one exactly as written.");
  return lines.join("\n");
}

export function userMessage(question: string, passages: readonly GroundingPassage[]): string {
  const numbered = passages.map((passage, index) => {
    const title = passage.heading ? `${passage.sourceTitle}: ${passage.heading}` : passage.sourceTitle;
    return `[${index + 1}] ${title}\n${passage.text.slice(0, MAX_PASSAGE_CHARS)}`;
  });
  return `The person's question:\n${question}\n\nSource passages:\n\n${numbered.join("\n\n")}`;
}

export function understandMessages(
  question: string,
  passages: readonly GroundingPassage[],
  context: { issueName: string; countryName: string; redacted: boolean; language?: string },
): ChatMessage[] {
  return [
    { role: "system", content: systemMessage(context) },
    { role: "user", content: userMessage(question, passages) },
  ];
}

/** Asked once when the first answer reads above SIMPLIFY_ABOVE_GRADE. */
export function simplifyMessage(grade: number): ChatMessage {
  return {
    role: "user",
    content: `That answer is too hard to read (about school grade ${Math.round(grade)}). Say the same things with shorter sentences and simpler words, citing the same sources, in the same JSON shape.`,
  };
}

const statementSchema = z.object({
  text: z.string(),
  // "sources" is what is asked for; "citations" is what some models write anyway.
  sources: z.array(z.unknown()).optional(),
  citations: z.array(z.unknown()).optional(),
});
const answerSchema = z.object({
  situation: z.array(statementSchema).max(50).default([]),
  options: z.array(statementSchema).max(50).default([]),
});

export type CheckedAnswer =
  | { ok: true; statements: Statement[]; dropped: number }
  | { ok: false; reason: "malformed" | "uncited" | "other-language" | "no-answer"; dropped: number };


/**
 * Checks a model's answer: its shape, and that every statement cites passages that were given (numbers 1 to
 * `passageCount`). Statements without a valid citation are dropped, never shown; an answer with none left is
 * refused. A statement not written in the person's language's writing system is dropped the same way. Texts are
 * plain text (rendered as text, never as HTML) and capped.
 */
export function checkAnswer(content: string, passageCount: number, language = "en"): CheckedAnswer {
  const parsed = answerSchema.safeParse(jsonInAnswer(content));
  if (!parsed.success) return { ok: false, reason: "malformed", dropped: 0 };
  const statements: Statement[] = [];
  let dropped = 0;
  let otherLanguage = 0;
  for (const section of ["situation", "options"] as const) {
    for (const raw of parsed.data[section].slice(0, MAX_STATEMENTS_PER_SECTION)) {
      const text = raw.text.replace(/\s+/g, " ").trim().slice(0, MAX_STATEMENT_CHARS);
      const cited = [...(raw.sources ?? []), ...(raw.citations ?? [])]
        .map((value) => (typeof value === "string" ? Number(value.replace(/^\[|\]$/g, "")) : value))
        .filter((value): value is number => typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= passageCount);
      const citations = [...new Set(cited)].sort((a, b) => a - b);
      if (!text || citations.length === 0) {
        dropped += 1;
        continue;
      }
      if (!writtenIn(text, language)) {
        dropped += 1;
        otherLanguage += 1;
        continue;
      }
      statements.push({ section, text, citations });
    }
  }
  if (statements.length) return { ok: true, statements, dropped };
  return { ok: false, reason: otherLanguage ? "other-language" : dropped ? "uncited" : "no-answer", dropped };
}

/** Sentences and words of a plain text, counted the way readability formulas count them. */
function counts(text: string) {
  const words = text.match(/[A-Za-zÀ-ÿ'’]+(?:-[A-Za-zÀ-ÿ'’]+)*/g) ?? [];
  const sentences = text.split(/[.!?]+(?:\s|$)/).filter((part) => /[A-Za-zÀ-ÿ]/.test(part)).length;
  return { sentence: Math.max(1, sentences), word: words.length, syllable: words.reduce((sum, word) => sum + Math.max(1, syllable(word)), 0) };
}

/** The Flesch-Kincaid grade of a text (null for a text without words). */
export function readingGrade(text: string): number | null {
  const counted = counts(text);
  if (counted.word === 0) return null;
  return Math.round(fleschKincaid(counted) * 10) / 10;
}

/**
 * An interview's answers so far as a question for the search and the model ("Variable: value" lines), when the
 * person agrees to use them. Files and empty answers are left out; the whole is capped like a typed question.
 */
export function answersAsQuestion(answers: Answers): string {
  const lines: string[] = [];
  for (const variable of Object.values(answers)) {
    const values = variable.values.slice(1).filter((value) => !isBlank(value)).map((value) => displayValue(value));
    if (!values.length || /^attachments\//.test(values[0] ?? "")) continue;
    lines.push(`${variable.name}: ${values.join("; ")}`);
  }
  return lines.join("\n").slice(0, MAX_QUESTION_CHARS);
}

/** References (ai.understand.*), put into words by the page. */
export const understandFormMessages = {
  nothingToAsk: messageRef("ai.understand.nothingToAsk"),
  tooLong: messageRef("ai.understand.tooLong", { max: MAX_QUESTION_CHARS }),
};

/** The "Understand my situation" form: a question, or consent to use the interview's answers, or both. */
export const understandSchema = z
  .object({
    question: z.string().trim().max(MAX_QUESTION_CHARS, understandFormMessages.tooLong).default(""),
    // A ticked checkbox posts "on".
    useAnswers: z.literal("on").optional(),
  })
  .refine((value) => value.question !== "" || value.useAnswers === "on", { path: ["question"], message: understandFormMessages.nothingToAsk });
