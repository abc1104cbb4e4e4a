import { pageTitle } from "./page-title";

export function ErrorPage({ status }: { status: number }) {
  return (
    <div className="page page--narrow">
      <title>{pageTitle("Something went wrong")}</title>
      <h1>Sorry, something went wrong.</h1>
      <p>Please try again in a moment. If it keeps happening, tell us through the Contact Us page.</p>
      <p className="muted">Error {status}</p>
      <p className="button-row">
        <a className="button" href="/">
          Go to homepage
        </a>
      </p>
    </div>
  );
}

/** Past a limit on something costly (documents, previews): what the limit says, and a way on. */
export function TooManyRequestsPage({ message }: { message: string }) {
  return (
    <div className="page page--narrow">
      <title>{pageTitle("Too many attempts")}</title>
      <h1>Too many attempts</h1>
      <p>{message}</p>
      <p className="button-row">
        <a className="button" href="/account/dashboard">
          Go to my account
        </a>
      </p>
    </div>
  );
}
