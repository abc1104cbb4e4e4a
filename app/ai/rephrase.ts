// What the rephrase screen, the server and the viewer share (a pure module: no server code): limits, which
// questions offer rephrasing, the screen's address, and the words shown when the AI does not help.

import { messageRef } from "~/i18n/translator";

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

/** One answer of an interview: a variable and, in a loop, which of its answers (from 1). */
export interface RephraseTarget {
  interviewId: string;
  variable: string;
  index: number;
}

const MAX_INDEX = 10_000;

/** The target named by /ai/rephrase/:interviewId?variable=…&index=…, or null when any part is malformed. */
export function parseRephraseTarget(interviewId: string | undefined, url: URL): RephraseTarget | null {
  const variable = (url.searchParams.get("variable") ?? "").trim().toLowerCase();
  const indexText = url.searchParams.get("index") ?? "1";
  const index = /^[1-9]\d{0,4}$/.test(indexText) ? Number(indexText) : 0;
  if (!interviewId || !/^[0-9a-f-]{36}$/.test(interviewId) || !variable || variable.length > 200 || index < 1 || index > MAX_INDEX) {
    return null;
  }
  return { interviewId, variable, index };
}

export function rephraseUrl(target: RephraseTarget): string {
  return `/ai/rephrase/${target.interviewId}?${new URLSearchParams({ variable: target.variable, index: String(target.index) }).toString()}`;
}

/** References (ai.rephrase.*), put into words by the page. */
export const messages = {
  unavailable: messageRef("ai.rephrase.unavailable"),
  timeout: messageRef("ai.rephrase.timeout"),
  failed: messageRef("ai.rephrase.failed"),
  otherLanguage: messageRef("ai.rephrase.otherLanguage"),
};
