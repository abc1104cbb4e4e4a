import { AdminPage } from "~/administration/admin-page";
import { listSources, type SourceSummary } from "~/sources/sources.server";
import { AdminTime } from "~/ui/admin-lists";
import type { Route } from "./+types/admin.sources._index";

export async function loader() {
  const sources = await listSources();
  const countries: { name: string; sources: SourceSummary[] }[] = [];
  for (const source of sources) {
    const last = countries.at(-1);
    if (last?.name === source.countryName) last.sources.push(source);
    else countries.push({ name: source.countryName, sources: [source] });
  }
  return { countries };
}

export default function Sources({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Sources">
      <p>
        The organisation's own sources (legislation extracts, court guides, case summaries, fact sheets). "Understand my situation" answers only
        from their passages, and links to each source's public page.
      </p>
      <p>
        <a className="button" href="/admin/sources/new">
          Add a source
        </a>
      </p>
      {loaderData.countries.length ? null : <p>There are no sources yet.</p>}
      {loaderData.countries.map((country) => (
        <section key={country.name} aria-labelledby={`country-${country.sources[0]!.countryId}`}>
          <h2 id={`country-${country.sources[0]!.countryId}`}>{country.name}</h2>
          {/* A list, not a table: it reads the same on a phone, with no column squeezed to a letter a line. */}
          <ul className="link-list">
            {country.sources.map((source) => (
              <li key={source.id}>
                <a href={`/admin/sources/${source.id}`}>{source.title}</a>
                <p className="muted">
                  For {source.issueName ?? "every issue"} · {source.passages} passage{source.passages === 1 ? "" : "s"} · added{" "}
                  <AdminTime at={source.createdAt} dateOnly />
                </p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </AdminPage>
  );
}
