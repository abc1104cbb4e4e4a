import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { sourcesTrail } from "~/sources/schemas";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { attachmentMessages, MAX_ATTACHMENT_BYTES } from "~/interviews/attachments.server";
import { addSourceSchema, MAX_PASTED_CHARS } from "~/sources/schemas";
import { addSource, sourcePlaces } from "~/sources/sources.server";
import { ErrorSummary, FileField, SelectField, showsErrors, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.sources.new";

// The file is never sent back into the page (a browser cannot be given one); the rest of what was typed is.
const hideFields = ["file"];

export async function loader() {
  return { countries: await sourcePlaces() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const submission = parseWithZod(await request.formData(), { schema: addSourceSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  const { title, url, countryId, issueId, file, markdown } = submission.value;
  const refuse = (field: string, message: string) => data({ result: submission.reply({ fieldErrors: { [field]: [message] }, hideFields }) }, { status: 400 });
  if (file && file.size > MAX_ATTACHMENT_BYTES) return refuse("file", attachmentMessages.tooLarge);
  const content =
    file && file.size > 0 ? { file: { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) } } : { markdown: markdown ?? "" };
  const added = await addSource({ countryId, issueId: issueId ?? null, title, url }, content, actor);
  if (!added.ok) return refuse(added.field, added.message);
  return redirectWithToast(`/admin/sources/${added.id}`, { type: "success", message: `${title} was added: ${added.passages} passage${added.passages === 1 ? "" : "s"}.` });
}

export default function AddSource({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "add-source",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addSourceSchema }),
  });
  const errors = summaryErrors(
    [fields.title, "Title"],
    [fields.url, "Public link"],
    [fields.countryId, "Country"],
    [fields.issueId, "Issue"],
    [fields.file, "File"],
    [fields.markdown, "Or paste the text"],
  );
  const countryOptions = [{ value: "", label: "Choose a country" }, ...loaderData.countries.map((c) => ({ value: String(c.id), label: c.name }))];
  const issueOptions = [
    { value: "", label: "Every issue of the country" },
    ...loaderData.countries.flatMap((c) => c.issues.map((i) => ({ value: String(i.id), label: `${c.name}: ${i.name}` }))),
  ];
  return (
    <AdminPage title="Add a source" trail={sourcesTrail} errors={showsErrors(errors, form.errors)}>
      <p>
        Upload a PDF, a Word file (.docx) or a markdown file, or paste markdown. Its text is split into passages by headings and paragraphs; the file
        itself is not kept.
      </p>
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
        <FileField
          field={fields.file}
          label="File"
          required={false}
          accept=".pdf,.docx,.md,.markdown,.txt,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/markdown,text/plain"
          hint="PDF, Word (.docx), markdown or plain text, under 5 MB. A scanned PDF without text cannot be used."
        />
        <TextAreaField
          field={fields.markdown}
          label="Or paste the text"
          required={false}
          rows={10}
          hint={`Markdown: a line starting with # is a heading. Up to ${MAX_PASTED_CHARS.toLocaleString("en")} characters.`}
        />
        <div className="button-row">
          <button type="submit" className="button">
            Add source
          </button>
          <a className="button button--secondary" href="/admin/sources">
            Cancel
          </a>
        </div>
      </Form>
    </AdminPage>
  );
}
