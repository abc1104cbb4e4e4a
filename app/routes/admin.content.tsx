import { AdminPage } from "~/administration/admin-page";
import { listCountries } from "~/content/content.server";
import { itemHref, pageTitles } from "~/content/items";
import { unpublishedItems } from "~/content/versions.server";
import type { Route } from "./+types/admin.content";

export async function loader() {
  const [countries, drafts] = await Promise.all([listCountries(), unpublishedItems()]);
  return { countries, drafts };
}

export default function ContentIndex({ loaderData }: Route.ComponentProps) {
  const { countries, drafts } = loaderData;
  return (
    <AdminPage title="Content">
      <p>Every save is a version: drafts stay off the public pages until published, and each item has a history you can compare and restore.</p>
      <h2>Pages</h2>
      <ul className="link-list">
        {Object.entries(pageTitles).map(([key, title]) => (
          <li key={key}>
            <a href={itemHref(key === "home" ? "home" : "legal", key)}>{title}</a>
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
          {country.issues.length ? (
            <ul>
              {country.issues.map((issue) => (
                <li key={issue.id}>
                  <a href={itemHref("issue", String(issue.id))}>{issue.name}</a>
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
