import type { Progress } from "~/a2j";
import { translator, type Translator } from "~/i18n/translator";
import { viewerNumber } from "./progress";

/** What an interview's titles name it by: its issue, or in preview its guide; a sensitive issue by no name. */
export interface InterviewSubject {
  name: string;
  sensitive: boolean;
}

/** "{title} | Legal Self-Help": the site's name as the language's catalogue writes it (English for the viewer's own languages). */
function onSite(t: Translator, title: string): string {
  return t.t("site.title", { title, site: t.t("site.name") });
}

/**
 * The document title of an interview page, for the host page and the viewer's frame alike, in the guide's
 * language (`t`): what the page asks, where it is, and which interview ("Your situation – Step 2 of 5 – Divorce
 * and separation | Legal Self-Help"), prefixed "Error: " when the page shows errors, so that a screen reader
 * announces each step. A sensitive issue's titles say only the step ("Step 2 of 5 – Interview | Legal
 * Self-Help"): a title is what tabs and the browser's history show (docs/decisions/0041); focus still moves to
 * the page's heading.
 */
export function interviewPageTitle(
  page: { heading: string; headingUnnamed?: true; progress: Pick<Progress, "step">; errors: unknown[] },
  subject: InterviewSubject,
  t: Translator = translator("en"),
): string {
  const parts = subject.sensitive ? [] : [page.headingUnnamed ? t.t("viewer.question") : page.heading];
  const step = page.progress.step;
  if (step) parts.push(t.t("viewer.progress.step", { number: viewerNumber(t, step.number), count: viewerNumber(t, step.of) }));
  parts.push(subject.sensitive ? t.t("viewer.title.interview") : subject.name);
  const title = parts.join(" – ");
  return onSite(t, page.errors.length ? t.t("viewer.title.error", { title }) : title);
}

export function reviewTitle(subject: InterviewSubject, t: Translator = translator("en")): string {
  return onSite(t, `${t.t("viewer.review.title")} – ${subject.sensitive ? t.t("viewer.title.interview") : subject.name}`);
}
