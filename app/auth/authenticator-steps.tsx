import type { ReactNode } from "react";

/**
 * The ways to add the account to an authenticator app (a link for the phone showing the page, which cannot scan
 * its own screen; the QR code; the key to type), then the form that confirms it with a first code.
 */
export function AuthenticatorSteps({
  setup,
  confirmTitle = "Enter the 6-digit code the app shows",
  children,
}: {
  setup: { secret: string; otpauthUri: string; qrCodeDataUrl: string };
  confirmTitle?: string;
  children: ReactNode;
}) {
  return (
    <ol className="steps">
      <li>
        <h2 className="steps__title">On this phone: open the app with this link</h2>
        <p>
          <a className="button button--secondary" href={setup.otpauthUri}>
            Open in my authenticator app
          </a>
        </p>
      </li>
      <li>
        <h2 className="steps__title">Or scan this QR code with your authenticator app</h2>
        <img
          className="qr-code"
          src={setup.qrCodeDataUrl}
          width={200}
          height={200}
          alt="QR code to add Legal Self-Help to your authenticator app. If you cannot scan it, type the secret key below."
        />
      </li>
      <li>
        <h2 className="steps__title">Or type this secret key into the app</h2>
        <p className="secret-key">
          <code id="secret-key">{setup.secret}</code>
          {/* Shown by the small copy script; without script the key is selectable text. */}
          <button type="button" className="button button--secondary button--small" data-copy-target="secret-key" hidden>
            Copy secret key
          </button>
        </p>
      </li>
      <li>
        <h2 className="steps__title">{confirmTitle}</h2>
        {children}
      </li>
    </ol>
  );
}
