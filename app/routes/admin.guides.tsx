import { languageName } from "~/guides/guide-language";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { uploadGuide } from "~/administration/guides.server";
import { guideUploadSchema } from "~/administration/schemas";
import { invalid } from "~/auth/form-replies.server";
import { checkVersion, scenarioRuns } from "~/guide-checks/checks.server";
import { listGuides } from "~/guides/guides.server";
import { HEALTH_CHECK_SECONDS } from "~/guide-checks/health.server";
import { MAX_GUIDE_MEDIA_BYTES } from "~/guides/import.server";
import { MAX_FILE_BYTES } from "~/security/request-guard.server";
import { ErrorSummary, FileField, SelectField, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.guides";

export async function loader() {
  return { guides: await listGuides(), uploadLimitMb: MAX_FILE_BYTES / 1024 / 1024, mediaLimitMb: MAX_GUIDE_MEDIA_BYTES / 1024 / 1024, healthCheckSeconds: HEALTH_CHECK_SECONDS };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const submission = parseWithZod(await request.formData(), { schema: guideUploadSchema });
  if (submission.status !== "success") return invalid(submission);
  const { existing, guideId, file } = submission.value;
  const target = existing ? { kind: "version" as const, guideId: existing } : { kind: "new" as const, guideId: guideId ?? "" };
  const uploaded = await uploadGuide(actor, target, file);
  if (!uploaded.ok) {
    return data({ result: submission.reply({ fieldErrors: { [uploaded.field]: [uploaded.message] } }) }, { status: 400 });
  }
  const { guideId: id, version } = uploaded.pin;
  // Before anything else sees it: the health check of every path, and the guide's test scenarios.
  await checkVersion(uploaded.pin);
  await scenarioRuns(uploaded.pin);
  return redirectWithToast(`/admin/guides/${id}/versions/${version}`, {
    type: "success",
    message: `Version ${version} of ${id} is uploaded. Check its reports, then publish it.`,
  });
}

export default function Guides({ loaderData, actionData }: Route.ComponentProps) {
  const { guides, uploadLimitMb, mediaLimitMb, healthCheckSeconds } = loaderData;
  const [form, fields] = useForm({
    id: "upload",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: guideUploadSchema }),
  });
  const errors = summaryErrors([fields.existing, "A new version of"], [fields.guideId, "New guide id"], [fields.file, "Guide file"]);
  return (
    <AdminPage title="Guides" errors={showsErrors(errors, form.errors)}>
      <p>The interview guides the service runs. New interviews run a guide's published version; interviews already started keep the version they started on.</p>
      {guides.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">Guides</caption>
            <thead>
              <tr>
                <th scope="col">Guide</th>
                <th scope="col">Id</th>
                <th scope="col">Language</th>
                <th scope="col">Published</th>
                <th scope="col">Issues using it</th>
              </tr>
            </thead>
            <tbody>
              {guides.map((guide) => (
                <tr key={guide.id}>
                  <td>
                    <a href={`/admin/guides/${guide.id}`}>{guide.title}</a>
                  </td>
                  <td>
                    <code className="guide-id">{guide.id}</code>
                  </td>
                  <td>
                    {languageName(guide.language)}
                    {guide.translationOf ? (
                      <>
                        {" "}
                        (translates <code className="guide-id">{guide.translationOf}</code>)
                      </>
                    ) : null}
                  </td>
                  <td>
                    {guide.publishedVersion ? `Version ${guide.publishedVersion}` : "Not published"}
                    {guide.pendingVersion ? (
                      <>
                        {" "}
                        (<a href={`/admin/guides/${guide.id}/versions/${guide.pendingVersion}`}>version {guide.pendingVersion} waiting</a>)
                      </>
                    ) : null}
                  </td>
                  <td>{guide.issues.length ? guide.issues.map((issue) => issue.name).join(", ") : "None"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>There are no guides yet.</p>
      )}

      <h2>Upload a guide</h2>
      <p>
        A published guide zip (Guide.json or Guide.xml with its templates, PDFs, pick lists and media), or a single Guide.json, Guide.xml or A2J 4 guide
        file, under {uploadLimitMb} MB. Nothing changes until you publish it: first you see its import report, a health check of every path
        through it (up to {healthCheckSeconds} seconds), and how the guide's test scenarios fare. Media files over {mediaLimitMb} MB are reported.
      </p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate className="form">
        <SelectField
          field={fields.existing}
          label="A new version of"
          required={false}
          options={[{ value: "", label: "No guide: a new guide" }, ...guides.map((guide) => ({ value: guide.id, label: `${guide.title} (${guide.id})` }))]}
        />
        <TextField field={fields.guideId} label="New guide id" required={false} autoComplete="off" hint="For a new guide only: lower-case letters, digits and dashes, for example tenancy-deposit." />
        <FileField field={fields.file} label="Guide file" accept=".zip,.json,.xml,.a2j,application/zip,application/json,application/xml" />
        <button type="submit" className="button">
          Upload
        </button>
      </Form>
    </AdminPage>
  );
}
