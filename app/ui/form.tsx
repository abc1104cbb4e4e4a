import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useT } from "~/i18n/react";
import type { Translator } from "~/i18n/translator";

export interface SummaryError {
  fieldId: string;
  /** The field's label as the page shows it: the summary names the field, the message under it stays as it is. */
  label: string;
  message: string;
}

/** A form field with the label it has on the page. */
export type LabelledField = readonly [field: FieldMetadata<unknown>, label: string];

/** The errors of the given fields, in the order of the form, for the error summary. */
export function summaryErrors(...fields: LabelledField[]): SummaryError[] {
  return fields.flatMap(([field, label]) =>
    field.errors?.[0] ? [{ fieldId: field.id, label, message: field.errors[0] }] : [],
  );
}

/**
 * One summary entry: "First name: This field is required.". Without the label, a screen reader would read the
 * same sentence once per empty field, with nothing to say which.
 */
export function summaryEntryText(error: Pick<SummaryError, "label" | "message">, t?: Translator): string {
  const label = error.label.trim().replace(/[:\s]+$/, "");
  const message = t ? t.message(error.message) : error.message;
  return label ? (t ? t.t("form.summaryEntry", { label, message }) : `${label}: ${message}`) : message;
}

/** Whether a form's error summary shows, so the page title can say so too. */
export function showsErrors(errors: SummaryError[], formErrors?: readonly string[] | null): boolean {
  return errors.length > 0 || Boolean(formErrors?.length);
}

/** The same, from the server's reply alone (for a page that renders its form further down). */
export function resultShowsErrors(result: SubmissionResult<string[]> | null | undefined): boolean {
  return Object.values(result?.error ?? {}).some((messages) => Boolean(messages?.length));
}

/**
 * The list of a form's errors at its top. It takes focus when the page loads (autofocus needs no script),
 * so a screen reader announces it, and each entry links to its field and names it. The one summary of every
 * form, the interview's pages too (app/viewer/viewer-page.tsx, rendered outside React Router: no router hooks
 * here); `data-error-summary` is how the viewer's script finds it (public/scripts/viewer.js). `title`: the
 * viewer's, in the guide's language.
 */
export function ErrorSummary({ errors, formErrors = [], title }: { errors: SummaryError[]; formErrors?: readonly string[] | null; title?: string }) {
  const t = useT();
  if (!showsErrors(errors, formErrors)) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} autoFocus data-error-summary="">
      <h2 id="error-summary-title" className="error-summary__title">
        {title ?? t.t("form.errorSummary")}
      </h2>
      <ul className="error-summary__list">
        {(formErrors ?? []).map((message) => (
          <li key={message}>{t.message(message)}</li>
        ))}
        {errors.map((error) => (
          <li key={error.fieldId}>
            <a href={`#${error.fieldId}`}>{summaryEntryText(error, t)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface FieldProps {
  field: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  /** Announced as required; the server checks it (no maxlength either: text is never cut silently). */
  required?: boolean;
}

function FieldFrame({ field, label, hint, children }: FieldProps & { children: ReactNode }) {
  const t = useT();
  return (
    <div className={`field${field.errors?.length ? " field--invalid" : ""}`}>
      <label className="field__label" htmlFor={field.id}>
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={field.descriptionId}>
          {hint}
        </p>
      ) : null}
      {children}
      <p className="field__error" id={field.errorId}>
        {field.errors?.[0] ? t.message(field.errors[0]) : ""}
      </p>
    </div>
  );
}

/** The attributes that tie a control to its hint and error, and announce it as required or invalid. */
function controlProps(field: FieldMetadata<string | undefined>, hint: ReactNode, required: boolean) {
  const invalid = Boolean(field.errors?.length);
  const ids = [hint ? field.descriptionId : null, invalid ? field.errorId : null].filter(Boolean);
  return {
    required,
    "aria-invalid": invalid || undefined,
    "aria-describedby": ids.length ? ids.join(" ") : undefined,
  };
}

export function TextField({
  field,
  label,
  hint,
  required = true,
  type = "text",
  autoComplete,
  inputMode,
}: FieldProps & {
  type?: "text" | "email" | "tel" | "password" | "url";
  autoComplete?: string;
  inputMode?: "numeric" | "tel" | "email" | "text" | "url";
}) {
  const { key, ...props } = getInputProps(field, { type, ariaAttributes: false });
  return (
    <FieldFrame field={field} label={label} hint={hint}>
      <input
        key={key}
        {...props}
        {...controlProps(field, hint, required)}
        className="field__input"
        autoComplete={autoComplete}
        inputMode={inputMode}
      />
    </FieldFrame>
  );
}

export function SelectField({
  field,
  label,
  hint,
  required = true,
  options,
  autoComplete,
}: FieldProps & { options: { value: string; label: string }[]; autoComplete?: string }) {
  const { key, ...props } = getSelectProps(field, { ariaAttributes: false });
  return (
    <FieldFrame field={field} label={label} hint={hint}>
      <select key={key} {...props} {...controlProps(field, hint, required)} className="field__input" autoComplete={autoComplete}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A file to upload (the form must post multipart/form-data). */
export function FileField({ field, label, hint, required = true, accept }: Omit<FieldProps, "field"> & { field: FieldMetadata<unknown>; accept?: string }) {
  const { key, ...props } = getInputProps(field, { type: "file", ariaAttributes: false });
  // The frame and the control's attributes read only the field's ids and errors, whatever its value's type.
  const framed = field as FieldMetadata<string | undefined>;
  return (
    <FieldFrame field={framed} label={label} hint={hint}>
      <input key={key} {...props} {...controlProps(framed, hint, required)} accept={accept} className="field__input field__input--file" />
    </FieldFrame>
  );
}

export function TextAreaField({ field, label, hint, required = true, rows = 6 }: FieldProps & { rows?: number }) {
  const { key, ...props } = getTextareaProps(field, { ariaAttributes: false });
  return (
    <FieldFrame field={field} label={label} hint={hint}>
      <textarea
        key={key}
        {...props}
        {...controlProps(field, hint, required)}
        rows={rows}
        className="field__input field__input--textarea"
      />
    </FieldFrame>
  );
}

/** A single checkbox with its label beside it (an optional yes/no; submitted as "on" when ticked). */
export function CheckboxField({ field, label, hint }: Omit<FieldProps, "required">) {
  const t = useT();
  const { key, ...props } = getInputProps(field, { type: "checkbox", ariaAttributes: false });
  return (
    <div className={`field field--checkbox${field.errors?.length ? " field--invalid" : ""}`}>
      <div className="field__checkbox-row">
        <input key={key} {...props} {...controlProps(field, hint, false)} className="field__checkbox" />
        <label className="field__label" htmlFor={field.id}>
          {label}
        </label>
      </div>
      {hint ? (
        <p className="field__hint" id={field.descriptionId}>
          {hint}
        </p>
      ) : null}
      <p className="field__error" id={field.errorId}>
        {field.errors?.[0] ? t.message(field.errors[0]) : ""}
      </p>
    </div>
  );
}
