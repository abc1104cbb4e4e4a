import { z } from "zod";
import { MAX_INPUT_CHARS, MAX_OUTPUT_CHARS } from "./rephrase";

export const formMessages = {
  empty: "Please write your answer before asking the AI to rephrase it.",
  tooLong: `Your answer is too long to rephrase: please keep it to ${MAX_INPUT_CHARS.toLocaleString("en")} characters.`,
  choose: "Please choose the text you want to keep.",
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
