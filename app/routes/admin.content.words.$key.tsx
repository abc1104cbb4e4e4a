import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { z } from "zod";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { invalid } from "~/auth/form-replies.server";
import { wordsHref, wordsLanguage } from "~/content/items";
import { PendingDraftNotice, authorName } from "~/content/version-views";
import { publishDraft } from "~/content/versions.server";
import { isMessageKey, loadWords, saveWord, shippedWords, wordProblem } from "~/content/words.server";
import { notFound } from "~/http.server";
import { ErrorSummary, showsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.content.words.$key";

/** How many messages a search lists at most: enough to find one, short enough to read. */
const SHOWN = 40;

// The words and their placeholders are checked on the server (app/content/words.server.ts): the catalogues
// stay out of the page's script.
const correctionSchema = z.object({
  intent: z.enum(["draft", "publish", "remove"]).catch("draft"),
  key: z.string().min(1, "Choose a message from the list."),
  text: z.string().trim().max(2000, "This field must be less than 2000 characters.").optional(),
});

function languageOf(request: Request, params: Route.LoaderArgs["params"]) {
  const language = wordsLanguage(params.key);
  if (!language) notFound(request);
  return { code: language.code, name: language.englishName, ownName: language.name, viewerOnly: language.viewerOnly };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const language = languageOf(request, params);
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim();
  const chosenKey = url.searchParams.get("key") ?? "";
  const { messages, pendingDraft, published } = await loadWords(language.code);
  const words = shippedWords(language.code);
  const needle = query.toLocaleLowerCase();
  const found = query ? words.filter((w) => [w.key, w.english, w.shipped, messages[w.key] ?? ""].some((text) => text.toLocaleLowerCase().includes(needle))) : [];
  const chosen = words.find((w) => w.key === chosenKey) ?? null;
  return {
    language,
    query,
    found: found.slice(0, SHOWN).map((w) => ({ ...w, correction: messages[w.key] ?? null })),
    foundCount: found.length,
    chosen: chosen ? { ...chosen, correction: messages[chosen.key] ?? null, published: published[chosen.key] ?? null } : null,
    corrections: Object.entries(messages).map(([key, text]) => ({ key, text, published: published[key] === text })),
    pendingDraft: pendingDraft ? { version: pendingDraft.version, author: authorName(pendingDraft), createdAt: pendingDraft.createdAt } : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const language = languageOf(request, params);
  const form = await request.formData();
  const here = wordsHref(language.code);
  if (form.get("intent") === "publish-draft") {
    const published = await publishDraft("strings", language.code, actor);
    if (!published.ok) return data({ result: null, message: published.message }, { status: 409 });
    return redirectWithToast(here, { type: "success", message: `Published: the corrections in ${language.name} are on the public pages.` });
  }
  const submission = parseWithZod(form, { schema: correctionSchema });
  if (submission.status !== "success") return invalid(submission);
  const { intent, key, text } = submission.value;
  if (!isMessageKey(key, language.code)) return data({ result: submission.reply({ fieldErrors: { key: ["Choose a message from the list."] } }), message: null }, { status: 400 });
  const problem = intent === "remove" ? null : text ? wordProblem(key, text) : "Enter the corrected text, or press Remove the correction.";
  if (problem) return data({ result: submission.reply({ fieldErrors: { text: [problem] } }), message: null }, { status: 400 });
  const saved = await saveWord(language.code, key, intent === "remove" ? null : text!, intent === "publish" ? "published" : "draft", actor);
  if (!saved.ok) return data({ result: submission.reply({ formErrors: [saved.message] }), message: null }, { status: 409 });
  const message = saved.unchanged
    ? `Nothing has changed: version ${saved.version} stays as it is.`
    : intent === "publish"
      ? `Published: the correction of ${key} is on the public pages.`
      : `Draft saved as version ${saved.version}: ${intent === "remove" ? "the correction is removed" : "the correction is kept"} there. The public pages are unchanged until you publish.`;
  return redirectWithToast(`${here}?key=${encodeURIComponent(key)}`, { type: "success", message });
}

export default function InterfaceWords({ loaderData, actionData }: Route.ComponentProps) {
  const { language, query, found, foundCount, chosen, corrections, pendingDraft } = loaderData;
  const [form, fields] = useForm({
    id: "correction",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    defaultValue: { key: chosen?.key ?? "", text: chosen?.correction ?? "" },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: correctionSchema }),
  });
  const label = `Corrected text in ${language.name}`;
  const errors = summaryErrors([fields.text, label], [fields.key, "Message"]);
  const formErrors = actionData && "message" in actionData && actionData.message ? [actionData.message] : form.errors;
  const here = wordsHref(language.code);
  return (
    <AdminPage title={`Interface words in ${language.name}`} errors={showsErrors(errors, formErrors)} trail={[{ label: "Languages", href: "/admin/languages" }]}>
      <p className="button-row">
        <a href={`${here}/history`}>History of changes</a>
      </p>
      <p>
        Correct a message of the site&apos;s own words in {language.name} (a translator&apos;s fix) without waiting for a new release. A correction keeps
        the message&apos;s placeholders in braces, such as {"{name}"}, and its tags, as the English message has them. People see it once it is published.
      </p>
      {language.viewerOnly ? (
        <p>
          Only the interview speaks {language.name}: when a guide is written in it, the interview&apos;s own words (its buttons, hints and messages) are
          these. The rest of the site is in the person&apos;s language.
        </p>
      ) : null}
      {pendingDraft ? (
        <PendingDraftNotice draft={pendingDraft} what="corrections" shown="list">
          <Form method="post">
            <button type="submit" name="intent" value="publish-draft" className="button button--small">
              Publish the draft
            </button>
          </Form>
        </PendingDraftNotice>
      ) : null}
      <ErrorSummary errors={errors} formErrors={formErrors} />
      {chosen ? (
        <section aria-labelledby="correction-title">
          <h2 id="correction-title">
            Correct <code>{chosen.key}</code>
          </h2>
          <dl className="summary-list">
            <dt>In English</dt>
            <dd lang="en">{chosen.english}</dd>
            <dt>As shipped in {language.name}</dt>
            <dd lang={language.code} dir="auto">
              {chosen.shipped}
            </dd>
          </dl>
          <Form method="post" {...getFormProps(form)} noValidate className="form">
            <input type="hidden" name="key" value={chosen.key} />
            <TextAreaField field={fields.text} label={label} rows={3} hint="Plain words; keep what is in braces { } and tags < > as they are." />
            <div className="button-row">
              <button type="submit" name="intent" value="draft" className="button button--secondary">
                Save draft
              </button>
              <button type="submit" name="intent" value="publish" className="button">
                Publish
              </button>
              {chosen.correction !== null ? (
                <button type="submit" name="intent" value="remove" className="button button--secondary">
                  Remove the correction
                </button>
              ) : null}
            </div>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="find-title">
        <h2 id="find-title">Find a message</h2>
        <form method="get" className="form" role="search" aria-labelledby="find-title">
          <div className="field">
            <label className="field__label" htmlFor="q">
              Words, in English or {language.name}, or the message&apos;s key
            </label>
            <input className="field__input" id="q" name="q" type="search" defaultValue={query} />
          </div>
          <button type="submit" className="button button--secondary">
            Find
          </button>
        </form>
        {query ? (
          <>
            <p role="status">
              {foundCount === 0 ? "No message has these words." : foundCount > SHOWN ? `${foundCount} messages have these words; the first ${SHOWN} are shown.` : `${foundCount} ${foundCount === 1 ? "message has" : "messages have"} these words.`}
            </p>
            {found.length ? <WordTable words={found} here={here} query={query} languageCode={language.code} languageName={language.name} caption="Messages found" /> : null}
          </>
        ) : null}
      </section>
      <section aria-labelledby="corrections-title">
        <h2 id="corrections-title">Corrections</h2>
        {corrections.length ? (
          <ul>
            {corrections.map((c) => (
              <li key={c.key}>
                <a href={`${here}?key=${encodeURIComponent(c.key)}`}>
                  <code>{c.key}</code>
                </a>
                : <span lang={language.code} dir="auto">{c.text}</span>
                {c.published ? null : " (draft)"}
              </li>
            ))}
          </ul>
        ) : (
          <p>No message is corrected in {language.name}: the site shows the shipped translation.</p>
        )}
      </section>
    </AdminPage>
  );
}

function WordTable({
  words,
  here,
  query,
  languageCode,
  languageName,
  caption,
}: {
  words: { key: string; english: string; shipped: string; correction: string | null }[];
  here: string;
  query: string;
  languageCode: string;
  languageName: string;
  caption: string;
}) {
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Message</th>
            <th scope="col">English</th>
            <th scope="col">{languageName}</th>
          </tr>
        </thead>
        <tbody>
          {words.map((w) => (
            <tr key={w.key}>
              <td>
                <a href={`${here}?${new URLSearchParams({ q: query, key: w.key })}#correction-title`}>
                  <code>{w.key}</code>
                  <span className="visually-hidden">: correct it</span>
                </a>
              </td>
              <td lang="en">{w.english}</td>
              <td lang={languageCode} dir="auto">
                {w.correction ?? w.shipped}
                {w.correction !== null ? " (corrected)" : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
