import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { invalid } from "~/auth/form-replies.server";
import { editSchemas, fieldLabels, kindNames, markdownFields, parseVariableList, variableList } from "~/content/editing";
import { type ItemRef, itemFromUrl, itemHref, itemTitle } from "~/content/items";
import { PendingDraftNotice, authorName } from "~/content/version-views";
import { type ContentBodies, type ContentKind, type ItemKind, issueChoices, itemExists, loadItem, saveContent, translationStatuses } from "~/content/versions.server";
import { DEFAULT_LANGUAGE, findLanguage, languages } from "~/i18n/languages";
import { offeredLanguages } from "~/i18n/offered.server";
import { notFound, parseId } from "~/http.server";
import { CheckboxField, ErrorSummary, type LabelledField, SelectField, showsErrors, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { Prose } from "~/ui/markdown";
import { markdownToHtml } from "~/ui/markdown.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.content.$section.$key";

function itemOrNotFound(request: Request, params: { section?: string; key?: string }): ItemRef {
  const item = itemFromUrl(params.section, params.key);
  if (!item) notFound(request);
  return item;
}

/** The form's fields as text, from an item's content. */
function formValues(kind: ContentKind, body: ContentBodies[ContentKind] | null): Record<string, string> {
  if (!body) return {};
  if (kind === "issue") {
    const issue = body as ContentBodies["issue"];
    return {
      name: issue.name,
      countryId: String(issue.countryId),
      content: issue.content,
      guideId: issue.guideId ?? "",
      modelAI: issue.modelAI,
      rephraseContent: issue.rephraseContent,
      rephraseVariables: variableList(issue.rephraseVariables),
      ...(issue.sensitive ? { sensitive: "on" } : {}),
    };
  }
  if (kind === "country") {
    const country = body as ContentBodies["country"];
    return { name: country.name, order: String(country.order), dateOrder: country.dateOrder, dateStyle: country.dateStyle, dateDigits: country.dateDigits };
  }
  return Object.fromEntries(Object.entries(body).map(([field, value]) => [field, String(value)]));
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const item = itemOrNotFound(request, params);
  const loaded = item.key === null ? null : await loadItem(item.kind, item.key);
  if (item.key !== null && !loaded?.body) notFound(request);
  const choices = item.kind === "issue" ? await issueChoices() : null;
  let values = formValues(item.kind, loaded?.body ?? null);
  if (item.key === null) {
    const country = parseId(new URL(request.url).searchParams.get("country") ?? undefined);
    values = item.kind === "issue" ? { modelAI: "gpt-3.5-turbo", ...(country ? { countryId: String(country) } : {}) } : { order: "10", dateOrder: "MDY", dateStyle: "numeric", dateDigits: "latin" };
  }
  const name = loaded?.body && "name" in loaded.body ? loaded.body.name : null;
  const others = languages.map((language) => language.code as string).filter((code) => code !== DEFAULT_LANGUAGE);
  const [statuses, offered] = item.key === null || !loaded?.published ? [[], []] : await Promise.all([translationStatuses(item.kind, item.key, others), offeredLanguages()]);
  return {
    translations: statuses.map((status) => ({ ...status, name: findLanguage(status.language)!.englishName, offered: offered.includes(status.language) })),
    item,
    title:
      item.key === null
        ? `Add ${item.kind === "country" ? "a country" : "an issue"}`
        : item.kind === "home" || item.kind === "legal"
          ? `Edit ${itemTitle(item.kind, item.key)}`
          : `Edit ${kindNames[item.kind]}: ${itemTitle(item.kind, item.key, name)}`,
    values,
    pendingDraft: loaded?.pendingDraft ? { version: loaded.pendingDraft.version, author: authorName(loaded.pendingDraft), createdAt: loaded.pendingDraft.createdAt } : null,
    choices,
  };
}

/** The form's values as the item's content; an issue's guide path follows its guide unless the guide stays. */
async function bodyFrom(item: ItemRef, value: Record<string, unknown>): Promise<ContentBodies[ItemKind]> {
  if (item.kind === "issue") {
    const guideId = (value.guideId as string) || null;
    const current = item.key ? (await loadItem("issue", item.key)).published : null;
    return {
      name: value.name as string,
      countryId: value.countryId as number,
      content: value.content as string,
      guideId,
      guidePath: guideId === null ? null : current?.guideId === guideId && current.guidePath ? current.guidePath : `${guideId}/Guide.json`,
      modelAI: value.modelAI as string,
      rephraseContent: value.rephraseContent as string,
      rephraseVariables: parseVariableList(value.rephraseVariables as string),
      sensitive: value.sensitive as boolean,
    };
  }
  const { intent: _intent, ...body } = value;
  return body as unknown as ContentBodies[ItemKind];
}

/**
 * The page as people will see it, from the form's values: its heading (the home page's headline and the line
 * under it, a page's or an issue's name) and its text, rendered by the public pages' own renderer and sanitiser.
 */
function previewOf(kind: ContentKind, value: Record<string, unknown>) {
  const text = (field: string) => String(value[field] ?? "");
  if (kind === "home") return { heading: text("headline"), subheading: text("subHeadline"), html: markdownToHtml(text("bodyCopy")) };
  return { heading: text("name"), subheading: "", html: markdownToHtml(text("content")) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const item = itemOrNotFound(request, params);
  if (item.key !== null && !(await itemExists(item.kind, item.key))) notFound(request);
  const submission = parseWithZod(await request.formData(), { schema: editSchemas[item.kind] });
  if (submission.status !== "success") return invalid(submission);
  const { intent, ...value } = submission.value as { intent: string } & Record<string, unknown>;
  if (intent === "preview") return { result: submission.reply(), preview: previewOf(item.kind, value) };
  const status = intent === "publish" ? "published" : "draft";
  const saved = await saveContent(item.kind, item.key, await bodyFrom(item, value), status, actor);
  if (!saved.ok) {
    const reply = saved.field ? submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }) : submission.reply({ formErrors: [saved.message] });
    return data({ result: reply, preview: null }, { status: saved.field ? 400 : 409 });
  }
  const message = saved.unchanged
    ? `Nothing has changed: version ${saved.version} stays as it is.`
    : saved.publishedDraft
      ? `Published: draft version ${saved.version} is on the public pages.`
      : status === "published"
        ? `Published: version ${saved.version} is on the public pages.`
        : `Draft saved as version ${saved.version}. The public pages are unchanged until you publish.`;
  return redirectWithToast(itemHref(item.kind, saved.key), { type: "success", message });
}

export default function EditContent({ loaderData, actionData }: Route.ComponentProps) {
  const { item, title, values, pendingDraft, choices, translations } = loaderData;
  const schema = editSchemas[item.kind];
  const [form, fields] = useForm({
    id: `content-${item.kind}`,
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    defaultValue: values,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const labels = fieldLabels[item.kind] as Record<string, string>;
  const field = (name: string) => fields[name as keyof typeof fields] as Parameters<typeof TextField>[0]["field"];
  const labelled = Object.keys(labels).map((name) => [field(name), labels[name]!] as unknown as LabelledField);
  const errors = summaryErrors(...labelled);
  const preview = actionData && "preview" in actionData ? actionData.preview : null;
  return (
    <AdminPage title={title} errors={showsErrors(errors, form.errors)}>
      <p className="button-row">
        <a href="/admin/content">All content</a>
        {item.key !== null ? <a href={`${itemHref(item.kind, item.key)}/history`}>History of changes</a> : null}
      </p>
      {pendingDraft ? <PendingDraftNotice draft={pendingDraft} what="content" /> : null}
      <ErrorSummary errors={errors} formErrors={form.errors} />
      {preview ? (
        // Above the form, where the page comes back after Preview, and focused: it is what was asked for.
        <section className="content-preview" aria-labelledby="preview-title" tabIndex={-1} autoFocus>
          <h2 id="preview-title">Preview</h2>
          <p className="muted">As the public page shows it. Nothing is saved until you save a draft or publish; the form is below.</p>
          <div className="content-preview__page">
            <h3 className="content-preview__heading">{preview.heading}</h3>
            {preview.subheading ? <p className="intro__sub">{preview.subheading}</p> : null}
            <Prose html={preview.html} />
          </div>
        </section>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className="form content-form">
        {item.kind === "home" ? (
          <>
            <TextField field={field("headline")} label={labels.headline!} />
            <TextField field={field("subHeadline")} label={labels.subHeadline!} />
            <TextAreaField field={field("bodyCopy")} label={labels.bodyCopy!} hint={markdownHint} rows={14} />
          </>
        ) : item.kind === "legal" ? (
          <>
            <TextField field={field("name")} label={labels.name!} />
            <TextAreaField field={field("content")} label={labels.content!} hint={markdownHint} rows={20} />
          </>
        ) : item.kind === "country" ? (
          <>
            <TextField field={field("name")} label={labels.name!} />
            <TextField field={field("order")} label={labels.order!} inputMode="numeric" hint="Countries are listed on the home page from the lowest number." />
            <SelectField
              field={field("dateOrder")}
              label={labels.dateOrder!}
              hint="How people in this country write dates, in the interview and the documents."
              options={[
                { value: "DMY", label: "Day, month, year" },
                { value: "MDY", label: "Month, day, year" },
              ]}
            />
            <SelectField
              field={field("dateStyle")}
              label={labels.dateStyle!}
              options={[
                { value: "long", label: "Month in words (24 June 2026)" },
                { value: "numeric", label: "Numbers only (24/06/2026)" },
              ]}
            />
            <SelectField
              field={field("dateDigits")}
              label={labels.dateDigits!}
              hint="For interviews in a language with digits of its own, such as Arabic."
              options={[
                { value: "latin", label: "0 1 2 3 (the digits English uses)" },
                { value: "native", label: "The language's own (٠ ١ ٢ ٣ in Arabic)" },
              ]}
            />
          </>
        ) : (
          <>
            <TextField field={field("name")} label={labels.name!} />
            <SelectField
              field={field("countryId")}
              label={labels.countryId!}
              options={[{ value: "", label: "Choose a country" }, ...(choices?.countries ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
            />
            <TextAreaField field={field("content")} label={labels.content!} hint={markdownHint} rows={16} />
            <SelectField
              field={field("guideId")}
              label={labels.guideId!}
              required={false}
              hint="The interview people start from this issue's page."
              options={[
                { value: "", label: "No guide" },
                ...(choices?.guides ?? []).map((g) => ({ value: g.id, label: `${g.title} (${g.id})` })),
                // A guide the issue names but the database does not hold stays chosen, never dropped unseen.
                ...(values.guideId && !choices?.guides.some((g) => g.id === values.guideId) ? [{ value: values.guideId, label: `${values.guideId} (not imported)` }] : []),
              ]}
            />
            <CheckboxField
              field={field("sensitive")}
              label="Sensitive issue"
              hint="For issues people may not want seen on their screen, such as family violence: the issue's page offers a quick exit and says how to hide the visit."
            />
            <h2>Rephrase with AI</h2>
            <TextField field={field("modelAI")} label={labels.modelAI!} hint="The model the AI endpoint is asked for, for example gpt-4o-mini." />
            <TextAreaField field={field("rephraseContent")} label={labels.rephraseContent!} required={false} rows={5} hint="What the AI is told before it rephrases a person's answer." />
            <TextField
              field={field("rephraseVariables")}
              label={labels.rephraseVariables!}
              required={false}
              hint="The guide's variables whose long-text questions offer Rephrase with AI, separated by commas."
            />
          </>
        )}
        <div className="button-row">
          {markdownFields[item.kind].length ? (
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
      {item.key !== null && translations.length ? <Translations kind={item.kind} itemKey={item.key} translations={translations} /> : null}
      {item.key !== null && (item.kind === "country" || item.kind === "issue") ? (
        <p>
          <a href={`${itemHref(item.kind, item.key)}/delete`} className="action-link">
            Delete this {item.kind}
          </a>
        </p>
      ) : null}
    </AdminPage>
  );
}

/** The item in each other language: where its translation stands, and a link to write it. */
function Translations({
  kind,
  itemKey,
  translations,
}: {
  kind: ItemKind;
  itemKey: string;
  translations: { language: string; name: string; published: boolean; draftPending: boolean; offered: boolean }[];
}) {
  return (
    <section aria-labelledby="translations-title">
      <h2 id="translations-title">In other languages</h2>
      <p>People who read another language see what is published in it, and the English text, with a note, where nothing is.</p>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">Translations</caption>
          <thead>
            <tr>
              <th scope="col">Language</th>
              <th scope="col">Translation</th>
              <th scope="col">Offered to people</th>
            </tr>
          </thead>
          <tbody>
            {translations.map((t) => (
              <tr key={t.language}>
                <td>
                  <a href={itemHref(kind, itemKey, t.language)}>
                    {t.name}
                    <span className="visually-hidden">: edit the translation</span>
                  </a>
                </td>
                <td>{t.published ? (t.draftPending ? "Published, with a newer draft" : "Published") : t.draftPending ? "Draft, not published" : "Not translated"}</td>
                <td>{t.offered ? "Yes" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const markdownHint = "Markdown. HTML is allowed; scripts and unsafe attributes are removed, as on the public page. Press Preview to see it.";
