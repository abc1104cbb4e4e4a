import { data, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { itemFromUrl, itemHref, itemTitle } from "~/content/items";
import { DiffTable, VersionTime, authorName, statusNames } from "~/content/version-views";
import { restoreVersion, versionWithDiff } from "~/content/versions.server";
import { notFound, parseId } from "~/http.server";
import { ErrorSummary } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.content.$section.$key.versions.$version";

function versionOf(request: Request, params: Route.LoaderArgs["params"]) {
  const item = itemFromUrl(params.section, params.key);
  const version = parseId(params.version);
  if (!item?.key || version === null) notFound(request);
  return { kind: item.kind, key: item.key, version };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { kind, key, version } = versionOf(request, params);
  const compared = await versionWithDiff(kind, key, version);
  if (!compared) notFound(request);
  const name = "name" in compared.version.body ? compared.version.body.name : null;
  return {
    title: `${itemTitle(kind, key, name)}: version ${version}`,
    base: itemHref(kind, key),
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
  const { kind, key, version } = versionOf(request, params);
  if (!confirmed(await request.formData())) return redirect(`${itemHref(kind, key)}/versions/${version}?confirm=restore#confirm`);
  const restored = await restoreVersion(kind, key, version, actor);
  if (!restored.ok) return data({ error: restored.message }, { status: 409 });
  return redirectWithToast(`${itemHref(kind, key)}/history`, { type: "success", message: `Version ${version} restored as version ${restored.version}, now on the public pages.` });
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
