import { type FieldMetadata, getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { ErrorSummary, FileField, SelectField, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { DEFAULT_LANGUAGE, languages } from "~/i18n/languages";
import { addSourceSchema, editSourceSchema, MAX_PASTED_CHARS } from "./schemas";

/** Where a source may belong: the countries, each with its issues. */
export type SourcePlaces = { id: number; name: string; issues: { id: number; name: string }[] }[];

/**
 * The form that adds a source or edits one: title, public link, country and issue, and a file or pasted text.
 * Editing (`current` given), the file and the text may be left empty: the source keeps the passages it has.
 */
export function SourceForm({
  places,
  result,
  current = null,
  cancelHref,
  submitLabel,
}: {
  places: SourcePlaces;
  result: SubmissionResult<string[]> | undefined;
  current?: { title: string; url: string; countryId: number; issueId: number | null; language: string } | null;
  cancelHref: string;
  submitLabel: string;
}) {
  const schema = current ? editSourceSchema : addSourceSchema;
  const [form, fields] = useForm({
    id: current ? "edit-source" : "add-source",
    lastResult: result,
    defaultValue: current
      ? { title: current.title, url: current.url, countryId: String(current.countryId), issueId: current.issueId === null ? "" : String(current.issueId), language: current.language }
      : { language: DEFAULT_LANGUAGE },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const errors = summaryErrors(
    [fields.title, "Title"],
    [fields.url, "Public link"],
    [fields.countryId, "Country"],
    [fields.issueId, "Issue"],
    [fields.language, "Language of the source"],
    [fields.file as FieldMetadata<string | undefined>, current ? "New file" : "File"],
    [fields.markdown, current ? "Or paste new text" : "Or paste the text"],
  );
  const countryOptions = [{ value: "", label: "Choose a country" }, ...places.map((c) => ({ value: String(c.id), label: c.name }))];
  const issueOptions = [
    { value: "", label: "Every issue of the country" },
    ...places.flatMap((c) => c.issues.map((i) => ({ value: String(i.id), label: `${c.name}: ${i.name}` }))),
  ];
  const keep = current ? " Leave it empty to keep the source's text as it is." : "";
  return (
    <>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.title} label="Title" autoComplete="off" />
        <TextField
          field={fields.url}
          label="Public link"
          type="url"
          inputMode="url"
          autoComplete="off"
          hint="Where people can read the source themselves: an address that starts with https:// or http://."
        />
        <SelectField field={fields.countryId} label="Country" options={countryOptions} />
        <SelectField field={fields.issueId} label="Issue" required={false} options={issueOptions} hint="Leave as it is for a source about every issue of the country." />
        <SelectField
          field={fields.language}
          label="Language of the source"
          options={languages.map((language) => ({ value: language.code, label: language.englishName }))}
          hint="The language it is written in: people reading another language see its passages marked as in this one."
        />
        <FileField
          field={fields.file}
          label={current ? "New file" : "File"}
          required={false}
          accept=".pdf,.docx,.md,.markdown,.txt,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/markdown,text/plain"
          hint={`PDF, Word (.docx), markdown or plain text, under 5 MB. A scanned PDF without text cannot be used.${keep}`}
        />
        <TextAreaField
          field={fields.markdown}
          label={current ? "Or paste new text" : "Or paste the text"}
          required={false}
          rows={10}
          hint={`Markdown: a line starting with # is a heading. Up to ${MAX_PASTED_CHARS.toLocaleString("en")} characters.${keep}`}
        />
        <div className="button-row">
          <button type="submit" className="button">
            {submitLabel}
          </button>
          <a className="button button--secondary" href={cancelHref}>
            Cancel
          </a>
        </div>
      </Form>
    </>
  );
}
