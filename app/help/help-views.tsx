import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";
import type { InterviewNote, Reply, View } from "./shares.server";
import { deskWords, noteWords, shareWords } from "./words";

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const time = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
const shortTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** A stored time as a day ("5 January 2027"). */
export const dayText = (iso: string) => day.format(new Date(iso));
/** A stored time to the minute, UTC ("5 January 2027 at 14:03"). */
export const timeText = (iso: string) => time.format(new Date(iso));

const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

/** A guide's language by name ("English" for "en"); a code Intl does not know stays as it is. */
export function languageName(code: string): string {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A stored time as a day, or to the minute (`short`: "5 Jan 2027, 14:03", for narrow table cells). */
export function When({ at, withTime = false, short = false }: { at: string; withTime?: boolean; short?: boolean }) {
  return <time dateTime={at}>{short ? shortTime.format(new Date(at)) : withTime ? timeText(at) : dayText(at)}</time>;
}

/** A help desk page: breadcrumb Home › Help desk › {trail…} › {title}, and the title ("Error: " first while a form shows errors). */
export function HelpDeskPage({ title, errors = false, trail = [], children }: { title: string; errors?: boolean; trail?: { label: string; href: string }[]; children: ReactNode }) {
  const home = title === deskWords.title;
  return (
    <div className="page">
      <PageTitle title={title} errors={errors} />
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, ...(home ? [] : [{ label: deskWords.title, href: "/help" }]), ...trail, { label: title }]} />
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** The replies of helpers, newest first, each with who, when and what it is about. */
export function RepliesList({ replies, headingLevel = 2 }: { replies: Reply[]; headingLevel?: 2 | 3 }) {
  if (!replies.length) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const ItemHeading = headingLevel === 2 ? "h3" : "h4";
  return (
    <section aria-labelledby="replies-title" className="help-replies">
      <Heading id="replies-title">{shareWords.repliesTitle}</Heading>
      <ol className="help-replies__list">
        {replies.map((reply) => (
          <li key={reply.id} className="help-reply">
            <ItemHeading className="help-reply__from">
              {shareWords.replyFrom(reply.helperName, timeText(reply.createdAt))}
            </ItemHeading>
            <p className="help-reply__about">
              {shareWords.about}: {reply.about ? reply.about.label : shareWords.wholeInterview}
            </p>
            <p className="help-reply__body">{reply.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** "Who has seen it": each time a helper opened something shared, newest first. */
export function SeenList({ views }: { views: View[] }) {
  return (
    <section aria-labelledby="seen-title">
      <h2 id="seen-title">{shareWords.seenTitle}</h2>
      {views.length ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">{shareWords.seenTitle}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">{shareWords.seenHelper}</th>
                <th scope="col">{shareWords.seenWhat}</th>
                <th scope="col">{shareWords.seenWhen}</th>
              </tr>
            </thead>
            <tbody>
              {views.map((view, index) => (
                <tr key={`${view.viewedAt}-${index}`}>
                  <td>{view.helperName}</td>
                  <td>{view.what === "file" && view.fileName ? `${shareWords.seen.file}: ${view.fileName}` : shareWords.seen[view.what]}</td>
                  <td>
                    <When at={view.viewedAt} short />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{shareWords.seenNobody}</p>
      )}
    </section>
  );
}

/** What My interviews says under an interview's issue: prepared with whom, shared until when, new replies. */
export function InterviewNoteText({ note, interviewId }: { note: InterviewNote | undefined; interviewId: string }) {
  if (!note) return null;
  const lines = [
    note.preparedWith ? noteWords.preparedWith(note.preparedWith) : null,
    note.sharedUntil ? noteWords.sharedUntil(dayText(note.sharedUntil)) : null,
  ].filter((line): line is string => line !== null);
  return (
    <>
      {lines.map((line) => (
        <span key={line} className="interviews__note">
          {line}
        </span>
      ))}
      {note.unreadReplies ? (
        <a className="interviews__note" href={`/account/interview/${interviewId}/help`}>
          {noteWords.newReplies(note.unreadReplies)}
        </a>
      ) : null}
    </>
  );
}

/** At the top of an interview: a helper's unread reply, for its person; for whom it is, for the helper preparing it. */
export function InterviewHelpNotice({ help, interviewId }: { help: { unreadReplies: number; preparingFor: { firstName: string; lastName: string } | null }; interviewId: string }) {
  if (help.preparingFor) {
    return (
      <div className="notice" role="note">
        <p>
          {noteWords.preparing(`${help.preparingFor.firstName} ${help.preparingFor.lastName}`)} {noteWords.preparingNext}{" "}
          <a href={`/help/prepared/${interviewId}`}>Open it on the help desk</a>
        </p>
      </div>
    );
  }
  if (!help.unreadReplies) return null;
  return (
    <div className="notice" role="note">
      <p>
        {noteWords.replied} <a href={`/account/interview/${interviewId}/help`}>{noteWords.readReplies}</a>
      </p>
    </div>
  );
}
