import { pageTitle } from "./page-title";

export function NotFound({ backHref }: { backHref: string }) {
  return (
    <div className="page page--narrow not-found">
      <title>{pageTitle("Page not found")}</title>
      <h1>Sorry, we couldn&apos;t find this page.</h1>
      <p className="button-row">
        <a className="button button--secondary" href={backHref}>
          Back
        </a>
        <a className="button" href="/">
          Go to homepage
        </a>
      </p>
    </div>
  );
}
