import { AdminPage } from "~/administration/admin-page";
import { USAGE_SERIES, UsageLanguageTable, UsageTable } from "~/usage/usage-chart";
import { ABANDONED_AFTER_DAYS } from "~/usage/usage";
import { usageOfAllIssues } from "~/usage/usage.server";
import type { Route } from "./+types/admin.usage";

export async function loader() {
  return usageOfAllIssues();
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  const { issues, languages } = loaderData;
  return (
    <AdminPage title="Usage">
      <p>
        How many interviews people started, completed and abandoned on each issue, how many documents they downloaded, and how many documents everyone signed, since the service began. An
        interview is abandoned when it was not finished and has not changed for {ABANDONED_AFTER_DAYS} days, or was deleted unfinished. Choose an
        issue to see its months and the pages where people stop.
      </p>
      {issues.length ? (
        <UsageTable label={"Interviews and downloads by issue"}>
          <caption className="visually-hidden">Interviews and downloads by issue</caption>
          <thead>
            <tr>
              <th scope="col">Issue</th>
              <th scope="col">Country</th>
              {USAGE_SERIES.map((series) => (
                <th scope="col" key={series.key} className="number">
                  {series.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {issues.map((issue) => (
              <tr key={issue.issueId}>
                <th scope="row">
                  <a href={`/admin/usage/${issue.issueId}`}>{issue.issueName}</a>
                </th>
                <td>{issue.countryName}</td>
                {USAGE_SERIES.map((series) => (
                  <td key={series.key} className="number">
                    {issue[series.key]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </UsageTable>
      ) : (
        <p>There are no issues yet.</p>
      )}
      {languages.length ? (
        <>
          <h2>By language</h2>
          <p>Every issue together, by the language each interview ran in.</p>
          <UsageLanguageTable languages={languages} caption="Interviews and downloads by language" />
        </>
      ) : null}
    </AdminPage>
  );
}
