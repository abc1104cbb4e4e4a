import { data } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { VersionState } from "~/administration/guide-version-state";
import { AdminTime, AdminTimeZoneName } from "~/ui/admin-lists";
import { discardUpload, guideFromParams, publishUpload } from "~/administration/guides.server";
import { findGuideVersion, type GuideWarningKind } from "~/guides/guides.server";
import { notFound } from "~/http.server";
import { ErrorSummary } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.guides.$guideId.versions.$version";

/** The report's groups, in the order an author would fix them. */
const warningGroups: { kind: GuideWarningKind; title: string }[] = [
  { kind: "script", title: "Script errors" },
  { kind: "function", title: "Unknown functions" },
  { kind: "pick-list", title: "Pick lists" },
  { kind: "template", title: "Templates" },
  { kind: "media", title: "Media too large" },
  { kind: "guide", title: "Other problems in the guide" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const { guideId, version } = guideFromParams(request, params);
  const found = await findGuideVersion({ guideId, version: version! });
  if (!found) notFound(request);
  return found;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { guideId, version } = guideFromParams(request, params);
  const pin = { guideId, version: version! };
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "publish") {
    if (await publishUpload(actor, pin)) {
      return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `Version ${pin.version} is published: new interviews run it.` });
    }
  } else if (intent === "discard") {
    if (await discardUpload(actor, pin)) {
      return redirectWithToast("/admin/guides", { type: "success", message: `Version ${pin.version} of ${guideId} is discarded.` });
    }
  }
  if (!(await findGuideVersion(pin))) notFound(request);
  return data({ error: "This version is not waiting to be published any more: nothing was changed." }, { status: 409 });
}

export default function GuideVersionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { guide, version } = loaderData;
  const { report } = version;
  const pending = !version.publishedAt && !version.discardedAt;
  const base = `/admin/guides/${guide.id}/versions/${version.version}`;
  return (
    <AdminPage
      title={`${version.title}, version ${version.version}`}
      trail={[
        { label: "Guides", href: "/admin/guides" },
        { label: guide.title, href: `/admin/guides/${guide.id}` },
      ]}
      errors={Boolean(actionData?.error)}
    >
      {actionData?.error ? <ErrorSummary errors={[]} formErrors={[actionData.error]} /> : null}
      <dl className="summary-list">
        <dt>Guide</dt>
        <dd>
          <code className="guide-id">{guide.id}</code>
        </dd>
        <dt>State</dt>
        <dd>
          <VersionState version={version} />
        </dd>
        <dt>Uploaded by</dt>
        <dd>{version.uploadedByEmail}</dd>
        <dt>
          Uploaded (<AdminTimeZoneName />)
        </dt>
        <dd>
          <AdminTime at={version.uploadedAt} />
        </dd>
      </dl>

      <h2>Import report</h2>
      <dl className="summary-list">
        <dt>Pages</dt>
        <dd>{report.pages}</dd>
        <dt>Variables</dt>
        <dd>{report.variables}</dd>
        <dt>Templates</dt>
        <dd>{report.templates.length ? report.templates.join(", ") : "None"}</dd>
        <dt>Other files</dt>
        <dd>{report.files}</dd>
      </dl>
      {report.warnings.length ? (
        <>
          <h3>
            {report.warnings.length} {report.warnings.length === 1 ? "warning" : "warnings"}
          </h3>
          {warningGroups.map(({ kind, title }) => {
            const warnings = report.warnings.filter((w) => w.kind === kind);
            return warnings.length ? (
              <section key={kind} aria-labelledby={`warnings-${kind}`}>
                <h4 id={`warnings-${kind}`}>{title}</h4>
                <ul className="report-warnings">
                  {warnings.map((warning, i) => (
                    <li key={i}>{warning.message}</li>
                  ))}
                </ul>
              </section>
            ) : null;
          })}
        </>
      ) : (
        <p>No warnings.</p>
      )}

      {version.discardedAt ? null : (
        <p className="button-row">
          <a className="button button--secondary" href={`/preview/${guide.id}?version=${version.version}`}>
            Preview version {version.version}
          </a>
          <a className="button button--secondary" href={`${base}/download`} download>
            Download version {version.version} as a zip
          </a>
        </p>
      )}
      {pending ? (
        <>
          <h2>Publish</h2>
          <p>
            Publishing makes version {version.version} the one new interviews run. Interviews already started keep the version they started on.
          </p>
          <div className="button-row">
            <form method="post">
              <input type="hidden" name="intent" value="publish" />
              <button type="submit" className="button">
                Publish
              </button>
            </form>
            <form method="post">
              <input type="hidden" name="intent" value="discard" />
              <button type="submit" className="button button--secondary">
                Discard
              </button>
            </form>
          </div>
        </>
      ) : null}
    </AdminPage>
  );
}
