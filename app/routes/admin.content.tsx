import { AdminPage } from "~/administration/admin-page";
import { listCountries } from "~/content/content.server";
import { itemHref, pageTitles } from "~/content/items";
import { type ItemStatus, itemStatuses, unpublishedItems } from "~/content/versions.server";
import { AdminTime } from "~/ui/admin-lists";
import type { Route } from "./+types/admin.content";

export async function loader() {
  const [countries, drafts, statuses] = await Promise.all([listCountries(), unpublishedItems(), itemStatuses()]);
  return { countries, drafts, statuses };
}

export default function ContentIndex({ loaderData }: Route.ComponentProps) {
  const { countries, drafts, statuses } = loaderData;
  const status = (id: string) => <Status status={statuses[id]} />;
  return (
    <AdminPage title="Content">
      <p>Every save is a version: drafts stay off the public pages until published, and each item has a history you can compare and restore.</p>
      <h2>Pages</h2>
      <ul className="link-list">
        {Object.entries(pageTitles).map(([key, title]) => (
          <li key={key}>
            <a href={itemHref(key === "home" ? "home" : "legal", key)}>{title}</a>
            {status(key === "home" ? "home:home" : `legal:${key}`)}
          </li>
        ))}
      </ul>
      <h2>Countries and issues</h2>
      <p className="button-row">
        <a className="button button--secondary" href="/admin/content/countries/new">
          Add a country
        </a>
        <a className="button button--secondary" href="/admin/content/issues/new">
          Add an issue
        </a>
      </p>
      {countries.map((country) => (
        <section key={country.id} aria-labelledby={`country-${country.id}`}>
          <h3 id={`country-${country.id}`}>
            <a href={itemHref("country", String(country.id))}>{country.name}</a>
          </h3>
          {status(`country:${country.id}`)}
          {country.issues.length ? (
            <ul>
              {country.issues.map((issue) => (
                <li key={issue.id}>
                  <a href={itemHref("issue", String(issue.id))}>{issue.name}</a>
                  {status(`issue:${issue.id}`)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No issues yet.</p>
          )}
          <p>
            <a href={`/admin/content/issues/new?country=${country.id}`}>
              Add an issue<span className="visually-hidden"> in {country.name}</span>
            </a>
          </p>
        </section>
      ))}
      {drafts.length ? (
        <>
          <h2>New, not yet published</h2>
          <ul>
            {drafts.map((draft) => (
              <li key={`${draft.kind}-${draft.key}`}>
                <a href={itemHref(draft.kind, draft.key)}>{draft.name}</a> ({draft.kind === "country" ? "country" : "issue"}, draft)
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </AdminPage>
  );
}

/** Where an item stands, in words: a draft waiting to be published, and when it was last published. */
function Status({ status }: { status: ItemStatus | undefined }) {
  return (
    <span className="content-status">
      {status?.draftPending ? <strong className="content-status__draft">Draft waiting to be published. </strong> : null}
      {status?.lastPublished ? (
        <>
          Last published <AdminTime at={status.lastPublished} />
        </>
      ) : (
        "Published as loaded, never changed"
      )}
    </span>
  );
}
