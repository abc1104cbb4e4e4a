import { z } from "zod";
import { messageRef } from "~/i18n/translator";
import { emailAddress, longText, requiredText } from "~/ui/validation";

/** A full name typed as a signature: trimmed, required, at most this many characters. */
export const SIGNATURE_NAME_MAX = 120;
/** A drawn signature (a PNG data: URL) is at most this long: a phone's canvas is well under it. */
export const DRAWING_MAX = 400_000;
export const REASON_MAX = 1000;

const fullName = () => requiredText().max(SIGNATURE_NAME_MAX, messageRef("common.validation.tooLong", { max: SIGNATURE_NAME_MAX }));
const drawing = () =>
  z
    .string()
    .max(DRAWING_MAX)
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/)
    .optional()
    .catch(undefined);
const confirm = () => z.literal("on", { error: messageRef("signing.validation.confirm") });

/** The person's own signature, and one other signer for each other place (`others`). */
export const ownSignatureSchema = z.object({
  fullName: fullName(),
  drawing: drawing(),
  confirm: confirm(),
  others: z.array(z.object({ name: requiredText().max(SIGNATURE_NAME_MAX, messageRef("common.validation.tooLong", { max: SIGNATURE_NAME_MAX })), email: emailAddress() })).max(10).default([]),
});

/** Another signer's signature. */
export const otherSignatureSchema = z.object({ intent: z.literal("sign"), fullName: fullName(), drawing: drawing(), confirm: confirm() });

/** The one-time code emailed to another signer. */
export const codeSchema = z.object({ intent: z.literal("check"), oneTimeCode: requiredText().regex(/^\d{6}$/, messageRef("signing.validation.code")) });

/** Declining, with the reason the person will see. */
export const declineSchema = z.object({ intent: z.literal("decline"), reason: longText(REASON_MAX) });
