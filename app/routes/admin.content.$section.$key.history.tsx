import { AdminPage } from "~/administration/admin-page";
import { nameIn, versionedFromUrl } from "~/content/items";
import { VersionTime, authorName, statusNames } from "~/content/version-views";
import { history, itemExists, loadItem } from "~/content/versions.server";
import { notFound } from "~/http.server";
import type { Route } from "./+types/admin.content.$section.$key.history";

// Also an item's history in another language (…/in/:language/history) and the interface's words' in one
// (/admin/content/words/:language/history).
export async function loader({ request, params }: Route.LoaderArgs) {
  const item = versionedFromUrl(params);
  if (!item) notFound(request);
  const versions = await history(item.kind, item.key);
  const editable = await itemExists(item.kind, item.key);
  if (!versions.length && !editable) notFound(request);
  // A translation is named by its item's name in the default language, as its edit page is.
  const named = item.item ? (await loadItem(item.item.kind, item.item.key)).body : versions[0]?.body;
  return {
    title: `History: ${item.title(nameIn(named))}`,
    editHref: editable ? item.href : null,
    base: item.href,
    versions: versions.map((v) => ({ version: v.version, status: statusNames[v.status], author: authorName(v), createdAt: v.createdAt, published: v.published })),
  };
}

export default function ContentHistory({ loaderData }: Route.ComponentProps) {
  const { title, editHref, base, versions } = loaderData;
  return (
    <AdminPage title={title}>
      <p className="button-row">
        <a href="/admin/content">All content</a>
        {editHref ? <a href={editHref}>Edit</a> : null}
      </p>
      {versions.length ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">Versions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Status</th>
                <th scope="col">Who</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr key={v.version}>
                  <td>
                    <a href={`${base}/versions/${v.version}`}>
                      Version {v.version}
                      <span className="visually-hidden">: changes and restore</span>
                    </a>
                  </td>
                  <td>{v.published ? "Published (saved as a draft first)" : v.status}</td>
                  <td>{v.published ? `${v.author}; published by ${v.published.byEmail}` : v.author}</td>
                  <td>
                    <VersionTime at={v.createdAt} />
                    {v.published ? (
                      <>
                        ; published <VersionTime at={v.published.at} />
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No changes have been saved yet: the content is as it was loaded.</p>
      )}
    </AdminPage>
  );
}
