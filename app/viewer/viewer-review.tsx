import type { ReviewStep } from "~/a2j";
import { CHECK_ANSWERS } from "./titles";
import type { ViewerDocumentProps } from "./viewer-page";

/**
 * Every answer, grouped by step, loop entries numbered. With `change`, each answer has a Change button that
 * reopens its page (a POST: it moves the interview); read-only otherwise (a completed interview's summary).
 */
export function AnswerSummary({ steps, change }: { steps: ReviewStep[]; change: boolean }) {
  if (steps.length === 0) return <p>There are no answers to show.</p>;
  return (
    <>
      {steps.map((step) => (
        <section key={step.title} className="answer-summary" aria-labelledby={`answers-${slug(step.title)}`}>
          <h2 id={`answers-${slug(step.title)}`} className="answer-summary__step">
            {step.title}
          </h2>
          {entries(step).map(({ entry, answers }) => (
            <div key={entry ?? ""} className="answer-summary__entry">
              {entry !== null ? <h3 className="answer-summary__entry-title">{entry}</h3> : null}
              <dl className="answer-summary__list">
                {answers.map((answer, i) => (
                  <div key={`${answer.historyIndex}-${i}`} className="answer-summary__row">
                    <dt>{answer.question}</dt>
                    <dd>{answer.answer}</dd>
                    {change ? (
                      <dd className="answer-summary__action">
                        <button type="submit" name="_intent" value={`change:${answer.historyIndex}`} className="link-button">
                          Change<span className="visually-hidden"> {answer.question}{entry !== null ? ` (${entry})` : ""}</span>
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

/** A step's answers split where the loop entry changes; each entry named by its loop's noun ("Event 2"). */
function entries(step: ReviewStep) {
  const out: { entry: string | null; answers: ReviewStep["answers"] }[] = [];
  for (const answer of step.answers) {
    const entry = answer.entry === null ? null : `${answer.entryNoun ?? "Entry"} ${answer.entry}`;
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
  const Heading = headingLevel === 2 ? "h2" : "h1";
  return (
    <div className="viewer" data-viewer="" data-page="review" data-interview-id={interviewId ?? undefined} data-saved={saved ? "true" : undefined}>
      <p className="viewer__title">{title}</p>
      {preview ? <p className="viewer__preview">Preview: nothing you enter is saved.</p> : null}
      <form method="post" action={action} className="viewer__form" noValidate>
        <Heading className="viewer__heading" id="viewer-heading" tabIndex={-1} autoFocus={saved || undefined}>
          {CHECK_ANSWERS}
        </Heading>
        <input type="hidden" name="_page" value="" />
        {previewState ? <input type="hidden" name="_state" value={previewState} /> : null}
        <AnswerSummary steps={review} change />
        <p>When you confirm, your interview is complete and your document is made from these answers.</p>
        <div className="button-row viewer__buttons">
          <button type="submit" name="_intent" value="back" className="button button--secondary" formNoValidate>
            Back
          </button>
          <button type="submit" name="_intent" value="confirm" className="button" formTarget={preview ? undefined : "_top"}>
            Confirm and finish
          </button>
        </div>
      </form>
    </div>
  );
}
