import type { ReactNode } from "react";
import { useT } from "~/i18n/react";
import { type Translator, translator } from "~/i18n/translator";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";
import type { InterviewNote, Reply, View } from "./shares.server";
import { deskWords, noteWords } from "./words";

const DAY: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };
const TIME: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" };
const SHORT_TIME: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" };
const english = translator("en");

/** A stored time as a day ("5 January 2027"), in the language of `t` (the help desk's: English). */
export const dayText = (iso: string, t: Translator = english) => t.date(iso, DAY);
/** A stored time to the minute, UTC ("5 January 2027 at 14:03"). */
export const timeText = (iso: string, t: Translator = english) => t.date(iso, TIME);

/** What a person shares, listed as the language lists labels ("My answers, My document"). */
export function shareList(items: string[], t: Translator): string {
  return new Intl.ListFormat(t.lang === "en" || t.lang === "en-XA" ? "en-GB" : t.lang, { style: "short", type: "unit" }).format(items);
}

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
  return <time dateTime={at}>{short ? english.date(at, SHORT_TIME) : withTime ? timeText(at) : dayText(at)}</time>;
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
  const t = useT();
  if (!replies.length) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const ItemHeading = headingLevel === 2 ? "h3" : "h4";
  return (
    <section aria-labelledby="replies-title" className="help-replies">
      <Heading id="replies-title">{t.t("account.help.repliesTitle")}</Heading>
      <ol className="help-replies__list">
        {replies.map((reply) => (
          <li key={reply.id} className="help-reply">
            <ItemHeading className="help-reply__from">
              {t.t("account.help.replyFrom", { name: reply.helperName, when: timeText(reply.createdAt, t) })}
            </ItemHeading>
            <p className="help-reply__about">
              {reply.about ? t.t("account.help.aboutPage", { page: reply.about.label }) : t.t("account.help.aboutWhole")}
            </p>
            {/* A helper's words, as written, in whatever language they wrote them. */}
            <p className="help-reply__body" dir="auto">
              {reply.body}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** "Who has seen it": each time a helper opened something shared, newest first. */
export function SeenList({ views }: { views: View[] }) {
  const t = useT();
  return (
    <section aria-labelledby="seen-title">
      <h2 id="seen-title">{t.t("account.help.seenTitle")}</h2>
      {views.length ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">{t.t("account.help.seenCaption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t.t("account.help.seenHelper")}</th>
                <th scope="col">{t.t("account.help.seenWhat")}</th>
                <th scope="col">{t.t("account.help.seenWhen")}</th>
              </tr>
            </thead>
            <tbody>
              {views.map((view, index) => (
                <tr key={`${view.viewedAt}-${index}`}>
                  <td translate="no">{view.helperName}</td>
                  <td>{view.what === "file" && view.fileName ? t.t("account.help.seenFileNamed", { name: view.fileName }) : t.t(SEEN[view.what])}</td>
                  <td>
                    <time dateTime={view.viewedAt}>{t.date(view.viewedAt, SHORT_TIME)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t.t("account.help.seenNobody")}</p>
      )}
    </section>
  );
}

const SEEN = {
  request: "account.help.seenRequest",
  answers: "account.help.seenAnswers",
  document: "account.help.seenDocument",
  file: "account.help.seenFile",
} as const;

/** What My interviews says under an interview's issue: prepared with whom, shared until when, new replies. */
export function InterviewNoteText({ note, interviewId }: { note: InterviewNote | undefined; interviewId: string }) {
  const t = useT();
  if (!note) return null;
  const lines = [
    note.preparedWith ? t.t("account.note.preparedWith", { name: note.preparedWith }) : null,
    note.sharedUntil ? t.t("account.note.sharedUntil", { until: dayText(note.sharedUntil, t) }) : null,
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
          {t.t("account.note.newReplies", { count: note.unreadReplies })}
        </a>
      ) : null}
    </>
  );
}

/** At the top of an interview: a helper's unread reply, for its person; for whom it is, for the helper preparing it. */
export function InterviewHelpNotice({ help, interviewId }: { help: { unreadReplies: number; preparingFor: { firstName: string; lastName: string } | null }; interviewId: string }) {
  const t = useT();
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
        {t.t("account.note.replied")} <a href={`/account/interview/${interviewId}/help`}>{t.t("account.note.readReplies")}</a>
      </p>
    </div>
  );
}
