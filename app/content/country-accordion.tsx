import type { CountrySummary } from "./content.server";

/**
 * Countries and their issues. `<details name>` makes the group exclusive in the browser itself: opening one
 * closes the other and clicking the open one closes it, with no script.
 */
export function CountryAccordion({
  countries,
  openCountryId,
}: {
  countries: CountrySummary[];
  openCountryId: number | null;
}) {
  return (
    <section className="countries" aria-labelledby="countries-title">
      <h2 id="countries-title">Choose your country</h2>
      {countries.length === 0 ? <p>No countries are available yet. Please try again later.</p> : null}
      <div className="accordion">
        {countries.map((country) => (
          <details
            key={country.id}
            name="countries"
            className="accordion__item"
            open={country.id === openCountryId}
            data-country-id={country.id}
          >
            <summary className="accordion__summary">
              <span>{country.name}</span>
              <Chevron />
            </summary>
            <div className="accordion__panel">
              {country.issues.length === 0 ? (
                <p className="accordion__empty">No issues for this country yet.</p>
              ) : (
                <ul className="issue-list" aria-label={`Issues in ${country.name}`}>
                  {country.issues.map((issue) => (
                    <li key={issue.id}>
                      <a className="issue-list__link" href={`/issues/${issue.id}`}>
                        <span>{issue.name}</span>
                        <Arrow />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}

function Chevron() {
  return (
    <svg className="accordion__chevron" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M7 10l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function Arrow() {
  return (
    <svg className="issue-list__arrow" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M5 12h14M13 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
