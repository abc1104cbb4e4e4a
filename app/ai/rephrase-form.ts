import { z } from "zod";
import { messageRef } from "~/i18n/translator";
import { MAX_INPUT_CHARS, MAX_OUTPUT_CHARS } from "./rephrase";

/** References (ai.rephrase.*), put into words by the page. */
export const formMessages = {
  empty: messageRef("ai.rephrase.empty"),
  tooLong: messageRef("ai.rephrase.tooLong", { max: MAX_INPUT_CHARS }),
  choose: messageRef("ai.rephrase.choose"),
};

/** The first Continue: the person's answer, as they may have edited it, to send to the AI. */
export const askSchema = z.object({
  text: z.string({ error: formMessages.empty }).trim().min(1, formMessages.empty).max(MAX_INPUT_CHARS, formMessages.tooLong),
});

/** The second Continue: which text to keep, with both texts carried by the form. */
export const chooseSchema = z.object({
  choice: z.enum(["ai", "own"], { error: formMessages.choose }),
  text: z.string().max(MAX_INPUT_CHARS).default(""),
  suggestion: z.string().max(MAX_OUTPUT_CHARS).default(""),
});
