import { findLanguage } from "~/i18n/languages";
import { AdminPage } from "~/administration/admin-page";
import { sourcesTrail } from "~/sources/schemas";
import { notFound, parseId } from "~/http.server";
import { getSource } from "~/sources/sources.server";
import type { Route } from "./+types/admin.sources.$sourceId";

export async function loader({ request, params }: Route.LoaderArgs) {
  const id = parseId(params.sourceId);
  const source = id === null ? null : await getSource(id);
  if (!source) notFound(request);
  return { source };
}

export default function Source({ loaderData: { source } }: Route.ComponentProps) {
  return (
    <AdminPage title={source.title} trail={sourcesTrail}>
      <dl className="summary-list">
        <dt>Public link</dt>
        <dd>
          <a href={source.url} rel="noopener noreferrer">
            {source.url}
          </a>
        </dd>
        <dt>For</dt>
        <dd>
          {source.countryName}: {source.issueName ?? "every issue"}
        </dd>
        <dt>Language</dt>
        <dd>{findLanguage(source.language)?.englishName ?? source.language}</dd>
        {source.fileName ? (
          <>
            <dt>File</dt>
            <dd>{source.fileName}</dd>
          </>
        ) : null}
      </dl>
      <p className="actions">
        <a href="/admin/sources">All sources</a>
        <a href={`/admin/sources/${source.id}/edit`}>Edit this source</a>
        <a href={`/admin/sources/${source.id}/delete`}>Delete this source</a>
      </p>
      <h2>Passages ({source.passageList.length})</h2>
      <ol className="passage-list" lang={source.language === "en" ? undefined : source.language} dir={source.language === "en" ? undefined : "auto"}>
        {source.passageList.map((passage) => (
          <li key={passage.id} className="passage">
            {passage.heading || passage.page ? (
              <h3 className="passage__heading">
                {passage.heading ?? ""}
                {passage.heading && passage.page ? ", " : ""}
                {passage.page ? `page ${passage.page}` : ""}
              </h3>
            ) : null}
            {passage.text.split("\n\n").map((paragraph, index) => (
              <p key={index}>{paragraph}</p>
            ))}
          </li>
        ))}
      </ol>
    </AdminPage>
  );
}
