import { z } from "zod";
import { messageRef } from "~/i18n/translator";
import { emailAddress, longText, personName } from "~/ui/validation";

export const MESSAGE_MAX_LENGTH = 5000;

/**
 * The mail service failed: the product's "System Error", said on the page above the form (which keeps what was
 * typed), with what to do, since a toast would vanish before the person knew the message was not sent ("System
 * Error: your message was not sent. Please try again in a moment.").
 */
export const sendFailedMessage = messageRef("public.contact.sendFailed");

/** The contact form: every field required, names trimmed and at most 50 characters. */
export const contactSchema = z.object({
  firstName: personName(),
  lastName: personName(),
  email: emailAddress(),
  message: longText(MESSAGE_MAX_LENGTH),
});

export type ContactMessage = z.infer<typeof contactSchema>;
