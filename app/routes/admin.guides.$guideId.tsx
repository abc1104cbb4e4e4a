import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { attachGuide, detachGuide, guideFromParams, setGuideLanguage } from "~/administration/guides.server";
import { attachGuideSchema, guideLanguageSchema } from "~/administration/schemas";
import { GUIDE_LANGUAGES, languageName } from "~/guides/guide-language";
import { invalid } from "~/auth/form-replies.server";
import { listCountries } from "~/content/content.server";
import { listGuides, listGuideVersions } from "~/guides/guides.server";
import { notFound } from "~/http.server";
import { ErrorSummary, FileField, SelectField, showsErrors, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { addScenario, deleteScenario, listScenarios } from "~/guide-checks/checks.server";
import { scenarioSchema } from "~/guide-checks/schemas";
import { givenAnswersActor } from "~/guide-checks/given-answers.server";
import { EXPECTATION_SYNTAX } from "~/guide-checks/scenarios.server";
import { redirectWithToast } from "~/ui/toast.server";
import { VersionState } from "~/administration/guide-version-state";
import { AdminTime, AdminTimeZoneName } from "~/ui/admin-lists";
import type { Route } from "./+types/admin.guides.$guideId";

export async function loader({ request, params }: Route.LoaderArgs) {
  const { guideId } = guideFromParams(request, params);
  const guide = await listGuideVersions(guideId);
  if (!guide) notFound(request);
  const [countries, guides] = await Promise.all([listCountries(), listGuides()]);
  const issues = guides.find((g) => g.id === guideId)?.issues ?? [];
  const languages = [...new Set<string>([guide.language, ...GUIDE_LANGUAGES])].map((tag) => ({ value: tag, label: `${languageName(tag)} (${tag})` }));
  languages.sort((a, b) => (a.value === "en" ? -1 : b.value === "en" ? 1 : a.label.localeCompare(b.label, "en")));
  // A guide can be the same interview as a guide that is no translation itself (one level: an issue's guide and its translations).
  const originals = guides.filter((g) => g.id !== guideId && g.translationOf === null).map((g) => ({ value: g.id, label: `${g.title} (${g.id}, ${languageName(g.language)})` }));
  const translations = guides.filter((g) => g.translationOf === guideId).map((g) => ({ id: g.id, title: g.title, language: languageName(g.language) }));
  const original = guide.translationOf ? (guides.find((g) => g.id === guide.translationOf) ?? null) : null;
  const choices = countries.flatMap((country) => country.issues.map((issue) => ({ value: String(issue.id), label: `${country.name}: ${issue.name}` })));
  // "Detach" asks first: ?detach=<issue id> shows the question for an issue that runs this guide.
  const asked = Number(new URL(request.url).searchParams.get("detach"));
  return {
    guide,
    issues,
    choices,
    detaching: issues.find((issue) => issue.id === asked) ?? null,
    languages,
    originals,
    translations,
    original: original ? { id: original.id, title: original.title } : null,
    scenarios: await listScenarios(guideId),
    givenBy: givenAnswersActor.email,
    expectationSyntax: EXPECTATION_SYNTAX,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { guideId } = guideFromParams(request, params);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "detach") {
    const issueId = Number(formData.get("issueId"));
    // Only the confirmation's form detaches; anything else is asked again.
    if (!confirmed(formData)) return redirect(`/admin/guides/${guideId}?detach=${Number.isSafeInteger(issueId) ? issueId : ""}#confirm`);
    const detached = await detachGuide(actor, guideId, issueId);
    if (!detached.ok) return data({ detachError: detached.message }, { status: 409 });
    return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `${detached.issueName} no longer runs this guide.` });
  }
  if (intent === "language") {
    const submission = parseWithZod(formData, { schema: guideLanguageSchema });
    if (submission.status !== "success") return data({ language: submission.reply() }, { status: 400 });
    const set = await setGuideLanguage(actor, guideId, submission.value);
    if (!set.ok) return data({ language: submission.reply({ fieldErrors: { [set.field]: [set.message] } }) }, { status: 400 });
    return redirectWithToast(`/admin/guides/${guideId}#language`, { type: "success", message: `The guide is in ${languageName(submission.value.language)}.` });
  }
  if (intent === "add-scenario") {
    const submission = parseWithZod(formData, { schema: scenarioSchema });
    if (submission.status !== "success") return data({ scenario: submission.reply() }, { status: 400 });
    const { name, answers, expectations } = submission.value;
    const added = await addScenario(actor, guideId, { name, answersText: await answers.text(), expectations });
    if (!added.ok) return data({ scenario: submission.reply({ fieldErrors: { [added.field]: [added.message] } }) }, { status: 400 });
    return redirectWithToast(`/admin/guides/${guideId}#scenarios`, { type: "success", message: `The scenario “${name}” is added: every new version runs it before it is published.` });
  }
  if (intent === "delete-scenario") {
    const id = String(formData.get("scenarioId") ?? "");
    if (!/^[0-9a-f-]{36}$/.test(id) || !(await deleteScenario(actor, guideId, id))) notFound(request);
    return redirectWithToast(`/admin/guides/${guideId}#scenarios`, { type: "success", message: "The scenario is deleted." });
  }
  const submission = parseWithZod(formData, { schema: attachGuideSchema });
  if (submission.status !== "success") return invalid(submission);
  const attached = await attachGuide(actor, guideId, submission.value.issueId);
  if (!attached.ok) return data({ result: submission.reply({ fieldErrors: { issueId: [attached.message] } }) }, { status: 400 });
  return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `${attached.issueName} now runs this guide.` });
}

export default function GuidePage({ loaderData, actionData }: Route.ComponentProps) {
  const { guide, issues, choices, detaching, scenarios, expectationSyntax, givenBy, languages, originals, translations, original } = loaderData;
  const detachError = actionData && "detachError" in actionData ? actionData.detachError : null;
  const [form, fields] = useForm({
    id: "attach",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: attachGuideSchema }),
  });
  const errors = summaryErrors([fields.issueId, "Issue"]);
  const [scenarioForm, scenarioFields] = useForm({
    id: "scenario",
    lastResult: actionData && "scenario" in actionData ? actionData.scenario : undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: scenarioSchema }),
  });
  const [languageForm, languageFields] = useForm({
    // Not "language": the section's heading has that id, and the fields name their form by id.
    id: "guide-language",
    lastResult: actionData && "language" in actionData ? actionData.language : undefined,
    defaultValue: { language: guide.language, translationOf: guide.translationOf ?? "" },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: guideLanguageSchema }),
  });
  const languageErrors = summaryErrors([languageFields.language, "The guide's language"], [languageFields.translationOf, "The same interview as"]);
  const scenarioErrors = summaryErrors([scenarioFields.name, "Name"], [scenarioFields.answers, "Answer file"], [scenarioFields.expectations, "What must hold"]);
  return (
    <AdminPage
      title={guide.title}
      trail={[{ label: "Guides", href: "/admin/guides" }]}
      errors={Boolean(detachError) || showsErrors(errors, form.errors) || showsErrors(languageErrors, languageForm.errors) || showsErrors(scenarioErrors, scenarioForm.errors)}
    >
      {detachError ? <ErrorSummary errors={[]} formErrors={[detachError]} /> : null}
      {detaching && !detachError ? (
        <Confirmation
          title={`Detach this guide from ${detaching.name}?`}
          fields={{ intent: "detach", issueId: String(detaching.id) }}
          confirmLabel="Yes, detach"
          cancelHref={`/admin/guides/${guide.id}`}
          cancelLabel="No, keep it attached"
          danger
        >
          <p>
            {detaching.name} will have no interview: its page says the interview is not available yet, until you attach a guide again. Interviews people
            already started keep their answers, and completed ones their documents.
          </p>
        </Confirmation>
      ) : null}
      <dl className="summary-list">
        <dt>Id</dt>
        <dd>
          <code className="guide-id">{guide.id}</code>
        </dd>
        <dt>Language</dt>
        <dd>
          {languageName(guide.language)}
          {original ? (
            <>
              : the same interview as <a href={`/admin/guides/${original.id}`}>{original.title}</a>
            </>
          ) : null}
        </dd>
        {translations.length ? (
          <>
            <dt>In other languages</dt>
            <dd>
              <ul className="plain-list">
                {translations.map((translation) => (
                  <li key={translation.id}>
                    <a href={`/admin/guides/${translation.id}`}>{translation.title}</a> ({translation.language})
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        <dt>Published</dt>
        <dd>{guide.publishedVersion ? `Version ${guide.publishedVersion}` : "No version is published yet."}</dd>
        <dt>Issues using it</dt>
        <dd>
          {issues.length ? (
            <ul className="plain-list">
              {issues.map((issue) => (
                <li key={issue.id}>
                  {issue.name}{" "}
                  <a className="action-link" href={`/admin/guides/${guide.id}?detach=${issue.id}#confirm`}>
                    Detach<span className="visually-hidden"> from {issue.name}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            "None"
          )}
        </dd>
      </dl>
      {guide.publishedVersion ? (
        <p>
          <a href={`/preview/${guide.id}`}>Preview the published version</a>
        </p>
      ) : null}

      <h2>Attach to an issue</h2>
      {guide.publishedVersion ? (
        <>
          <p>The issue's new interviews run this guide's published version.</p>
          <ErrorSummary errors={errors} formErrors={form.errors} />
          <Form method="post" {...getFormProps(form)} noValidate className="form">
            <SelectField field={fields.issueId} label="Issue" options={[{ value: "", label: "Choose an issue" }, ...choices]} />
            <button type="submit" className="button">
              Attach
            </button>
          </Form>
        </>
      ) : (
        <p>Publish a version first.</p>
      )}

      <h2 id="language">Language</h2>
      <p>
        A guide is in the language its A2J file names, unless you say otherwise here. A guide that is the same interview as another guide, in
        another language, runs for people who read its language wherever the other guide runs; everyone else gets the other guide, with a
        note saying which language it is in. An interview keeps the language it started in.
      </p>
      <ErrorSummary errors={languageErrors} formErrors={languageForm.errors} />
      <Form method="post" {...getFormProps(languageForm)} noValidate className="form">
        <input type="hidden" name="intent" value="language" />
        <SelectField field={languageFields.language} label="The guide's language" options={languages} />
        <SelectField
          field={languageFields.translationOf}
          label="The same interview as"
          hint="Choose the guide this one translates, or none."
          required={false}
          options={[{ value: "", label: "None: this guide is not a translation" }, ...originals]}
        />
        <button type="submit" className="button">
          Save the language
        </button>
      </Form>

      <h2 id="scenarios">Test scenarios</h2>
      <p>
        A scenario is a set of answers (an ANX or JSON answer file, such as a finished interview's answers downloaded from A2J Author or from My
        interviews) and what must hold when they are given to the guide. Every new version runs every scenario before it is published; a version
        with a failing scenario is published only when you confirm it. A person who finishes an interview may also give a copy of their answers
        (on its Your answers page), without anything they typed in their own words: it is added here by “{givenBy}”, and
        must end where their interview ended.
      </p>
      {scenarios.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">Test scenarios of {guide.title}</caption>
            <thead>
              <tr>
                <th scope="col">Scenario</th>
                <th scope="col">What must hold</th>
                <th scope="col">Added by</th>
                <th scope="col">Delete</th>
              </tr>
            </thead>
            <tbody>
              {scenarios.map((scenario) => (
                <tr key={scenario.id}>
                  <td>
                    {scenario.name} ({scenario.answersFormat === "anx" ? "ANX" : "JSON"} answers)
                  </td>
                  <td>
                    <ul className="report-warnings">
                      {scenario.expectations
                        .split(/\r?\n/)
                        .filter((line) => line.trim() && !line.trim().startsWith("#"))
                        .map((line, i) => (
                          <li key={i}>{line.trim()}</li>
                        ))}
                    </ul>
                  </td>
                  <td>{scenario.createdByEmail}</td>
                  <td>
                    <form method="post">
                      <input type="hidden" name="intent" value="delete-scenario" />
                      <input type="hidden" name="scenarioId" value={scenario.id} />
                      <button type="submit" className="button button--secondary" aria-label={`Delete the scenario ${scenario.name}`}>
                        Delete
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>This guide has no test scenarios yet.</p>
      )}
      <h3>Add a scenario</h3>
      <ErrorSummary errors={scenarioErrors} formErrors={scenarioForm.errors} />
      <Form method="post" encType="multipart/form-data" {...getFormProps(scenarioForm)} noValidate className="form">
        <input type="hidden" name="intent" value="add-scenario" />
        <TextField field={scenarioFields.name} label="Name" autoComplete="off" />
        <FileField field={scenarioFields.answers} label="Answer file" hint="An ANX answer file or A2J's JSON answers." accept=".anx,.xml,.json,application/xml,application/json" />
        <TextAreaField
          field={scenarioFields.expectations}
          label="What must hold"
          rows={5}
          hint={<>One expectation a line: {expectationSyntax}. For example: outcome: ASSEMBLE-SUCCESS</>}
        />
        <button type="submit" className="button">
          Add the scenario
        </button>
      </Form>

      <h2>History</h2>
      <div className="table-scroll table-scroll--wide">
        <table className="data-table">
          <caption className="visually-hidden">Every version of {guide.title}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Title</th>
              <th scope="col">Uploaded by</th>
              <th scope="col">
                Uploaded (<AdminTimeZoneName />)
              </th>
              <th scope="col">State</th>
              <th scope="col">Warnings</th>
            </tr>
          </thead>
          <tbody>
            {guide.versions.map((version) => (
              <tr key={version.version}>
                <td>
                  <a href={`/admin/guides/${guide.id}/versions/${version.version}`}>Version {version.version}</a>
                </td>
                <td>{version.title}</td>
                <td>{version.uploadedByEmail}</td>
                <td>
                  <AdminTime at={version.uploadedAt} />
                </td>
                <td>
                  <VersionState version={version} />
                </td>
                <td>{version.report.warnings.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AdminPage>
  );
}
