import { z } from "zod";
import { authMessages, checkPhone, newPassword, phoneFields } from "~/auth/schemas";
import { messageRef } from "~/i18n/translator";
import { messages, personName, requiredText } from "~/ui/validation";

export const profileSchema = z.object({ firstName: personName(), lastName: personName(), ...phoneFields }).superRefine(checkPhone);

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: messages.required }).min(1, messages.required).min(8, authMessages.passwordTooShort),
    password: newPassword(),
    confirmPassword: z.string({ error: messages.required }),
  })
  .refine((value) => value.password !== value.currentPassword, {
    path: ["password"],
    message: messageRef("account.changePassword.mustDiffer"),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    message: authMessages.confirmMismatch,
  });

/** Deleting the account: the password and a current authenticator code or a recovery code. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: messages.required }).min(1, messages.required),
  code: requiredText().max(40, authMessages.codeInvalid),
});
