// What the administration's lists share: one way to show a time, one way to page through records newest first.

const utc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A stored time as the administration pages show it: UTC, day and minute. */
export function AdminTime({ at }: { at: string }) {
  return <time dateTime={at}>{utc.format(new Date(at))}</time>;
}

/** The same time as text, where no element can go (a summary line). */
export const adminTimeText = (at: string) => utc.format(new Date(at));

/** Newer and Older links around "Page N of M", for a list at `path?page=N`; nothing when there is one page. */
export function OlderNewerPages({ path, label, page, pageCount }: { path: string; label: string; page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      {page > 1 ? <a href={`${path}?page=${page - 1}`}>Newer</a> : null}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? <a href={`${path}?page=${page + 1}`}>Older</a> : null}
    </nav>
  );
}
