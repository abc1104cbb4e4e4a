import { data, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { nameIn, versionedFromUrl } from "~/content/items";
import { DiffTable, VersionTime, authorName, statusNames } from "~/content/version-views";
import { loadItem, restoreVersion, versionWithDiff } from "~/content/versions.server";
import { notFound, parseId } from "~/http.server";
import { ErrorSummary } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.content.$section.$key.versions.$version";

// Also a version of an item in another language (…/in/:language/versions/:version) and of the interface's words
// in one (/admin/content/words/:language/versions/:version).
function versionOf(request: Request, params: Route.LoaderArgs["params"]) {
  const item = versionedFromUrl(params);
  const version = parseId(params.version);
  if (!item || version === null) notFound(request);
  return { item, kind: item.kind, key: item.key, version };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { item, kind, key, version } = versionOf(request, params);
  const compared = await versionWithDiff(kind, key, version);
  if (!compared) notFound(request);
  const named = item.item ? (await loadItem(item.item.kind, item.item.key)).body : compared.version.body;
  return {
    title: `${item.title(nameIn(named))}: version ${version}`,
    base: item.href,
    version: {
      number: version,
      status: statusNames[compared.version.status],
      author: authorName(compared.version),
      createdAt: compared.version.createdAt,
      published: compared.version.published,
      deleted: compared.version.status === "deleted",
    },
    previous: compared.previous?.version ?? null,
    lines: compared.lines,
    // "Restore this version" asks first (?confirm=restore).
    confirming: new URL(request.url).searchParams.get("confirm") === "restore",
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { item, kind, key, version } = versionOf(request, params);
  if (!confirmed(await request.formData())) return redirect(`${item.href}/versions/${version}?confirm=restore#confirm`);
  const restored = await restoreVersion(kind, key, version, actor);
  if (!restored.ok) return data({ error: restored.message }, { status: 409 });
  return redirectWithToast(`${item.href}/history`, { type: "success", message: `Version ${version} restored as version ${restored.version}, now on the public pages.` });
}

export default function ContentVersion({ loaderData, actionData }: Route.ComponentProps) {
  const { title, base, version, previous, lines, confirming } = loaderData;
  return (
    <AdminPage title={title} errors={Boolean(actionData?.error)}>
      <ErrorSummary errors={[]} formErrors={actionData?.error ? [actionData.error] : []} />
      {confirming && !version.deleted && !actionData?.error ? (
        <Confirmation
          title={`Restore version ${version.number}?`}
          fields={{}}
          confirmLabel="Yes, restore it"
          cancelHref={`${base}/versions/${version.number}`}
          cancelLabel="No, keep the current content"
        >
          <p>Its content becomes a new version and is published at once: the public pages show it from now on. The versions in between stay in the history.</p>
        </Confirmation>
      ) : null}
      <p className="button-row">
        <a href={`${base}/history`}>History of changes</a>
      </p>
      {version.published ? (
        <p>
          Saved as a draft by {version.author} on <VersionTime at={version.createdAt} />; published by {version.published.byEmail} on{" "}
          <VersionTime at={version.published.at} />.
        </p>
      ) : (
        <p>
          {version.status} by {version.author} on <VersionTime at={version.createdAt} />.
        </p>
      )}
      <DiffTable lines={lines} caption={previous ? `Changes from version ${previous} to version ${version.number}` : `Version ${version.number}, the first: every line is new`} />
      {version.deleted ? null : (
        <>
          <p className="muted">Restoring makes a new version with this content and publishes it.</p>
          <p>
            <a className="button" href={`${base}/versions/${version.number}?confirm=restore#confirm`}>
              Restore this version
            </a>
          </p>
        </>
      )}
    </AdminPage>
  );
}
