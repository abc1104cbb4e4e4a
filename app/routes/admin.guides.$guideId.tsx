import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { attachGuide, guideFromParams } from "~/administration/guides.server";
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
  return { guide, issues, choices };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { guideId } = guideFromParams(request, params);
  const submission = parseWithZod(await request.formData(), { schema: attachGuideSchema });
  if (submission.status !== "success") return invalid(submission);
  const attached = await attachGuide(actor, guideId, submission.value.issueId);
  if (!attached.ok) return data({ result: submission.reply({ fieldErrors: { issueId: [attached.message] } }) }, { status: 400 });
  return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `${attached.issueName} now runs this guide.` });
}

export default function GuidePage({ loaderData, actionData }: Route.ComponentProps) {
  const { guide, issues, choices } = loaderData;
  const [form, fields] = useForm({
    id: "attach",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: attachGuideSchema }),
  });
  const errors = summaryErrors([fields.issueId, "Issue"]);
  return (
    <AdminPage title={guide.title} trail={[{ label: "Guides", href: "/admin/guides" }]} errors={showsErrors(errors, form.errors)}>
      <dl className="summary-list">
        <dt>Id</dt>
        <dd>{guide.id}</dd>
        <dt>Published</dt>
        <dd>{guide.publishedVersion ? `Version ${guide.publishedVersion}` : "No version is published yet."}</dd>
        <dt>Issues using it</dt>
        <dd>{issues.length ? issues.map((issue) => issue.name).join(", ") : "None"}</dd>
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
