// What the rephrase screen and the server share: limits and the words shown when the AI does not help.

/** The longest answer sent to the AI, and the longest text taken back from it (characters). */
export const MAX_INPUT_CHARS = 4000;
export const MAX_OUTPUT_CHARS = 6000;

/**
 * Whether a question offers "Rephrase with AI": a long-text field whose variable is in its issue's list
 * (docs/decisions/0007-ai-rephrase.md). `name` is the variable's name in any case.
 */
export function offersRephrase(offered: readonly string[], field: { type: string; name: string }): boolean {
  return field.type === "textlong" && offered.includes(field.name.toLowerCase());
}

export const messages = {
  unavailable: "Rephrasing with AI is not available at the moment. Your own text is kept.",
  timeout: "The AI took too long to answer. Your text has not changed. Please try again in a moment.",
  failed: "The AI could not rephrase your text just now. Your text has not changed. Please try again later.",
};
