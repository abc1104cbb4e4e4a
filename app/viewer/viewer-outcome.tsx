import { useT } from "~/i18n/react";
import type { MessageKey } from "~/i18n/translator";
import { viewerLangAttributes } from "./viewer-page";

/** What the viewer shows when the interview leaves the page flow: ended, saved and signed out, an error… */
export type OutcomeView =
  | { kind: "success" | "assemble" | "assemble-success" | "complete"; href: string }
  | { kind: "save-logout" }
  | { kind: "fail"; url?: string }
  | { kind: "message"; message: string }
  | { kind: "preview"; target: string; message?: string; url?: string }
  | { kind: "signed-out"; href?: string }
  | { kind: "error"; message: string };

const previewSays: Record<string, MessageKey> = {
  EXIT: "viewer.outcome.previewExit",
  SUCCESS: "viewer.outcome.previewSuccess",
  ASSEMBLE: "viewer.outcome.previewAssemble",
  "ASSEMBLE-SUCCESS": "viewer.outcome.previewAssemble",
  FAIL: "viewer.outcome.previewFail",
  MESSAGE: "viewer.outcome.previewMessage",
};

/**
 * The page carries its outcome in data attributes: the message layer (viewer.js) tells the host page; without
 * script, the links move the whole window. `headingLevel` 2 when the interview page shows it under its own h1.
 */
export function ViewerOutcome({ title, outcome, headingLevel = 1 }: { title: string; outcome: OutcomeView; headingLevel?: 1 | 2 }) {
  const t = useT();
  const Heading = headingLevel === 2 ? "h2" : "h1";
  const message = (() => {
    switch (outcome.kind) {
      case "success":
      case "assemble":
      case "assemble-success":
      case "complete":
        return (
          <>
            <p>{t.t("viewer.outcome.complete")}</p>
            <p>
              <a className="button" href={outcome.href} target="_top">
                {t.t("viewer.continue")}
              </a>
            </p>
          </>
        );
      case "save-logout":
        return (
          <>
            <p>{t.t("viewer.outcome.savedSignedOut")}</p>
            <p>
              <a className="button" href="/" target="_top">
                {t.t("viewer.outcome.home")}
              </a>
            </p>
          </>
        );
      case "fail":
        return (
          <>
            <p>{t.t("viewer.outcome.fail")}</p>
            {outcome.url && /^https?:\/\//.test(outcome.url) ? (
              <p className="link-line">
                <a href={outcome.url} target="_blank" rel="noopener noreferrer">
                  {t.t("viewer.outcome.findHelp")}
                </a>
              </p>
            ) : null}
          </>
        );
      case "message":
        return <p>{outcome.message}</p>;
      case "preview":
        return (
          <>
            <p>{t.t("viewer.outcome.preview", { button: outcome.target })}</p>
            <p>{previewSays[outcome.target] ? t.t(previewSays[outcome.target]!) : ""}</p>
            {outcome.message ? <p>{outcome.message}</p> : null}
          </>
        );
      case "signed-out":
        return (
          <>
            <p>{t.t("viewer.outcome.signIn")}</p>
            <p>
              <a className="button" href={outcome.href ?? "/auth/sign-in"} target="_top">
                {t.t("viewer.outcome.signInButton")}
              </a>
            </p>
          </>
        );
      case "error":
        // The message is a reference of the viewer's ("viewer.error.page"), or the engine's own account of what failed.
        return <p>{t.t("viewer.outcome.error", { message: t.message(outcome.message) })}</p>;
    }
  })();
  return (
    <div className="viewer viewer-outcome" {...viewerLangAttributes(t)} data-outcome={outcome.kind} data-href={"href" in outcome ? outcome.href : undefined}>
      <Heading className="viewer__title">{title}</Heading>
      <div role="status">{message}</div>
    </div>
  );
}
