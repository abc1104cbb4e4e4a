export function ErrorPage({ status }: { status: number }) {
  return (
    <div className="page page--narrow">
      <title>Something went wrong</title>
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
