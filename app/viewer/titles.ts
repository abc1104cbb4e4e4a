import type { Progress } from "~/a2j";

const SITE = "Legal Self-Help";

/**
 * The document title of an interview page, for the host page and the viewer's frame alike: what the page
 * asks, where it is, and which interview ("Your situation – Step 2 of 5 – Divorce and separation | Legal
 * Self-Help"), prefixed "Error: " when the page shows errors, so that a screen reader announces each step.
 */
export function interviewPageTitle(page: { heading: string; progress: Pick<Progress, "step">; errors: unknown[] }, subject: string): string {
  const parts = [page.heading];
  const step = page.progress.step;
  if (step) parts.push(`Step ${step.number} of ${step.of}`);
  parts.push(subject);
  return `${page.errors.length ? "Error: " : ""}${parts.join(" – ")} | ${SITE}`;
}

export const CHECK_ANSWERS = "Check your answers";

export function reviewTitle(subject: string): string {
  return `${CHECK_ANSWERS} – ${subject} | ${SITE}`;
}
