import { z } from "zod";
import { checkPhone, phoneFields } from "~/auth/schemas";
import { emailAddress, messages, personName } from "~/ui/validation";
import { deskWords, preparedWords, shareMessages } from "./words";

/** A form value that may come once or several times (ticked boxes): always a list. */
const list = <T extends z.ZodType>(item: T, atLeastOne: string) =>
  z.preprocess((value) => (value === undefined || value === "" ? [] : Array.isArray(value) ? value : [value]), z.array(item).min(1, atLeastOne));

export const SHAREABLE = ["answers", "documents", "files"] as const;

/** "Ask for help with this interview": what to share (at least one), and an optional message. */
export const shareSchema = z.object({
  share: list(z.enum(SHAREABLE, shareMessages.nothingChosen), shareMessages.nothingChosen),
  message: z
    .string()
    .trim()
    .max(2000, shareMessages.messageTooLong)
    .optional()
    .transform((value) => value || null),
});

/** A helper's reply: about the whole interview (no page) or one page of the list they were offered. */
export const replySchema = z.object({
  about: z
    .string()
    .max(300, deskWords.unknownPage)
    .optional()
    .transform((value) => value || null),
  body: z.string({ error: deskWords.replyRequired }).trim().min(1, deskWords.replyRequired).max(5000, deskWords.replyTooLong),
});

/** Starting an interview for someone. */
export const prepareSchema = z.object({
  issueId: z
    .string({ error: preparedWords.chooseIssue })
    .regex(/^[1-9][0-9]{0,8}$/, preparedWords.chooseIssue)
    .transform(Number),
  firstName: personName(),
  lastName: personName(),
  email: emailAddress(),
});

/** Creating an account through an invitation: as signing up, with the email the invitation was sent to. */
export const invitationSignUpSchema = z
  .object({ firstName: personName(), lastName: personName(), ...phoneFields, code: z.string({ error: messages.required }).min(1).max(100) })
  .superRefine(checkPhone);
