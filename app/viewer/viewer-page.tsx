import { asksForEmail, type ButtonView, type DateBox, type DateLocale, type FieldView, type MessageSays, type PageView } from "~/a2j";
import { RichText, useT } from "~/i18n/react";
import { catalogues, type MessageKey, type Translator } from "~/i18n/translator";
import { ErrorSummary } from "~/ui/form";
import { progressLine, viewerNumber } from "./progress";

/** A page of the interview as the viewer renders it: the engine's view with author HTML already sanitised. */
export type ViewerPage = PageView;

// The finishing buttons stay in the frame: they open "Check your answers", whose "Confirm and finish" ends.
const SPECIAL_TOP = new Set(["EXIT"]);

function Html({ html, className, as: Tag = "div", id }: { html: string; className?: string; as?: "div" | "span"; id?: string }) {
  if (!html) return null;
  return <Tag id={id} className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ").replace(/\s+/g, " ").trim();
}

const fieldId = (field: FieldView) => `field-${field.index}`;
const errorId = (field: FieldView) => `field-${field.index}-error`;

function described(field: FieldView) {
  return field.error ? { "aria-invalid": true as const, "aria-describedby": errorId(field) } : {};
}

/** One of the engine's own messages in the guide's language (`keys`: its catalogue keys' start), or null if none. */
function engineWords(t: Translator, says: MessageSays, keys = "viewer.validate"): string | null {
  const key = `${keys}.${says.id}`;
  if (!Object.hasOwn(catalogues.en, key)) return null;
  // Numbers of the engine's (a limit, a year, a count of days) in the language, with Latin digits.
  const values = Object.fromEntries(Object.entries(says.values ?? {}).map(([name, value]) => [name, typeof value === "number" ? viewerNumber(t, value) : value]));
  return t.t(key as MessageKey, values);
}

/**
 * An error in the guide's language: one of the engine's own messages (`says`, app/a2j/validate.ts) from the
 * catalogue; a message reference of the viewer's (an upload's) put into words; the author's own prompt as written,
 * followed by the `reason` the prompt does not say (the field's limits).
 */
export function viewerMessage(t: Translator, message: string, says?: MessageSays | null, reason?: MessageSays | null): string {
  const said = (says ? engineWords(t, says) : null) ?? t.message(message);
  const why = reason ? engineWords(t, reason) : null;
  return why ? t.t("viewer.limits.withReason", { prompt: said, reason: why }) : said;
}

function FieldError({ field }: { field: FieldView }) {
  const t = useT();
  return field.error ? (
    <p className="field__error" id={errorId(field)}>
      {viewerMessage(t, field.error, field.errorSays, field.errorReason)}
    </p>
  ) : null;
}

const hints: Partial<Record<FieldView["type"], MessageKey>> = {
  numberdollar: "viewer.hint.amount",
  numberphone: "viewer.hint.digits",
  numberzip: "viewer.hint.digits",
  attachment: "viewer.hint.attachment",
};

/** " (required)" after a label, in the guide's language. */
function Required({ field }: { field: FieldView }) {
  const t = useT();
  return field.required ? <span className="field__required">{` ${t.t("viewer.field.required")}`}</span> : null;
}

function Label({ field }: { field: FieldView }) {
  return (
    <label className="field__label" htmlFor={fieldId(field)}>
      <Html as="span" html={field.label} />
      <Required field={field} />
    </label>
  );
}

/** The field's limits said before anyone errs ("A number from 1 to 10"), for the fields typed into. */
const SAYS_LIMITS = new Set<FieldView["type"]>(["number", "numberdollar", "datemdy"]);
const limitsId = (field: FieldView) => `${fieldId(field)}-limits`;
const showsLimits = (field: FieldView) => field.limits !== null && SAYS_LIMITS.has(field.type);

function Limits({ field }: { field: FieldView }) {
  const t = useT();
  const words = showsLimits(field) ? engineWords(t, field.limits!, "viewer.limits") : null;
  return words ? (
    <p className="field__hint" id={limitsId(field)}>
      {words}
    </p>
  ) : null;
}

function Hint({ field }: { field: FieldView }) {
  const t = useT();
  const hint = hints[field.type];
  return (
    <>
      <Limits field={field} />
      {hint ? (
        <p className="field__hint" id={`${fieldId(field)}-hint`}>
          {t.t(hint)}
        </p>
      ) : null}
    </>
  );
}

function describedWithHint(field: FieldView) {
  const ids = [showsLimits(field) ? limitsId(field) : null, hints[field.type] ? `${fieldId(field)}-hint` : null, field.error ? errorId(field) : null].filter(Boolean);
  return { "aria-invalid": field.error ? (true as const) : undefined, "aria-describedby": ids.length ? ids.join(" ") : undefined };
}

/** Opens the AI rephrase screen for this answer in the whole window; the form keeps what was typed first. */
function RephraseButton({ field }: { field: FieldView }) {
  return (
    <button
      type="submit"
      name="_intent"
      value={`rephrase:${field.inputName}`}
      formTarget="_top"
      formNoValidate
      className="button button--secondary rephrase-control"
      data-rephrase=""
    >
      <RichText id="viewer.rephrase" values={{ question: plainText(field.label) }} tags={{ hidden: (words) => <span className="visually-hidden">{words}</span> }} />
    </button>
  );
}

/**
 * "Understand my situation" and "Use a document I have": buttons of the page's form, so that what was typed is
 * kept (the viewer saves it as typed) before the AI page opens in the whole window; the person comes back to it.
 */
function HelpButtons({ help }: { help: { understand: boolean; document: boolean } }) {
  return (
    <div className="viewer__help-links">
      {help.understand ? (
        <p className="link-line">
          <RichText
            id="viewer.help.understand"
            tags={{
              button: (words) => (
                <button type="submit" name="_intent" value="understand" formTarget="_top" formNoValidate className="link-button" data-detour="">
                  {words}
                </button>
              ),
            }}
          />
        </p>
      ) : null}
      {help.document ? (
        <p className="link-line">
          <RichText
            id="viewer.help.document"
            tags={{
              button: (words) => (
                <button type="submit" name="_intent" value="document" formTarget="_top" formNoValidate className="link-button" data-detour="">
                  {words}
                </button>
              ),
            }}
          />
        </p>
      ) : null}
    </div>
  );
}

/** What each A2J type asks the browser for: the keyboard, the kind of input and what it may fill in. */
const inputKinds: Partial<Record<FieldView["type"], { type?: "tel" | "email"; inputMode?: "decimal" | "numeric"; autoComplete?: string }>> = {
  number: { inputMode: "decimal" },
  numberdollar: { inputMode: "decimal" },
  numberssn: { inputMode: "numeric" },
  numberphone: { type: "tel", autoComplete: "tel" },
  numberzip: { inputMode: "numeric", autoComplete: "postal-code" },
};

function TextLike({ field, rephrase = false }: { field: FieldView; rephrase?: boolean }) {
  // An email address (app/a2j/validate.ts): the keyboard with @, and the browser may fill it in.
  const kind = asksForEmail({ type: field.type, name: field.inputName }) ? { type: "email" as const, autoComplete: "email" } : (inputKinds[field.type] ?? {});
  // The guide's limit, known before sending (the engine checks it again).
  const maxLength = field.maxChars ?? undefined;
  return (
    <div className={`field${field.error ? " field--invalid" : ""}`}>
      <Label field={field} />
      <Hint field={field} />
      {field.type === "textlong" ? (
        <>
          <textarea
            id={fieldId(field)}
            name={field.inputName}
            defaultValue={field.value}
            rows={5}
            maxLength={maxLength}
            className="field__input field__input--textarea"
            {...describedWithHint(field)}
          />
          {rephrase ? <RephraseButton field={field} /> : null}
        </>
      ) : (
        <input
          id={fieldId(field)}
          name={field.inputName}
          type={kind.type ?? "text"}
          defaultValue={field.value}
          inputMode={kind.inputMode}
          maxLength={maxLength}
          placeholder={field.placeholder || undefined}
          autoComplete={kind.autoComplete ?? "off"}
          className="field__input"
          {...describedWithHint(field)}
        />
      )}
      <FieldError field={field} />
    </div>
  );
}

const BOX_LABELS: Record<DateBox, MessageKey> = { day: "viewer.date.day", month: "viewer.date.month", year: "viewer.date.year" };

/**
 * A date as three labelled boxes in the person's order (GOV.UK's date-input pattern), so that no order is
 * ever guessed; only the boxes an error is about are marked, and the error summary leads to the first of them.
 */
function DateInput({ field, dates }: { field: FieldView; dates: DateLocale }) {
  const t = useT();
  const boxes: DateBox[] = dates.order === "DMY" ? ["day", "month", "year"] : ["month", "day", "year"];
  const wrong = new Set(field.errorBoxes);
  const first = boxes.find((box) => wrong.has(box)) ?? boxes[0];
  const hintId = `${fieldId(field)}-hint`;
  const birthday = /birth|\bdob\b/i.test(`${field.inputName} ${plainText(field.label)}`);
  return (
    <fieldset
      className={`field fieldset date-input${field.error ? " field--invalid" : ""}`}
      aria-describedby={[showsLimits(field) ? limitsId(field) : null, hintId, field.error ? errorId(field) : null].filter(Boolean).join(" ")}
    >
      <legend className="fieldset__legend">
        <Html as="span" html={field.label} />
        <Required field={field} />
      </legend>
      <Limits field={field} />
      <p className="field__hint" id={hintId}>
        {t.t(dates.order === "DMY" ? "viewer.hint.dateDayFirst" : "viewer.hint.dateMonthFirst")}
      </p>
      <FieldError field={field} />
      <div className="date-input__boxes">
        {boxes.map((box) => {
          const id = box === first ? fieldId(field) : `${fieldId(field)}-${box}`;
          return (
            <div key={box} className={`date-input__item date-input__item--${box}`}>
              <label className="field__label" htmlFor={id}>
                {t.t(BOX_LABELS[box])}
              </label>
              <input
                id={id}
                name={`${field.inputName}-${box}`}
                type="text"
                // The month may be typed as a word too ("March", app/a2j/dates.ts): a keyboard with letters.
                inputMode={box === "month" ? undefined : "numeric"}
                maxLength={box === "year" ? 4 : box === "month" ? 12 : 2}
                defaultValue={field.date?.[box] ?? ""}
                autoComplete={birthday ? `bday-${box}` : "off"}
                className="field__input date-input__input"
                aria-invalid={wrong.has(box) ? true : undefined}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A choice's label: the author's, or for A2J's gender field the engine's Female and Male in the guide's language. */
function optionLabel(t: Translator, field: FieldView, option: { value: string; label: string }): string {
  if (field.type !== "gender") return option.label;
  return option.value === "Female" ? t.t("viewer.gender.female") : option.value === "Male" ? t.t("viewer.gender.male") : option.label;
}

function Select({ field }: { field: FieldView }) {
  const t = useT();
  return (
    <div className={`field${field.error ? " field--invalid" : ""}`}>
      <Label field={field} />
      <select id={fieldId(field)} name={field.inputName} defaultValue={field.value} className="field__input" {...described(field)}>
        <option value="">{t.t("viewer.select.choose")}</option>
        {field.options.map((option) => (
          <option key={option.value} value={option.value}>
            {optionLabel(t, field, option)}
          </option>
        ))}
      </select>
      <FieldError field={field} />
    </div>
  );
}

/**
 * A pick list whose choices did not come with the guide: no box to type in (anything typed would not be one of
 * the author's choices), and the person is told why the question cannot be answered. The preview also names
 * the missing file, for the guide's author.
 */
function NoChoices({ field, preview }: { field: FieldView; preview: boolean }) {
  const t = useT();
  const listSrc = field.noChoices?.listSrc ?? "";
  return (
    <div className={`field${field.error ? " field--invalid" : ""}`}>
      <div className="field__label" id={fieldId(field)} tabIndex={-1}>
        <Html as="span" html={field.label} />
        <Required field={field} />
      </div>
      {field.error ? <FieldError field={field} /> : <p className="field__hint">{t.t("viewer.validate.noChoices")}</p>}
      {preview ? (
        <p className="field__hint">{listSrc ? t.t("viewer.noChoices.authorFile", { file: listSrc }) : t.t("viewer.noChoices.authorNone")}</p>
      ) : null}
    </div>
  );
}

function Check({ field }: { field: FieldView }) {
  return (
    <div className={`field field--check${field.error ? " field--invalid" : ""}`}>
      <input id={fieldId(field)} type="checkbox" name={field.inputName} value="true" defaultChecked={field.checked} className="check" {...described(field)} />
      <label htmlFor={fieldId(field)} className="check__label">
        <Html as="span" html={field.label} />
      </label>
      <FieldError field={field} />
    </div>
  );
}

function Attachment({ field }: { field: FieldView }) {
  const t = useT();
  const current = field.value ? field.value.split("/").pop() : "";
  return (
    <div className={`field${field.error ? " field--invalid" : ""}`}>
      <Label field={field} />
      <Hint field={field} />
      {current ? <p className="field__hint">{t.t("viewer.attachment.attached")}</p> : null}
      <input
        id={fieldId(field)}
        name={field.inputName}
        type="file"
        accept=".pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        className="field__input field__input--file"
        {...describedWithHint(field)}
      />
      <FieldError field={field} />
    </div>
  );
}

/**
 * Radio fields of one variable, and gender choices, as one group: a fieldset of its own, or (`bare`) only the
 * options, when the group is the page's one question and the page's fieldset holds it.
 */
function RadioGroup({ fields, legend, bare = false }: { fields: FieldView[]; legend: string; bare?: boolean }) {
  const t = useT();
  const first = fields[0]!;
  const error = fields.find((f) => f.error);
  const options =
    first.type === "radio"
      ? fields.map((f) => ({ key: f.index, value: f.optionValue, label: f.label, checked: f.checked }))
      : first.options.map((o, i) => ({ key: i, value: o.value, label: optionLabel(t, first, o), checked: first.value === o.value }));
  const choices = (
    <>
      {options.map((option, i) => (
        <div key={option.key} className="field--check">
          <input
            id={`${fieldId(first)}-${i}`}
            type="radio"
            name={first.inputName}
            value={option.value}
            defaultChecked={option.checked}
            className="check"
            aria-invalid={error ? true : undefined}
          />
          <label htmlFor={`${fieldId(first)}-${i}`} className="check__label">
            <Html as="span" html={option.label} />
          </label>
        </div>
      ))}
      {error ? (
        <p className="field__error" id={errorId(error)}>
          {viewerMessage(t, error.error ?? "", error.errorSays, error.errorReason)}
        </p>
      ) : null}
    </>
  );
  if (bare) return <div className={`field${error ? " field--invalid" : ""}`}>{choices}</div>;
  return (
    <fieldset className={`field fieldset${error ? " field--invalid" : ""}`} aria-describedby={error ? errorId(error) : undefined}>
      <legend className="fieldset__legend">{first.type === "radio" ? legend : plainText(first.label) || legend}</legend>
      {choices}
    </fieldset>
  );
}

function groupFields(fields: FieldView[]): FieldView[][] {
  const groups: FieldView[][] = [];
  for (const field of fields) {
    const last = groups.at(-1);
    if (field.type === "radio" && last?.[0]?.type === "radio" && last[0].inputName === field.inputName) last.push(field);
    else groups.push([field]);
  }
  return groups;
}

function Field({
  group,
  legend,
  rephrasable,
  dates,
  bare,
  preview,
}: {
  group: FieldView[];
  legend: string;
  rephrasable: string[];
  dates: DateLocale;
  bare: boolean;
  preview: boolean;
}) {
  const field = group[0]!;
  switch (field.type) {
    case "datemdy":
      return <DateInput field={field} dates={dates} />;
    case "radio":
    case "gender":
      return <RadioGroup fields={group} legend={legend} bare={bare} />;
    case "checkbox":
    case "checkboxNOTA":
    case "checkboxmultiple":
      return <Check field={field} />;
    case "textpick":
      if (field.noChoices) return <NoChoices field={field} preview={preview} />;
      return <Select field={field} />;
    case "numberpick":
    case "useravatar":
    case "race":
      return field.options.length ? <Select field={field} /> : <TextLike field={field} />;
    case "attachment":
      return <Attachment field={field} />;
    case "button":
      return null;
    default:
      return <TextLike field={field} rephrase={rephrasable.includes(field.inputName)} />;
  }
}

function Button({ button, preview, implicit = false }: { button: ButtonView; preview: boolean; implicit?: boolean }) {
  const t = useT();
  // Without script the end of the interview must move the whole window, not just the frame.
  const top = !preview && button.special !== null && SPECIAL_TOP.has(button.special);
  return (
    <button
      type="submit"
      name="_button"
      value={button.index}
      className={button.special === "BACK" ? "button button--secondary" : "button"}
      formTarget={top ? "_top" : undefined}
      formNoValidate
      data-special={button.special ?? undefined}
      hidden={implicit || undefined}
      tabIndex={implicit ? -1 : undefined}
    >
      {button.unlabelled ? t.t("viewer.continue") : button.label}
    </button>
  );
}

/** What every document the viewer shows (a page, or "Check your answers") is drawn with. */
export interface ViewerDocumentProps {
  /** The guide's title. */
  title: string;
  /** The document's title: the page's heading and step (app/viewer/titles.ts). */
  documentTitle: string;
  action: string;
  preview: boolean;
  interviewId: string | null;
  /** The document follows a save: the message layer tells the host ("continue") and scrolls it to the top. */
  saved: boolean;
  /** In preview nothing is stored: the state travels with the form. */
  previewState: string | null;
  /** 2 when the document is shown inside the host page (without script), under the host's h1. */
  headingLevel?: 1 | 2;
  /** The interview is a sensitive issue's: the viewer's own document has the quick exit's shortcut too. */
  sensitive?: boolean;
  /**
   * The catalogue the viewer's own words come from: the guide's language (app/i18n/viewer-languages.ts); English
   * when absent. ViewerContent puts its translator in place for the components.
   */
  language?: string;
}

/**
 * The language and direction of the viewer's own words, on the element each document of the viewer starts
 * with: the frame's document says it in <html> too, and the interview page's own copy (the host page may be in
 * another language) only there.
 */
export function viewerLangAttributes(t: Translator): { lang: string; dir: "ltr" | "rtl" } {
  return { lang: t.lang, dir: t.dir };
}

export interface ViewerPageProps extends ViewerDocumentProps {
  page: ViewerPage;
  /** Input names of the long-text questions that offer "Rephrase with AI". */
  rephrasable: string[];
  /** A change made from "Check your answers" stopped here (flow.ts, replay): the page says why. */
  changeNeedsPage?: boolean;
  /** The AI pages this page leads to (app/viewer/viewer.server.ts, aiHelp): each keeps what was typed. */
  help?: { understand: boolean; document: boolean };
}

/**
 * The page's heading, which focus moves to after each step: by the message layer (public/scripts/viewer.js)
 * and, without script, by autofocus on the page that follows a save.
 */
function Heading({ page, focus, level }: { page: ViewerPage; focus: boolean; level: 1 | 2 }) {
  const t = useT();
  const Tag = level === 2 ? "h2" : "h1";
  return (
    <Tag className="viewer__heading" id="viewer-heading" tabIndex={-1} autoFocus={focus || undefined}>
      {pageHeading(page, t)}
    </Tag>
  );
}

/** The page's heading: what it asks, or when it says nothing the engine's "Question" in the guide's language. */
export function pageHeading(page: Pick<ViewerPage, "heading" | "headingUnnamed">, t: Translator): string {
  return page.headingUnnamed ? t.t("viewer.question") : page.heading;
}

/** What the error summary calls a field: its label, or for a choice the question its options answer. */
function summaryLabel(page: ViewerPage, fieldIndex: number, t: Translator): string {
  const field = page.fields.find((f) => f.index === fieldIndex);
  if (!field || field.type === "radio") return pageHeading(page, t);
  return plainText(field.label) || pageHeading(page, t);
}

export function ViewerPageView({ page, title, action, preview, interviewId, saved, previewState, rephrasable, changeNeedsPage = false, help, headingLevel = 1 }: ViewerPageProps) {
  const t = useT();
  const step = progressLine(page, t);
  const legend = pageHeading(page, t);
  const hasFile = page.fields.some((f) => f.type === "attachment");
  const groups = groupFields(page.fields).filter((group) => group[0]!.type !== "button");
  const question = (
    <>
      {/* The text below the heading, without the sentence the heading already says (app/a2j/page-view.ts). */}
      <Html className="viewer__question prose" html={page.body} />
      {page.help ? (
        <details className="viewer__help">
          <summary>{plainText(page.learn) || t.t("viewer.learnMore")}</summary>
          <Html className="prose" html={page.help} />
          {page.helpImageURL ? <img src={page.helpImageURL} alt={page.helpAltText} className="viewer__help-image" /> : null}
        </details>
      ) : null}
      {groups.map((group) => (
        <Field key={group[0]!.index} group={group} legend={legend} rephrasable={rephrasable} bare={page.oneQuestion} dates={page.dates} preview={preview} />
      ))}
    </>
  );
  const choiceError = page.oneQuestion ? page.fields.find((f) => f.error && (f.type === "radio" || f.type === "gender")) : undefined;
  return (
    <div
      className="viewer"
      data-viewer=""
      {...viewerLangAttributes(t)}
      data-page={`${page.name}:${page.answerIndex}`}
      data-interview-id={interviewId ?? undefined}
      data-saved={saved ? "true" : undefined}
      data-send-problem={t.t("viewer.sendProblem")}
    >
      <p className="viewer__title">{title}</p>
      {step ? <p className="viewer__step">{step}</p> : null}
      {preview ? <p className="viewer__preview">{t.t("viewer.preview")}</p> : null}
      {/* Focus moves to it when the page comes back with errors (viewer.js, and autofocus). Each entry names its
          field; the message under the field is the guide's own. */}
      <ErrorSummary
        title={t.t("viewer.errorSummary")}
        errors={page.errors.map((error) => ({ fieldId: `field-${error.fieldIndex}`, label: summaryLabel(page, error.fieldIndex, t), message: viewerMessage(t, error.message, error.says, error.reason) }))}
      />
      {changeNeedsPage ? (
        <div className="notice notice--warning viewer__change-note">
          <p>{t.t("viewer.changeNote")}</p>
        </div>
      ) : null}
      <form method="post" action={action} encType={hasFile ? "multipart/form-data" : undefined} className="viewer__form" noValidate>
        <input type="hidden" name="_page" value={page.name} />
        {previewState ? <input type="hidden" name="_state" value={previewState} /> : null}
        {/* Enter in a text field presses the form's first submit button: make that the page's own first
            button, not Back or "Rephrase with AI", which come earlier in the form. */}
        {page.buttons[0] ? <Button button={page.buttons[0]} preview={preview} implicit /> : null}
        {page.oneQuestion ? (
          <fieldset className="viewer__question-group" aria-describedby={choiceError ? errorId(choiceError) : undefined}>
            <legend className="viewer__legend">
              <Heading page={page} focus={saved && !page.errors.length} level={headingLevel} />
            </legend>
            {question}
          </fieldset>
        ) : (
          <>
            <Heading page={page} focus={saved && !page.errors.length} level={headingLevel} />
            {question}
          </>
        )}
        <div className="button-row viewer__buttons">
          {page.canGoBack ? (
            <button type="submit" name="_intent" value="back" className="button button--secondary" formNoValidate>
              {t.t("viewer.back")}
            </button>
          ) : null}
          {page.buttons.map((button) => (
            <Button key={button.index} button={button} preview={preview} />
          ))}
        </div>
        {help && (help.understand || help.document) ? <HelpButtons help={help} /> : null}
      </form>
      {page.popups.filter((p) => p.html).length ? (
        <aside className="viewer__popups" aria-label={t.t("viewer.popups.label")}>
          {page.popups
            .filter((popup) => popup.html)
            .map((popup) => (
              <section key={popup.id} id={popup.id} className="popup" tabIndex={-1}>
                <h2 className="popup__title">{popup.name}</h2>
                <Html className="prose" html={popup.html ?? ""} />
                <p className="link-line">
                  <a href="#top">{t.t("viewer.popups.back")}</a>
                </p>
              </section>
            ))}
        </aside>
      ) : null}
    </div>
  );
}
