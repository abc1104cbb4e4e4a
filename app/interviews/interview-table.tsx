import { useT } from "~/i18n/react";
import { type Translator, translator } from "~/i18n/translator";
import { type InterviewListItem, type InterviewPage, PAGE_SIZES } from "./list";

const DATE_OPTIONS: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };

export function listHref(page: number, pageSize: number): string {
  return `/account/interview?page=${page}&size=${pageSize}`;
}

/** The confirmation in a popover dialog (no script); browsers without popovers use the confirmation page. */
/** A completed interview is corrected in a new draft copied from it (app/interviews/correct.server.ts): a POST. */
function CorrectControl({ item }: { item: InterviewListItem }) {
  const { t } = useT();
  return (
    <form method="post" action={`/account/interview/${item.id}/correct`} className="action-form">
      <button type="submit" className="action-link">
        {t("account.interviews.changeAnswers")}
        <IssueName item={item} />
      </button>
    </form>
  );
}

function DeleteControl({ item, back }: { item: InterviewListItem; back: string }) {
  const { t } = useT();
  const dialogId = `delete-${item.id}`;
  return (
    <>
      <a className="action-link delete-link" href={`/account/interview/${item.id}/delete?back=${encodeURIComponent(back)}`}>
        {t("account.interviews.delete")}
        <IssueName item={item} />
      </a>
      <button type="button" className="action-link delete-button" popoverTarget={dialogId}>
        {t("account.interviews.delete")}
        <IssueName item={item} />
      </button>
      <dialog id={dialogId} popover="auto" className="confirm-dialog" aria-labelledby={`${dialogId}-title`}>
        <DeleteConfirmation
          item={item}
          back={back}
          cancel={
            <button type="button" className="button button--secondary" popoverTarget={dialogId} popoverTargetAction="hide">
              {t("account.interviews.keep")}
            </button>
          }
        />
      </dialog>
    </>
  );
}

/** "Are you sure you want to delete?" with "Yes, delete" (a POST) and the given way to keep it. */
export function DeleteConfirmation({ item, back, cancel }: { item: InterviewListItem; back: string; cancel: React.ReactNode }) {
  const t = useT();
  return (
    <div className="confirm">
      <h2 id={`delete-${item.id}-title`} className="confirm__title">
        {t.t("account.interviews.deleteTitle")}
      </h2>
      <p>{t.t("account.interviews.deleteText")}</p>
      <p className="muted">
        {/* The issue's name is the organisation's words, shown as written. */}
        <span translate="no">{item.issueName}</span>, {formatDate(item.updatedAt, t)}
      </p>
      <form method="post" action={`/account/interview/${item.id}/delete`} className="button-row">
        <input type="hidden" name="back" value={back} />
        <button type="submit" className="button button--danger">
          {t.t("account.interviews.deleteYes")}
        </button>
        {cancel}
      </form>
    </div>
  );
}

/** An interview's date in the page's language ("5 Jan 2027" in English). */
export function formatDate(iso: string, t: Translator = translator("en")): string {
  return t.date(iso, DATE_OPTIONS);
}

/** After an action's words, for screen readers: which interview ("Delete Divorce"). The organisation's words, as written. */
function IssueName({ item }: { item: InterviewListItem }) {
  return (
    <span className="visually-hidden" translate="no">
      {" "}
      {item.issueName}
    </span>
  );
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
  const t = useT();
  const back = listHref(list.page, list.pageSize);
  return (
    <>
      <div className="table-scroll">
        <table className="interviews" role="table">
          <caption className="visually-hidden">
            {t.t("account.interviews.caption", { page: list.page, pageCount: list.pageCount })}
          </caption>
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">
                {t.t("account.interviews.date")}
              </th>
              <th scope="col" role="columnheader">
                {t.t("account.interviews.issue")}
              </th>
              <th scope="col" role="columnheader">
                {t.t("account.interviews.status")}
              </th>
              <th scope="col" role="columnheader">
                {t.t("account.interviews.action")}
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {list.items.map((item) => (
              <tr key={item.id} role="row">
                <td role="cell" data-label={t.t("account.interviews.date")}>
                  {formatDate(item.updatedAt, t)}
                </td>
                <td role="cell" data-label={t.t("account.interviews.issue")} className="interviews__issue">
                  <span translate="no">{item.issueName}</span>
                  {notes[item.id]}
                </td>
                <td role="cell" data-label={t.t("account.interviews.status")}>
                  <span className={`status status--${item.status.toLowerCase()}`}>{t.t("account.interviews.statusName", { status: item.status })}</span>
                </td>
                <td role="cell" className="interviews__actions">
                  <div className="actions">
                    {item.status === "Completed" ? (
                      <>
                        <a className="action-link" href={`/account/interview/${item.id}/download`}>
                          {t.t("account.interviews.download")}
                          <IssueName item={item} />
                        </a>
                        <a className="action-link" href={`/account/interview/${item.id}/answers`}>
                          {t.t("account.interviews.answers")}
                          <IssueName item={item} />
                        </a>
                        <CorrectControl item={item} />
                      </>
                    ) : (
                      <a className="action-link" href={`/issues/${item.issueId}/interviews/${item.id}`}>
                        {t.t("account.interviews.edit")}
                        <IssueName item={item} />
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
  const t = useT();
  const first = list.total === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
  const last = Math.min(list.total, list.page * list.pageSize);
  return (
    <div className="pagination">
      <form method="get" action="/account/interview" className="pagination__size">
        <label htmlFor="page-size">{t.t("account.interviews.rowsPerPage")}</label>
        <select id="page-size" name="size" defaultValue={String(list.pageSize)} className="field__input field__input--inline">
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {t.number(size)}
            </option>
          ))}
        </select>
        <button type="submit" className="button button--secondary button--small">
          {t.t("account.interviews.show")}
        </button>
      </form>
      <p className="pagination__range" aria-live="polite">
        {t.t("account.interviews.range", { first, last, total: list.total })}
      </p>
      <nav aria-label={t.t("account.interviews.pages")} className="pagination__pages">
        <ul>
          <li>
            {list.page > 1 ? (
              <a href={listHref(list.page - 1, list.pageSize)}>{t.t("account.interviews.previous")}</a>
            ) : (
              <span aria-disabled="true">{t.t("account.interviews.previous")}</span>
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
                    <PageNumber number={number} t={t} />
                  </span>
                ) : (
                  <a href={listHref(number, list.pageSize)}>
                    <PageNumber number={number} t={t} />
                  </a>
                )}
              </li>
            ),
          )}
          <li>
            {list.page < list.pageCount ? (
              <a href={listHref(list.page + 1, list.pageSize)}>{t.t("account.interviews.next")}</a>
            ) : (
              <span aria-disabled="true">{t.t("account.interviews.next")}</span>
            )}
          </li>
        </ul>
      </nav>
    </div>
  );
}

/** A page's number as seen ("3"), and as heard ("Page 3"). */
function PageNumber({ number, t }: { number: number; t: Translator }) {
  return (
    <>
      <span className="visually-hidden">{t.t("account.interviews.page", { number })}</span>
      <span aria-hidden="true">{t.number(number)}</span>
    </>
  );
}

/** The first, the last and the pages around the current one; null marks a gap. */
export function pageNumbers(page: number, pageCount: number): (number | null)[] {
  const wanted = new Set([1, pageCount, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pageCount));
  const sorted = [...wanted].sort((a, b) => a - b);
  return sorted.flatMap((n, i) => (i > 0 && n - sorted[i - 1]! > 1 ? [null, n] : [n]));
}
