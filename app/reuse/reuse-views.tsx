import { type AnswerProblem, type AnswerValue, type DateLocale, showStoredDate, type VarType } from "~/a2j";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import type { AnswerSource } from "./reuse.server";

/** An answer offered on the page: what its checkbox carries back, the question it answers, its value and where it came from. */
export interface OfferItem {
  carried: string;
  question: string;
  type: VarType;
  values: AnswerValue[];
  source: AnswerSource;
}

/** The id of the answer file's input, where every problem of a file links. */
export const ANSWER_FILE_FIELD = "answer-file";

/** A problem of an answer file in words: the variable's name, then what is wrong (a message reference). */
export function problemMessage(problem: AnswerProblem): string {
  if (problem.kind === "unknown") return messageRef("reuse.problem.unknown", { name: problem.name });
  if (problem.kind === "choice") return messageRef("reuse.problem.choice", { name: problem.name, value: problem.value });
  return messageRef("reuse.problem.type", { name: problem.name, value: problem.value, expected: problem.expected });
}

/**
 * Why an answer file was refused, at the top of the page as the error summary (GOV.UK's: it takes focus, and
 * every entry links to the file's input): one reason, or the file's problems under a line that counts them.
 */
export function AnswerFileSummary({ messages, problems }: { messages: string[]; problems: boolean }) {
  const t = useT();
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} autoFocus data-error-summary="">
      <h2 id="error-summary-title" className="error-summary__title">
        {t.t("form.errorSummary")}
      </h2>
      {problems ? <p>{t.t("reuse.file.refused", { count: messages.length })}</p> : null}
      <ul className="error-summary__list">
        {messages.map((message, index) => (
          <li key={index}>
            <a href={`#${ANSWER_FILE_FIELD}`}>{t.message(message)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ShownValue({ item, dates }: { item: OfferItem; dates: DateLocale }) {
  const t = useT();
  const shown = item.values
    .filter((value) => value !== null && value !== "")
    .map((value) => (typeof value === "boolean" ? t.t(value ? "reuse.yes" : "reuse.no") : item.type === "Date" ? showStoredDate(String(value), dates) : String(value)));
  return (
    <span className="reuse__value" translate="no" dir="auto">
      {t.list(shown)}
    </span>
  );
}

function SourceLine({ source }: { source: AnswerSource }) {
  const t = useT();
  if (source.kind === "profile") return <>{t.t("reuse.source.profile")}</>;
  if (source.kind === "file") return <>{t.t("reuse.source.file")}</>;
  return <>{t.t("reuse.source.interview", { issue: source.issueName, date: t.date(source.at) })}</>;
}

/** The offered answers, each a checkbox ticked to start with: only the ticked ones are posted, and used. */
export function OfferedAnswers({ items, dates, idPrefix }: { items: OfferItem[]; dates: DateLocale; idPrefix: string }) {
  const t = useT();
  return (
    <fieldset className="fieldset reuse__answers" aria-describedby={`${idPrefix}-hint`}>
      <legend className="fieldset__legend">{t.t("reuse.offer.legend")}</legend>
      <p className="field__hint" id={`${idPrefix}-hint`}>
        {t.t("reuse.offer.hint")}
      </p>
      {items.map((item, index) => {
        const id = `${idPrefix}-${index}`;
        return (
          <div key={id} className="field field--check">
            <input id={id} type="checkbox" name="use" value={item.carried} defaultChecked className="check" aria-describedby={`${id}-source`} />
            <label htmlFor={id} className="check__label">
              <span className="reuse__question" dir="auto">
                {item.question}
              </span>{" "}
              <ShownValue item={item} dates={dates} />
              <span className="reuse__source field__hint" id={`${id}-source`}>
                <SourceLine source={item.source} />
              </span>
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}
