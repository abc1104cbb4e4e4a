import type { Progress } from "~/a2j";

const SITE = "Legal Self-Help";

/** What an interview's titles name it by: its issue, or in preview its guide; a sensitive issue by no name. */
export interface InterviewSubject {
  name: string;
  sensitive: boolean;
}

/** Stands for the page's heading and the name in the titles of a sensitive issue's interview. */
const SENSITIVE_SUBJECT = "Interview";

/**
 * The document title of an interview page, for the host page and the viewer's frame alike: what the page
 * asks, where it is, and which interview ("Your situation – Step 2 of 5 – Divorce and separation | Legal
 * Self-Help"), prefixed "Error: " when the page shows errors, so that a screen reader announces each step.
 * A sensitive issue's titles say only the step ("Step 2 of 5 – Interview | Legal Self-Help"): a title is what
 * tabs and the browser's history show (docs/decisions/0041); focus still moves to the page's heading.
 */
export function interviewPageTitle(page: { heading: string; progress: Pick<Progress, "step">; errors: unknown[] }, subject: InterviewSubject): string {
  const parts = subject.sensitive ? [] : [page.heading];
  const step = page.progress.step;
  if (step) parts.push(`Step ${step.number} of ${step.of}`);
  parts.push(subject.sensitive ? SENSITIVE_SUBJECT : subject.name);
  return `${page.errors.length ? "Error: " : ""}${parts.join(" – ")} | ${SITE}`;
}

export const CHECK_ANSWERS = "Check your answers";

export function reviewTitle(subject: InterviewSubject): string {
  return `${CHECK_ANSWERS} – ${subject.sensitive ? SENSITIVE_SUBJECT : subject.name} | ${SITE}`;
}
