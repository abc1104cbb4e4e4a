import { AdminPage } from "~/administration/admin-page";
import { itemFromUrl, itemHref, itemTitle } from "~/content/items";
import { VersionTime, authorName, statusNames } from "~/content/version-views";
import { history, loadItem } from "~/content/versions.server";
import { notFound } from "~/http.server";
import type { Route } from "./+types/admin.content.$section.$key.history";

export async function loader({ request, params }: Route.LoaderArgs) {
  const item = itemFromUrl(params.section, params.key);
  if (!item?.key) notFound(request);
  const versions = await history(item.kind, item.key);
  const { body } = await loadItem(item.kind, item.key);
  if (!versions.length && !body) notFound(request);
  const name = versions[0]?.body && "name" in versions[0].body ? versions[0].body.name : null;
  return {
    title: `History: ${itemTitle(item.kind, item.key, name)}`,
    editHref: body ? itemHref(item.kind, item.key) : null,
    base: itemHref(item.kind, item.key),
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
