import { type InterviewListItem, type InterviewPage, PAGE_SIZES } from "./list";

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function listHref(page: number, pageSize: number): string {
  return `/account/interview?page=${page}&size=${pageSize}`;
}

/** The confirmation in a popover dialog (no script); browsers without popovers use the confirmation page. */
/** A completed interview is corrected in a new draft copied from it (app/interviews/correct.server.ts): a POST. */
function CorrectControl({ item }: { item: InterviewListItem }) {
  return (
    <form method="post" action={`/account/interview/${item.id}/correct`} className="action-form">
      <button type="submit" className="action-link">
        Change answers<span className="visually-hidden"> {item.issueName}</span>
      </button>
    </form>
  );
}

function DeleteControl({ item, back }: { item: InterviewListItem; back: string }) {
  const dialogId = `delete-${item.id}`;
  return (
    <>
      <a className="action-link delete-link" href={`/account/interview/${item.id}/delete?back=${encodeURIComponent(back)}`}>
        Delete<span className="visually-hidden"> {item.issueName}</span>
      </a>
      <button type="button" className="action-link delete-button" popoverTarget={dialogId}>
        Delete<span className="visually-hidden"> {item.issueName}</span>
      </button>
      <dialog id={dialogId} popover="auto" className="confirm-dialog" aria-labelledby={`${dialogId}-title`}>
        <DeleteConfirmation item={item} back={back} cancel={<button type="button" className="button button--secondary" popoverTarget={dialogId} popoverTargetAction="hide">No, keep</button>} />
      </dialog>
    </>
  );
}

/** "Are you sure you want to delete?" with "Yes, delete" (a POST) and the given way to keep it. */
export function DeleteConfirmation({ item, back, cancel }: { item: InterviewListItem; back: string; cancel: React.ReactNode }) {
  return (
    <div className="confirm">
      <h2 id={`delete-${item.id}-title`} className="confirm__title">
        Are you sure you want to delete?
      </h2>
      <p>Deleted interviews cannot be retrieved again</p>
      <p className="muted">
        {item.issueName}, {dateFormat.format(new Date(item.updatedAt))}
      </p>
      <form method="post" action={`/account/interview/${item.id}/delete`} className="button-row">
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="button button--danger">
          Yes, delete
        </button>
        {cancel}
      </form>
    </div>
  );
}

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/**
 * One table at every width. Under 600 px the CSS stacks each row into a card (each cell labelled from its
 * `data-label`, the actions on a line of their own) instead of a sideways scroller. The explicit table roles keep
 * the header association where a browser drops table semantics for cells that are no longer `display:
 * table-cell` (docs/decisions/0027-phones-and-print.md).
 */
export function InterviewTable({
  list,
  notes = {},
  actions = {},
}: {
  list: InterviewPage;
  /** Said under an interview's issue, by interview id (who prepared it, whether it is shared: app/help/). */
  notes?: Record<string, React.ReactNode>;
  /** More actions for an interview, by id, before Delete. */
  actions?: Record<string, React.ReactNode>;
}) {
  const back = listHref(list.page, list.pageSize);
  return (
    <>
      <div className="table-scroll">
        <table className="interviews" role="table">
          <caption className="visually-hidden">
            My interviews, newest first, page {list.page} of {list.pageCount}
          </caption>
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">
                Date
              </th>
              <th scope="col" role="columnheader">
                Issue
              </th>
              <th scope="col" role="columnheader">
                Status
              </th>
              <th scope="col" role="columnheader">
                Action
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {list.items.map((item) => (
              <tr key={item.id} role="row">
                <td role="cell" data-label="Date">
                  {formatDate(item.updatedAt)}
                </td>
                <td role="cell" data-label="Issue" className="interviews__issue">
                  {item.issueName}
                  {notes[item.id]}
                </td>
                <td role="cell" data-label="Status">
                  <span className={`status status--${item.status.toLowerCase()}`}>{item.status}</span>
                </td>
                <td role="cell" className="interviews__actions">
                  <div className="actions">
                    {item.status === "Completed" ? (
                      <>
                        <a className="action-link" href={`/account/interview/${item.id}/download`}>
                          Download<span className="visually-hidden"> {item.issueName}</span>
                        </a>
                        <a className="action-link" href={`/account/interview/${item.id}/answers`}>
                          Answers<span className="visually-hidden"> {item.issueName}</span>
                        </a>
                        <CorrectControl item={item} />
                      </>
                    ) : (
                      <a className="action-link" href={`/issues/${item.issueId}/interviews/${item.id}`}>
                        Edit<span className="visually-hidden"> {item.issueName}</span>
                      </a>
                    )}
                    {actions[item.id]}
                    <DeleteControl item={item} back={back} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination list={list} />
    </>
  );
}

function Pagination({ list }: { list: InterviewPage }) {
  const first = list.total === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
  const last = Math.min(list.total, list.page * list.pageSize);
  return (
    <div className="pagination">
      <form method="get" action="/account/interview" className="pagination__size">
        <label htmlFor="page-size">Rows per page</label>
        <select id="page-size" name="size" defaultValue={String(list.pageSize)} className="field__input field__input--inline">
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <button type="submit" className="button button--secondary button--small">
          Show
        </button>
      </form>
      <p className="pagination__range" aria-live="polite">
        {first}–{last} of {list.total}
      </p>
      <nav aria-label="Pages" className="pagination__pages">
        <ul>
          <li>
            {list.page > 1 ? (
              <a href={listHref(list.page - 1, list.pageSize)}>Previous page</a>
            ) : (
              <span aria-disabled="true">Previous page</span>
            )}
          </li>
          {pageNumbers(list.page, list.pageCount).map((number, index) =>
            number === null ? (
              <li key={`gap-${index}`} aria-hidden="true">
                …
              </li>
            ) : (
              <li key={number}>
                {number === list.page ? (
                  <span aria-current="page">
                    <span className="visually-hidden">Page </span>
                    {number}
                  </span>
                ) : (
                  <a href={listHref(number, list.pageSize)}>
                    <span className="visually-hidden">Page </span>
                    {number}
                  </a>
                )}
              </li>
            ),
          )}
          <li>
            {list.page < list.pageCount ? (
              <a href={listHref(list.page + 1, list.pageSize)}>Next page</a>
            ) : (
              <span aria-disabled="true">Next page</span>
            )}
          </li>
        </ul>
      </nav>
    </div>
  );
}

/** The first, the last and the pages around the current one; null marks a gap. */
export function pageNumbers(page: number, pageCount: number): (number | null)[] {
  const wanted = new Set([1, pageCount, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pageCount));
  const sorted = [...wanted].sort((a, b) => a - b);
  return sorted.flatMap((n, i) => (i > 0 && n - sorted[i - 1]! > 1 ? [null, n] : [n]));
}
