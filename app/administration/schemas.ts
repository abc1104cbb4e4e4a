import { z } from "zod";
import { GUIDE_ID, guideIdMessage } from "~/guides/guide-id";
import { emailAddress } from "~/ui/validation";

export const grantSchema = z.object({ email: emailAddress() });

const ids = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string().regex(/^[1-9][0-9]{0,8}$/, "Choose countries and issues from the lists.").transform(Number)).max(500),
);

/** Making a helper, or changing what a helper may help with: no country and no issue ticked means all of them. */
export const helperSchema = z.object({ email: emailAddress(), countries: ids, issues: ids });

export const guideUploadMessages = {
  noFile: "Choose a guide file to upload.",
  noTarget: "Give the new guide an id, or choose the guide this is a new version of.",
  both: "Leave the id empty when the upload is a new version of an existing guide.",
} as const;

/** The guide upload: a new guide (with an id) or a new version of an existing one; the file. */
export const guideUploadSchema = z
  .object({
    existing: z.string().trim().optional(),
    guideId: z.string().trim().optional(),
    file: z.instanceof(File, { message: guideUploadMessages.noFile }).refine((file) => file.size > 0, guideUploadMessages.noFile),
  })
  .superRefine((value, ctx) => {
    if (!value.existing && !value.guideId) ctx.addIssue({ code: "custom", path: ["guideId"], message: guideUploadMessages.noTarget });
    else if (value.existing && value.guideId) ctx.addIssue({ code: "custom", path: ["guideId"], message: guideUploadMessages.both });
    else if (value.guideId && !GUIDE_ID.test(value.guideId)) ctx.addIssue({ code: "custom", path: ["guideId"], message: guideIdMessage });
  });

/** Attaching a guide to an issue. */
export const attachGuideSchema = z.object({
  issueId: z
    .string({ message: "Choose an issue." })
    .regex(/^[1-9][0-9]{0,8}$/, "Choose an issue.")
    .transform(Number),
});

/** A guide's language (a BCP 47 tag) and the guide it translates, if any ("" for none). */
export const guideLanguageSchema = z.object({
  language: z
    .string({ message: "Choose the language the guide is written in." })
    .trim()
    .refine((tag) => {
      try {
        return tag !== "" && Intl.getCanonicalLocales(tag).length === 1;
      } catch {
        return false;
      }
    }, "Choose the language the guide is written in.")
    .transform((tag) => Intl.getCanonicalLocales(tag)[0]!),
  translationOf: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || null)
    .refine((value) => value === null || GUIDE_ID.test(value), "Choose a guide from the list."),
});
