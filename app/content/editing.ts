// What an administrator edits, per kind of content: one zod schema per form (shared by the action and the
// browser) and the fields' labels (shared by the form, the error summary and the diff).
import { z } from "zod";
import { longText, messages, requiredText } from "~/ui/validation";
import type { ContentBodies, ItemKind } from "../../db/content-versions";

export const intents = ["preview", "draft", "publish"] as const;
export type EditIntent = (typeof intents)[number];

/** Markdown fields get room: a legal page is long, but not without bound. */
const MARKDOWN_MAX = 60_000;
const markdown = () => longText(MARKDOWN_MAX);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `This field must be less than ${max} characters.`)
    .optional()
    .transform((value) => value ?? "");

const intent = z.enum(intents).catch("preview");

export const countrySchema = z.object({
  intent,
  name: longText(100),
  order: z.coerce
    .number({ error: "Enter a whole number, for example 5." })
    .int("Enter a whole number, for example 5.")
    .min(-1000, "Enter a number from -1000 to 1000.")
    .max(1000, "Enter a number from -1000 to 1000."),
  dateOrder: z.enum(["DMY", "MDY"], { error: messages.required }),
  dateStyle: z.enum(["long", "numeric"], { error: messages.required }),
  // A form from before the choice existed posts none: Latin, as dates were then.
  dateDigits: z.enum(["latin", "native"]).default("latin"),
});

export const issueSchema = z.object({
  intent,
  name: longText(150),
  countryId: z.coerce.number({ error: messages.required }).int(messages.required).positive(messages.required),
  content: markdown(),
  guideId: optionalText(200),
  modelAI: longText(100),
  rephraseContent: optionalText(4000),
  rephraseVariables: optionalText(2000),
  sensitive: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

export const homeSchema = z.object({
  intent,
  headline: longText(200),
  subHeadline: longText(400),
  bodyCopy: markdown(),
});

export const legalSchema = z.object({ intent, name: longText(150), content: markdown() });

export const editSchemas = { country: countrySchema, issue: issueSchema, home: homeSchema, legal: legalSchema } as const;

/**
 * An item's fields in another language (db/content-versions.ts `translatedFields`), each optional: a field left
 * empty shows the default language's text, with a notice on the page.
 */
export const translationSchemas = {
  country: z.object({ intent, name: optionalText(100) }),
  issue: z.object({ intent, name: optionalText(150), content: optionalText(MARKDOWN_MAX) }),
  home: z.object({ intent, headline: optionalText(200), subHeadline: optionalText(400), bodyCopy: optionalText(MARKDOWN_MAX) }),
  legal: z.object({ intent, name: optionalText(150), content: optionalText(MARKDOWN_MAX) }),
} as const;

/** Each kind's fields as the pages label them, in the order of the form. */
export const fieldLabels: { [K in ItemKind]: Partial<Record<keyof ContentBodies[K], string>> } = {
  country: { name: "Name", order: "Order", dateOrder: "Order of dates", dateStyle: "Style of dates", dateDigits: "Digits in dates" },
  issue: {
    name: "Name",
    countryId: "Country",
    content: "Description",
    guideId: "Guide",
    modelAI: "AI model",
    rephraseContent: "Rephrase instructions",
    rephraseVariables: "Rephrase variables",
    sensitive: "Sensitive",
  },
  home: { headline: "Headline", subHeadline: "Line under the headline", bodyCopy: "Introduction" },
  legal: { name: "Title", content: "Text" },
};

/** The fields written in markdown, shown rendered by the preview. */
export const markdownFields: { [K in ItemKind]: (keyof ContentBodies[K])[] } = {
  country: [],
  issue: ["content"],
  home: ["bodyCopy"],
  legal: ["content"],
};

export const kindNames: Record<ItemKind, string> = { country: "country", issue: "issue", home: "home page", legal: "page" };

/** Comma-separated variable names, as the form shows them. */
export function variableList(names: string[]): string {
  return names.join(", ");
}

export function parseVariableList(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}
