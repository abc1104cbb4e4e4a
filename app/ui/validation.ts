import { z } from "zod";
import { EMAIL_ADDRESS } from "~/a2j/validate";
import { messageRef } from "~/i18n/translator";

export const NAME_MAX_LENGTH = 50;

/**
 * The validation messages the product requires, word for word in English: references to the catalogue
 * (`common.validation.*`), put into the page's language by the form fields (`t.message`).
 */
export const messages = {
  required: messageRef("common.validation.required"),
  nameTooLong: messageRef("common.validation.tooLong", { max: NAME_MAX_LENGTH }),
  emailInvalid: messageRef("common.validation.emailInvalid"),
} as const;

/** A required text field: trimmed; missing or blank gives "This field is required.". */
export function requiredText() {
  return z.string({ error: messages.required }).trim().min(1, messages.required);
}

/** A first or last name: trimmed, required, at most 50 characters. */
export function personName() {
  return requiredText().max(NAME_MAX_LENGTH, messages.nameTooLong);
}

/** A required email address. */
export function emailAddress() {
  return requiredText()
    .max(254, messages.emailInvalid)
    .pipe(z.email({ pattern: EMAIL_ADDRESS, error: messages.emailInvalid }));
}

/** A required long text with an upper bound, worded like the name rule. */
export function longText(max: number) {
  return requiredText().max(max, messageRef("common.validation.tooLong", { max }));
}
