import type { ReviewAnswer, ReviewStep } from "~/a2j";
import { useT } from "~/i18n/react";
import type { Translator } from "~/i18n/translator";
import { viewerNumber } from "./progress";
import { type ViewerDocumentProps, viewerLangAttributes } from "./viewer-page";

/**
 * Every answer, grouped by step, loop entries numbered. With `change`, each answer has a Change button that
 * reopens its page (a POST: it moves the interview); read-only otherwise (a completed interview's summary).
 */
export function AnswerSummary({ steps, change }: { steps: ReviewStep[]; change: boolean }) {
  const t = useT();
  if (steps.length === 0) return <p>{t.t("viewer.review.none")}</p>;
  return (
    <>
      {steps.map((step) => (
        <section key={step.title} className="answer-summary" aria-labelledby={`answers-${slug(step.title)}`}>
          <h2 id={`answers-${slug(step.title)}`} className="answer-summary__step">
            {step.stepNumber !== undefined ? t.t("viewer.review.step", { number: viewerNumber(t, step.stepNumber) }) : step.title}
          </h2>
          {entries(step, t).map(({ entry, answers }) => (
            <div key={entry ?? ""} className="answer-summary__entry">
              {entry !== null ? <h3 className="answer-summary__entry-title">{entry}</h3> : null}
              <dl className="answer-summary__list">
                {answers.map((answer, i) => (
                  <div key={`${answer.historyIndex}-${i}`} className="answer-summary__row">
                    <dt>{answer.question}</dt>
                    <dd>{answer.says ? t.t(`viewer.answer.${answer.says}`) : answer.answer}</dd>
                    {change ? (
                      <dd className="answer-summary__action">
                        <button type="submit" name="_intent" value={`change:${answer.historyIndex}`} className="link-button">
                          {t.t("viewer.review.change")}
                          <span className="visually-hidden"> {answer.question}{entry !== null ? ` (${entry})` : ""}</span>
                        </button>
                      </dd>
                    ) : null}
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </section>
      ))}
    </>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "step";
}

/** A loop entry's name: its loop's noun and its number ("Event 2"), "Entry 2" in the guide's language when unnamed. */
function entryName(answer: ReviewAnswer, t: Translator): string | null {
  if (answer.entry === null) return null;
  const noun = answer.entryNoun === null || answer.entryNoun === "Entry" ? t.t("viewer.entry") : answer.entryNoun;
  return t.t("viewer.progress.entryNumber", { noun, number: viewerNumber(t, answer.entry) });
}

/** A step's answers split where the loop entry changes; each entry named by its loop's noun ("Event 2"). */
function entries(step: ReviewStep, t: Translator) {
  const out: { entry: string | null; answers: ReviewStep["answers"] }[] = [];
  for (const answer of step.answers) {
    const entry = entryName(answer, t);
    const last = out.at(-1);
    if (last && last.entry === entry) last.answers.push(answer);
    else out.push({ entry, answers: [answer] });
  }
  return out;
}

export interface ViewerReviewProps extends ViewerDocumentProps {
  review: ReviewStep[];
}

/** "Check your answers" before a finishing button completes the interview. */
export function ViewerReview({ review, title, action, preview, interviewId, saved, previewState, headingLevel = 1 }: ViewerReviewProps) {
  const t = useT();
  const Heading = headingLevel === 2 ? "h2" : "h1";
  return (
    <div
      className="viewer"
      data-viewer=""
      {...viewerLangAttributes(t)}
      data-page="review"
      data-interview-id={interviewId ?? undefined}
      data-saved={saved ? "true" : undefined}
      data-send-problem={t.t("viewer.sendProblem")}
    >
      <p className="viewer__title">{title}</p>
      {preview ? <p className="viewer__preview">{t.t("viewer.preview")}</p> : null}
      <form method="post" action={action} className="viewer__form" noValidate>
        <Heading className="viewer__heading" id="viewer-heading" tabIndex={-1} autoFocus={saved || undefined}>
          {t.t("viewer.review.title")}
        </Heading>
        <input type="hidden" name="_page" value="" />
        {previewState ? <input type="hidden" name="_state" value={previewState} /> : null}
        <AnswerSummary steps={review} change />
        <p>{t.t("viewer.review.confirmNote")}</p>
        <div className="button-row viewer__buttons">
          <button type="submit" name="_intent" value="back" className="button button--secondary" formNoValidate>
            {t.t("viewer.back")}
          </button>
          <button type="submit" name="_intent" value="confirm" className="button" formTarget={preview ? undefined : "_top"}>
            {t.t("viewer.review.confirm")}
          </button>
        </div>
      </form>
    </div>
  );
}
