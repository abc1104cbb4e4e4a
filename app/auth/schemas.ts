import { z } from "zod";
import { messageRef } from "~/i18n/translator";
import { emailAddress, messages, personName, requiredText } from "~/ui/validation";
import { normalisedPhone, phoneCountry } from "./phone-countries";

/**
 * The account messages the product requires (word for word in English), and ours where it gives none: references
 * to the catalogue, put into the page's language where they are shown (`t.message`).
 */
export const authMessages = {
  accountExists: messageRef("auth.error.accountExists"),
  wrongCredentials: messageRef("auth.error.wrongCredentials"),
  phoneInvalid: messageRef("auth.error.phoneInvalid"),
  phoneCodeInvalid: messageRef("auth.error.phoneCodeInvalid"),
  passwordTooShort: messageRef("auth.error.passwordTooShort"),
  passwordTooLong: messageRef("auth.error.passwordTooLong"),
  passwordNeedsLetter: messageRef("auth.error.passwordNeedsLetter"),
  passwordNeedsNumber: messageRef("auth.error.passwordNeedsNumber"),
  confirmMismatch: messageRef("auth.error.confirmMismatch"),
  codeInvalid: messageRef("auth.error.codeInvalid"),
  passwordInvalid: messageRef("auth.error.passwordInvalid"),
  linkInvalid: messageRef("auth.error.linkInvalid"),
  expiredLink: messageRef("auth.linkProblem.signUpExpired"),
  notVerified: messageRef("auth.error.notVerified"),
} as const;

/** A new password: 8 to 128 characters with a letter and a number. Never trimmed. */
export function newPassword() {
  return z
    .string({ error: messages.required })
    .min(1, messages.required)
    .min(8, authMessages.passwordTooShort)
    .max(128, authMessages.passwordTooLong)
    .regex(/\p{L}/u, authMessages.passwordNeedsLetter)
    .regex(/\p{N}/u, authMessages.passwordNeedsNumber);
}

/** A phone number with its country-code selector, as typed (spaces, dashes, brackets, a leading plus). */
export const phoneFields = {
  phoneCountry: z
    .string({ error: authMessages.phoneCodeInvalid })
    .refine((code) => phoneCountry(code) !== undefined, authMessages.phoneCodeInvalid),
  phoneNumber: requiredText().max(30, authMessages.phoneInvalid),
};

/** The number read with its country (normalisedPhone): an error on the number field when it is none. */
export function checkPhone(value: { phoneCountry: string; phoneNumber: string }, ctx: z.RefinementCtx) {
  if (phoneCountry(value.phoneCountry) && !normalisedPhone(value.phoneCountry, value.phoneNumber)) {
    ctx.addIssue({ code: "custom", path: ["phoneNumber"], message: authMessages.phoneInvalid });
  }
}

export const signUpSchema = z
  .object({
    firstName: personName(),
    lastName: personName(),
    email: emailAddress(),
    ...phoneFields,
  })
  .superRefine(checkPhone);

export const setPasswordSchema = z
  .object({
    code: z.string({ error: authMessages.linkInvalid }).min(1, authMessages.linkInvalid),
    password: newPassword(),
    confirmPassword: z.string({ error: messages.required }),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    message: authMessages.confirmMismatch,
  });

export const signInSchema = z.object({
  email: emailAddress(),
  password: z.string({ error: messages.required }).min(1, messages.required),
});

/** A 6-digit code as people type it or apps show it ("123 456", "123-456"): spaces and dashes dropped. */
function sixDigitCode() {
  return requiredText()
    .transform((typed) => typed.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, authMessages.codeInvalid));
}

export const codeSchema = z.object({
  code: sixDigitCode(),
});

/** A recovery code as printed ("7g3kq-m2x9d"); whether it is one of the person's is the server's to say. */
export const recoveryCodeSchema = z.object({
  code: requiredText().max(40, authMessages.codeInvalid),
});

/** Making new recovery codes from the account area: the password again. */
export const newRecoveryCodesSchema = z.object({
  password: z.string({ error: messages.required }).min(1, messages.required),
});

/** A new authenticator: the password, proof of the old factor, and a first code from the new app. */
export const newAuthenticatorSchema = z.object({
  password: z.string({ error: messages.required }).min(1, messages.required),
  currentCode: requiredText().max(40, authMessages.codeInvalid),
  code: sixDigitCode(),
});

export const emailSchema = z.object({ email: emailAddress() });
