import { RichText, useT } from "~/i18n/react";
import { useNonce } from "./nonce";

/** Where "Leave this page" goes: an ordinary site that says nothing about why someone was here. */
export const QUICK_EXIT_URL = "https://www.google.com/";

/** Neutral words that stand for a sensitive issue's name in titles and breadcrumbs. */
export const SENSITIVE_ISSUE_LABEL = "Your issue";

/** What a title or breadcrumb calls an issue: its name, or neutral words when it is sensitive. */
export function issueLabel(issue: { name: string; sensitive: boolean }): string {
  return issue.sensitive ? SENSITIVE_ISSUE_LABEL : issue.name;
}

/**
 * "Leave this page", held at the top of the screen on every page of a sensitive issue (docs/decisions/0041).
 * Without script it is a plain link to a neutral site; public/scripts/quick-exit.js makes it replace the page
 * and its history entry, and adds the keyboard shortcut (Shift three times, as GOV.UK's "Exit this page").
 */
export function QuickExit() {
  const nonce = useNonce();
  const { t } = useT();
  return (
    <>
      <div className="quick-exit" data-quick-exit="">
        <a className="button button--danger quick-exit__button" href={QUICK_EXIT_URL} rel="noreferrer" data-quick-exit-link="">
          {t("common.quickExit.leave")}
        </a>
        <span className="quick-exit__shortcut">{t("common.quickExit.shortcut")}</span>
      </div>
      <QuickExitScript nonce={nonce} />
    </>
  );
}

/** The script alone: the viewer's document in the interview's frame has the shortcut, the host page the link. */
export function QuickExitScript({ nonce }: { nonce: string }) {
  return <script src="/scripts/quick-exit.js" nonce={nonce} data-exit-url={QUICK_EXIT_URL} defer />;
}

/** What "Leave this page" does, said once, on the issue's own page. */
export function QuickExitExplained() {
  const { t } = useT();
  return (
    <aside className="notice notice--warning" aria-label={t("common.quickExit.safety")}>
      <p>
        <RichText id="common.quickExit.explained" tags={{ shortcut: (words) => <span className="quick-exit__shortcut-note">{words}</span> }} />
      </p>
    </aside>
  );
}
