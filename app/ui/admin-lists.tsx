// What the administration's lists share: one way to show a time, one way to page through records newest first.
import { createContext, useContext } from "react";

/** The organisation's time zone (TIME_ZONE), given by the administration's layout (app/routes/admin.tsx). */
const TimeZoneContext = createContext("UTC");
export const AdminTimeZone = TimeZoneContext.Provider;

const formats = new Map<string, Intl.DateTimeFormat>();
function format(timeZone: string, dateOnly: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${dateOnly}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat("en-GB", dateOnly ? { dateStyle: "medium", timeZone } : { dateStyle: "medium", timeStyle: "short", timeZone });
    formats.set(key, found);
  }
  return found;
}

/** A stored time as the administration pages show it, day and minute in the organisation's time zone (`zone`: named after it). */
export function AdminTime({ at, zone = false, dateOnly = false }: { at: string; zone?: boolean; dateOnly?: boolean }) {
  const timeZone = useContext(TimeZoneContext);
  return (
    <>
      <time dateTime={at}>{format(timeZone, dateOnly).format(new Date(at))}</time>
      {zone ? ` (${timeZone})` : null}
    </>
  );
}

/** The organisation's time zone's name, for a column of times ("When (Australia/Sydney)"). */
export function AdminTimeZoneName() {
  return <>{useContext(TimeZoneContext)}</>;
}

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
