import type { ShareStatus } from "../../db/schema";
import { listCountries } from "~/content/content.server";
import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage, languageName, When } from "~/help/help-views";
import { limitsAllow } from "~/help/prepared.server";
import { deskRequests } from "~/help/shares.server";
import { deskWords, preparedWords } from "~/help/words";
import { parseId } from "~/http.server";
import type { Route } from "./+types/help._index";

const STATUSES: ShareStatus[] = ["new", "taken", "closed"];

// The requests for help a helper may see (their countries and issues), by status, country, issue and language.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { limits } = helperAtDesk(context, request);
  const query = new URL(request.url).searchParams;
  const countries = (await listCountries())
    .map((country) => ({ ...country, issues: country.issues.filter((issue) => limitsAllow(limits, { id: issue.id, countryId: country.id })) }))
    .filter((country) => country.issues.length > 0);
  const status = STATUSES.find((value) => value === query.get("status")) ?? "new";
  const countryId = parseId(query.get("country") ?? undefined);
  const issueId = parseId(query.get("issue") ?? undefined);
  const language = query.get("language")?.slice(0, 35) || null;
  const desk = await deskRequests(limits, { status, countryId, issueId, language });
  return { ...desk, countries, filters: { status, countryId, issueId, language } };
}

export default function HelpDesk({ loaderData }: Route.ComponentProps) {
  const { filters, requests, total, countries, languages } = loaderData;
  const statusName = deskWords.statuses[filters.status];
  return (
    <HelpDeskPage title={deskWords.title}>
      <ul className="link-list">
        <li>
          <a href="/help/prepared/new">{preparedWords.newTitle}</a>
        </li>
        <li>
          <a href="/help/prepared">{preparedWords.listTitle}</a>
        </li>
      </ul>
      <h2 id="requests-title">{deskWords.requests}</h2>
      <form method="get" action="/help" className="form help-filters" aria-labelledby="requests-title">
        <div className="field">
          <label className="field__label" htmlFor="filter-status">
            Status
          </label>
          <select id="filter-status" name="status" defaultValue={filters.status} className="field__input">
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {deskWords.statuses[status]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="filter-country">
            Country
          </label>
          <select id="filter-country" name="country" defaultValue={filters.countryId ?? ""} className="field__input">
            <option value="">{deskWords.allCountries}</option>
            {countries.map((country) => (
              <option key={country.id} value={country.id}>
                {country.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="filter-issue">
            Issue
          </label>
          <select id="filter-issue" name="issue" defaultValue={filters.issueId ?? ""} className="field__input">
            <option value="">{deskWords.allIssues}</option>
            {countries.map((country) => (
              <optgroup key={country.id} label={country.name}>
                {country.issues.map((issue) => (
                  <option key={issue.id} value={issue.id}>
                    {issue.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="filter-language">
            Language
          </label>
          <select id="filter-language" name="language" defaultValue={filters.language ?? ""} className="field__input">
            <option value="">{deskWords.allLanguages}</option>
            {languages.map((language) => (
              <option key={language} value={language}>
                {languageName(language)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--secondary">
          Show
        </button>
      </form>
      {requests.length ? (
        <>
          <p>
            {total} {statusName.toLowerCase()} {total === 1 ? "request" : "requests"}
            {total > requests.length ? `: the first ${requests.length} are shown, narrow them with the filters.` : "."}
          </p>
          <div className="table-scroll table-scroll--wide">
            <table className="data-table">
              <caption className="visually-hidden">
                {statusName} {deskWords.requests.toLowerCase()}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Issue</th>
                  <th scope="col">Country</th>
                  <th scope="col">Language</th>
                  <th scope="col">Shared until</th>
                  {filters.status === "new" ? null : <th scope="col">Helper</th>}
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {requests.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <When at={item.createdAt} withTime />
                    </td>
                    <td>{item.issueName}</td>
                    <td>{item.countryName}</td>
                    <td>{languageName(item.language)}</td>
                    <td>
                      <When at={item.expiresAt} />
                    </td>
                    {filters.status === "new" ? null : <td>{item.takenByName}</td>}
                    <td>
                      <a className="action-link" href={`/help/requests/${item.id}`}>
                        Open<span className="visually-hidden"> the request on {item.issueName}</span>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p>{deskWords.none(statusName)}</p>
      )}
    </HelpDeskPage>
  );
}
