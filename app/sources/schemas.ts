// The "Add a source" and "Edit a source" forms, shared by the server's actions and the browser's checks (no server code here).
import { z } from "zod";
import { DEFAULT_LANGUAGE, languages } from "~/i18n/languages";

/** The breadcrumb step back to the list, on every page of one source. */
export const sourcesTrail = [{ label: "Sources", href: "/admin/sources" }];

/** Pasted text travels as one form field, which the request limits cap at 100 KB (docs/decisions/0014). */
export const MAX_PASTED_CHARS = 50_000;

export const sourceMessages = {
  title: "Enter the source's title.",
  titleLong: "The title must be 200 characters or fewer.",
  url: "Enter the source's public link.",
  urlInvalid: "Enter a link that starts with http:// or https://, like https://www.example.org/page.",
  country: "Choose a country.",
  issue: "Choose an issue from the list.",
  content: "Upload a file or paste the text of the source.",
  both: "Upload a file or paste text, not both.",
  language: "Choose the language the source is written in.",
  pastedLong: `The pasted text must be ${MAX_PASTED_CHARS.toLocaleString("en")} characters or fewer: upload a file instead.`,
} as const;

const sourceFields = z.object({
  title: z.string({ error: sourceMessages.title }).trim().min(1, sourceMessages.title).max(200, sourceMessages.titleLong),
  url: z
    .string({ error: sourceMessages.url })
    .trim()
    .min(1, sourceMessages.url)
    .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: sourceMessages.urlInvalid })),
  countryId: z.string({ error: sourceMessages.country }).regex(/^[1-9]\d{0,9}$/, sourceMessages.country).transform(Number),
  issueId: z.string().regex(/^[1-9]\d{0,9}$/, sourceMessages.issue).transform(Number).optional(),
  // Missing (a form from before languages): the default language.
  language: z
    .string()
    .optional()
    .transform((value) => value || DEFAULT_LANGUAGE)
    .refine((value) => languages.some((language) => language.code === value), sourceMessages.language),
  file: z.instanceof(File).optional(),
  markdown: z.string().max(MAX_PASTED_CHARS, sourceMessages.pastedLong).optional(),
});

// The refinements are checked with the other fields' mistakes (`when`), so that every mistake is shown at once.
export const addSourceSchema = sourceFields
  .refine((value) => hasFile(value) || hasText(value), { path: ["file"], message: sourceMessages.content, when: () => true })
  .refine((value) => !(hasFile(value) && hasText(value)), { path: ["markdown"], message: sourceMessages.both, when: () => true });

/** Editing a source: its details, and its text only when a new file or new text is given (else the passages stay). */
export const editSourceSchema = sourceFields.refine((value) => !(hasFile(value) && hasText(value)), {
  path: ["markdown"],
  message: sourceMessages.both,
  when: () => true,
});

// Also called on a value whose other fields failed their checks: read defensively.
function hasFile(value: { file?: unknown }) {
  return value.file instanceof File && value.file.size > 0;
}

function hasText(value: { markdown?: unknown }) {
  return typeof value.markdown === "string" && value.markdown.trim() !== "";
}
