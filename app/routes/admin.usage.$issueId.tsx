import { AdminPage } from "~/administration/admin-page";
import { notFound } from "~/http.server";
import { monthName, USAGE_SERIES, UsageChart, UsageLanguageTable, UsageMonthTable, UsageTable } from "~/usage/usage-chart";
import { ABANDONED_AFTER_DAYS, STOP_PAGE_MIN_COUNT, type StopPage } from "~/usage/usage";
import { issueUsage } from "~/usage/usage.server";
import type { Route } from "./+types/admin.usage.$issueId";

export async function loader({ request, params }: Route.LoaderArgs) {
  const issueId = /^[1-9]\d{0,8}$/.test(params.issueId) ? Number(params.issueId) : null;
  const usage = issueId === null ? null : await issueUsage(issueId);
  if (!usage) notFound(request);
  return { usage };
}

/** What a stop page row says in its first cell. */
function stopPageName(stop: StopPage): string {
  switch (stop.kind) {
    case "page":
      return stop.page;
    case "check-answers":
      return "Check your answers";
    case "others":
      return `Other pages (${stop.pages}), each with fewer than ${STOP_PAGE_MIN_COUNT}`;
    case "retired":
      return "Pages no longer in the guide (an earlier version)";
    case "unrecorded":
      return "Not recorded (interviews saved before usage was counted)";
  }
}

export default function IssueUsagePage({ loaderData }: Route.ComponentProps) {
  const { usage } = loaderData;
  const months = usage.months;
  const range = `${monthName(months[0]!.month)} to ${monthName(months.at(-1)!.month)}`;
  return (
    <AdminPage title={`Usage: ${usage.issueName}`}>
      <p>
        <a href="/admin/usage">All issues</a>
      </p>
      <p>
        {usage.countryName}. Since the service began: counts only, nothing about who. An interview is abandoned when it was not finished and has not
        changed for {ABANDONED_AFTER_DAYS} days, or was deleted unfinished; it counts in the month of its last change.
      </p>
      <dl className="usage-totals">
        {USAGE_SERIES.map((series) => (
          <div key={series.key}>
            <dt>{series.label}</dt>
            <dd>{usage.totals[series.key]}</dd>
          </div>
        ))}
      </dl>

      <h2>By month</h2>
      <p>The last 12 months, {range}. The chart shows the numbers of the table below it.</p>
      <UsageChart months={months} />
      <UsageMonthTable months={months} caption={`Interviews and downloads by month, ${range}`} />

      <h2>By language</h2>
      <p>The language each interview ran in: its guide's, chosen by the person's language when the issue has a guide in it.</p>
      <UsageLanguageTable languages={usage.languages} caption="Interviews and downloads by language" />

      <h2>Where people stop</h2>
      <p>
        The page each unfinished interview is on, or was on when it was deleted: {usage.unfinished} in all. A page is named only when at least{" "}
        {STOP_PAGE_MIN_COUNT} interviews stopped there, so that no page points at the few people behind it.
      </p>
      {usage.stopPages.length ? (
        <UsageTable label={"Unfinished interviews by the page they stopped on"}>
          <caption className="visually-hidden">Unfinished interviews by the page they stopped on, most first</caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col" className="number">
                Interviews that stopped here
              </th>
            </tr>
          </thead>
          <tbody>
            {usage.stopPages.map((stop) => (
              <tr key={stop.kind === "page" ? `page:${stop.page}` : stop.kind}>
                <th scope="row">{stopPageName(stop)}</th>
                <td className="number">{stop.count ?? `Fewer than ${STOP_PAGE_MIN_COUNT}`}</td>
              </tr>
            ))}
          </tbody>
        </UsageTable>
      ) : (
        <p>No unfinished interviews.</p>
      )}
    </AdminPage>
  );
}
