import { z } from "zod";
import { emailAddress, longText, personName } from "~/ui/validation";

export const MESSAGE_MAX_LENGTH = 5000;

/** The contact form: every field required, names trimmed and at most 50 characters. */
export const contactSchema = z.object({
  firstName: personName(),
  lastName: personName(),
  email: emailAddress(),
  message: longText(MESSAGE_MAX_LENGTH),
});

export type ContactMessage = z.infer<typeof contactSchema>;
