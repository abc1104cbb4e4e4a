/** The longest answer sent to the AI, and the longest text taken back from it (characters). */
export const MAX_INPUT_CHARS = 4000;
export const MAX_OUTPUT_CHARS = 6000;
