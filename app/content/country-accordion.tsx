import { useT } from "~/i18n/react";
import type { CountrySummary } from "./content.server";
import { theirs } from "./language";

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
  const t = useT();
  return (
    <section className="countries" aria-labelledby="countries-title">
      <h2 id="countries-title">{t.t("public.home.chooseCountry")}</h2>
      {countries.length === 0 ? <p>{t.t("public.home.noCountries")}</p> : null}
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
              <span {...theirs(t, country.lang.name)}>{country.name}</span>
              <Chevron />
            </summary>
            <div className="accordion__panel">
              {country.issues.length === 0 ? (
                <p className="accordion__empty">{t.t("public.home.noIssues")}</p>
              ) : (
                <ul className="issue-list" aria-label={t.t("public.home.issuesIn", { country: country.name })}>
                  {country.issues.map((issue) => (
                    <li key={issue.id}>
                      <a className="issue-list__link" href={`/issues/${issue.id}`}>
                        <span {...theirs(t, issue.lang.name)}>{issue.name}</span>
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
