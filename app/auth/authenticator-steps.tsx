import type { ReactNode } from "react";
import { useT } from "~/i18n/react";

/**
 * The ways to add the account to an authenticator app (a link for the phone showing the page, which cannot scan
 * its own screen; the QR code; the key to type), then the form that confirms it with a first code.
 */
export function AuthenticatorSteps({
  setup,
  confirmTitle,
  children,
}: {
  setup: { secret: string; otpauthUri: string; qrCodeDataUrl: string };
  confirmTitle?: string;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <ol className="steps">
      <li>
        <h2 className="steps__title">{t("auth.steps.linkTitle")}</h2>
        <p>
          <a className="button button--secondary" href={setup.otpauthUri}>
            {t("auth.steps.open")}
          </a>
        </p>
      </li>
      <li>
        <h2 className="steps__title">{t("auth.steps.scanTitle")}</h2>
        <img
          className="qr-code"
          src={setup.qrCodeDataUrl}
          width={200}
          height={200}
          alt={t("auth.steps.qrAlt")}
        />
      </li>
      <li>
        <h2 className="steps__title">{t("auth.steps.keyTitle")}</h2>
        <p className="secret-key">
          <code id="secret-key" translate="no">{setup.secret}</code>
          {/* Shown by the small copy script; without script the key is selectable text. */}
          <button
            type="button"
            className="button button--secondary button--small"
            data-copy-target="secret-key"
            data-copied={t("auth.steps.copied")}
            data-close={t("common.toast.close")}
            hidden
          >
            {t("auth.steps.copy")}
          </button>
        </p>
      </li>
      <li>
        <h2 className="steps__title">{confirmTitle ?? t("auth.steps.confirmTitle")}</h2>
        {children}
      </li>
    </ol>
  );
}
