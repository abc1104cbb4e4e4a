import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { invalid } from "~/auth/form-replies.server";
import { fieldLabels, markdownFields, translationSchemas } from "~/content/editing";
import { itemFromUrl, itemHref, itemTitle, translationLanguage } from "~/content/items";
import { PendingDraftNotice, authorName } from "~/content/version-views";
import { type ItemKind, itemExists, loadTranslation, saveContent } from "~/content/versions.server";
import { notFound } from "~/http.server";
import { findLanguage } from "~/i18n/languages";
import { ErrorSummary, type LabelledField, showsErrors, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { Prose } from "~/ui/markdown";
import { markdownToHtml } from "~/ui/markdown.server";
import { redirectWithToast } from "~/ui/toast.server";
import { translatedFields, translationKey } from "../../db/content-versions";
import type { Route } from "./+types/admin.content.$section.$key.in.$language";

/** The item and the language the URL names (an existing item, a shipped language other than the default); else 404. */
async function translationTarget(request: Request, params: Route.LoaderArgs["params"]) {
  const item = itemFromUrl(params.section, params.key);
  const language = translationLanguage(params.language);
  if (!item?.key || !language || !(await itemExists(item.kind, item.key))) notFound(request);
  return { kind: item.kind, key: item.key, language, languageName: findLanguage(language)!.englishName };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const target = await translationTarget(request, params);
  const { original, body, pendingDraft } = await loadTranslation(target.kind, target.key, target.language);
  if (!original) notFound(request);
  const originalTexts = original as unknown as Record<string, string>;
  const name = "name" in original ? original.name : null;
  return {
    ...target,
    title: `${itemTitle(target.kind, target.key, name)} in ${target.languageName}`,
    fields: (translatedFields[target.kind] as readonly string[]).map((field) => ({ name: field, english: String(originalTexts[field] ?? "") })),
    values: body?.fields ?? {},
    pendingDraft: pendingDraft ? { version: pendingDraft.version, author: authorName(pendingDraft), createdAt: pendingDraft.createdAt } : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const target = await translationTarget(request, params);
  const submission = parseWithZod(await request.formData(), { schema: translationSchemas[target.kind] });
  if (submission.status !== "success") return invalid(submission);
  const { intent, ...fields } = submission.value as { intent: string } & Record<string, string>;
  if (intent === "preview") {
    const { original } = await loadTranslation(target.kind, target.key, target.language);
    return { result: submission.reply(), preview: previewOf(target.kind, fields, (original ?? {}) as unknown as Record<string, string>) };
  }
  const status = intent === "publish" ? "published" : "draft";
  const saved = await saveContent("translation", translationKey(target.kind, target.key, target.language), { fields }, status, actor);
  if (!saved.ok) return data({ result: submission.reply({ formErrors: [saved.message] }), preview: null }, { status: 409 });
  const where = itemHref(target.kind, target.key, target.language);
  const message = saved.unchanged
    ? `Nothing has changed: version ${saved.version} stays as it is.`
    : status === "published"
      ? `Published in ${target.languageName}: version ${saved.version} is on the public pages.`
      : `Draft saved as version ${saved.version}. The public pages are unchanged until you publish.`;
  return redirectWithToast(where, { type: "success", message });
}

/** The page as people reading the language will see it: each field translated, or the default's where left empty. */
function previewOf(kind: ItemKind, fields: Record<string, string>, original: Record<string, string>) {
  const text = (field: string) => ({ text: fields[field] || original[field] || "", translated: Boolean(fields[field]) });
  if (kind === "home") return { heading: text("headline"), subheading: text("subHeadline"), body: html(text("bodyCopy")) };
  if (kind === "country") return { heading: text("name"), subheading: null, body: null };
  return { heading: text("name"), subheading: null, body: html(text("content")) };
}

function html(text: { text: string; translated: boolean }) {
  return { html: markdownToHtml(text.text), translated: text.translated };
}

export default function EditTranslation({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, key, language, languageName, title, fields, values, pendingDraft } = loaderData;
  const schema = translationSchemas[kind];
  const [form, formFields] = useForm({
    id: `translation-${kind}`,
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    defaultValue: values,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const labels = fieldLabels[kind] as Record<string, string>;
  const field = (name: string) => formFields[name as keyof typeof formFields] as Parameters<typeof TextField>[0]["field"];
  const labelOf = (name: string) => `${labels[name] ?? name} in ${languageName}`;
  const errors = summaryErrors(...fields.map((f) => [field(f.name), labelOf(f.name)] as unknown as LabelledField));
  const markdown = new Set<string>(markdownFields[kind] as string[]);
  const preview = actionData && "preview" in actionData ? actionData.preview : null;
  const base = itemHref(kind, key, language);
  const otherLanguage = (translated: boolean) => (translated ? { lang: language, dir: "auto" as const } : { lang: "en", dir: "auto" as const });
  return (
    <AdminPage title={title} errors={showsErrors(errors, form.errors)} trail={[{ label: "Content", href: "/admin/content" }]}>
      <p className="button-row">
        <a href={itemHref(kind, key)}>Edit in English</a>
        <a href={`${base}/history`}>History of changes in {languageName}</a>
      </p>
      <p>
        Write the {kind === "home" || kind === "legal" ? "page" : kind} in {languageName}. A field left empty shows the English text to people who read{" "}
        {languageName}, with a note that the page is not yet available in their language. The English text is shown under each field.
      </p>
      {pendingDraft ? <PendingDraftNotice draft={pendingDraft} what="translation" /> : null}
      <ErrorSummary errors={errors} formErrors={form.errors} />
      {preview ? (
        <section className="content-preview" aria-labelledby="preview-title" tabIndex={-1} autoFocus>
          <h2 id="preview-title">Preview</h2>
          <p className="muted">As the public page shows it in {languageName}. Nothing is saved until you save a draft or publish; the form is below.</p>
          <div className="content-preview__page">
            <h3 className="content-preview__heading" {...otherLanguage(preview.heading.translated)}>
              {preview.heading.text}
            </h3>
            {preview.subheading?.text ? (
              <p className="intro__sub" {...otherLanguage(preview.subheading.translated)}>
                {preview.subheading.text}
              </p>
            ) : null}
            {preview.body ? <Prose html={preview.body.html} {...otherLanguage(preview.body.translated)} /> : null}
          </div>
        </section>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className="form content-form">
        {fields.map((f) => {
          const english = (
            <>
              In English: <span lang="en">{f.english || "(empty)"}</span>
            </>
          );
          return markdown.has(f.name) ? (
            <div key={f.name}>
              <TextAreaField field={field(f.name)} label={labelOf(f.name)} required={false} rows={14} hint={`Markdown, as in English. ${markdownHintEnd}`} />
              <details className="content-form__original">
                <summary>The English text</summary>
                <pre lang="en">{f.english}</pre>
              </details>
            </div>
          ) : (
            <TextField key={f.name} field={field(f.name)} label={labelOf(f.name)} required={false} hint={english} />
          );
        })}
        <div className="button-row">
          {markdown.size ? (
            <button type="submit" name="intent" value="preview" className="button button--secondary">
              Preview
            </button>
          ) : null}
          <button type="submit" name="intent" value="draft" className="button button--secondary">
            Save draft
          </button>
          <button type="submit" name="intent" value="publish" className="button">
            Publish
          </button>
        </div>
      </Form>
    </AdminPage>
  );
}

const markdownHintEnd = "Press Preview to see it.";
