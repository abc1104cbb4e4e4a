import { z } from "zod";
import { EMAIL_ADDRESS } from "~/a2j/validate";

/** The validation messages the product requires, word for word. */
export const messages = {
  required: "This field is required.",
  nameTooLong: "This field must be less than 50 characters.",
  emailInvalid: "The email format is invalid.",
} as const;

export const NAME_MAX_LENGTH = 50;

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
  return requiredText().max(max, `This field must be less than ${max} characters.`);
}
