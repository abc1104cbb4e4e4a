import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { attachGuide, detachGuide, guideFromParams } from "~/administration/guides.server";
import { attachGuideSchema } from "~/administration/schemas";
import { invalid } from "~/auth/form-replies.server";
import { listCountries } from "~/content/content.server";
import { listGuides, listGuideVersions } from "~/guides/guides.server";
import { notFound } from "~/http.server";
import { ErrorSummary, SelectField, showsErrors, summaryErrors } from "~/ui/form";
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
  const choices = countries.flatMap((country) => country.issues.map((issue) => ({ value: String(issue.id), label: `${country.name}: ${issue.name}` })));
  // "Detach" asks first: ?detach=<issue id> shows the question for an issue that runs this guide.
  const asked = Number(new URL(request.url).searchParams.get("detach"));
  return { guide, issues, choices, detaching: issues.find((issue) => issue.id === asked) ?? null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { guideId } = guideFromParams(request, params);
  const form = await request.formData();
  if (form.get("intent") === "detach") {
    const issueId = Number(form.get("issueId"));
    // Only the confirmation's form detaches; anything else is asked again.
    if (!confirmed(form)) return redirect(`/admin/guides/${guideId}?detach=${Number.isSafeInteger(issueId) ? issueId : ""}#confirm`);
    const detached = await detachGuide(actor, guideId, issueId);
    if (!detached.ok) return data({ result: null, detachError: detached.message }, { status: 409 });
    return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `${detached.issueName} no longer runs this guide.` });
  }
  const submission = parseWithZod(form, { schema: attachGuideSchema });
  if (submission.status !== "success") return invalid(submission);
  const attached = await attachGuide(actor, guideId, submission.value.issueId);
  if (!attached.ok) return data({ result: submission.reply({ fieldErrors: { issueId: [attached.message] } }) }, { status: 400 });
  return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `${attached.issueName} now runs this guide.` });
}

export default function GuidePage({ loaderData, actionData }: Route.ComponentProps) {
  const { guide, issues, choices, detaching } = loaderData;
  const detachError = actionData && "detachError" in actionData ? actionData.detachError : null;
  const [form, fields] = useForm({
    id: "attach",
    lastResult: actionData?.result ?? undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: attachGuideSchema }),
  });
  const errors = summaryErrors([fields.issueId, "Issue"]);
  return (
    <AdminPage title={guide.title} trail={[{ label: "Guides", href: "/admin/guides" }]} errors={Boolean(detachError) || showsErrors(errors, form.errors)}>
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
