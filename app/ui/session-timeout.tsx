import { useT } from "~/i18n/react";

/**
 * The warning before a signed-in person is signed out for doing nothing (the HMRC timeout dialog pattern):
 * hidden until public/scripts/session-timeout.js opens it, two minutes before the session ends
 * (`secondsLeft`, the server's count when the page was made; the script asks again before it warns). "Stay
 * signed in" posts to /session/stay-signed-in, which works as a plain form too, coming back to `returnTo`.
 * docs/decisions/0051-session-expiry-loses-nothing.md
 */
export function SessionTimeout({ secondsLeft, returnTo }: { secondsLeft: number; returnTo: string }) {
  const { t } = useT();
  return (
    <dialog
      id="session-timeout"
      className="confirm-dialog session-timeout"
      aria-labelledby="session-timeout-title"
      aria-describedby="session-timeout-text"
      data-seconds-left={secondsLeft}
    >
      <h2 id="session-timeout-title" className="confirm__title">
        {t("expiry.timeout.title")}
      </h2>
      <p id="session-timeout-text">{t("expiry.timeout.text")}</p>
      <div className="button-row">
        <form method="post" action="/session/stay-signed-in" data-stay-signed-in="">
          <input type="hidden" name="returnTo" value={returnTo} />
          <button type="submit" className="button">
            {t("expiry.timeout.stay")}
          </button>
        </form>
        <form method="post" action="/auth/sign-out">
          <button type="submit" className="button button--secondary">
            {t("expiry.timeout.signOut")}
          </button>
        </form>
      </div>
    </dialog>
  );
}
