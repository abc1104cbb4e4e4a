import { useT } from "~/i18n/react";
import { pageTitle } from "./page-title";

export function ErrorPage({ status }: { status: number }) {
  const t = useT();
  return (
    <div className="page page--narrow">
      <title>{pageTitle(t.t("errorPage.title"), false, t)}</title>
      <h1>{t.t("errorPage.heading")}</h1>
      <p>{t.t("errorPage.body")}</p>
      <p className="muted">{t.t("errorPage.status", { status })}</p>
      <p className="button-row">
        <a className="button" href="/">
          {t.t("errorPage.home")}
        </a>
      </p>
    </div>
  );
}

/** Past a limit on something costly (documents, previews): what the limit says, and a way on. */
export function TooManyRequestsPage({ message }: { message: string }) {
  const t = useT();
  return (
    <div className="page page--narrow">
      <title>{pageTitle(t.t("tooMany.title"), false, t)}</title>
      <h1>{t.t("tooMany.title")}</h1>
      <p>{t.message(message)}</p>
      <p className="button-row">
        <a className="button" href="/account/dashboard">
          {t.t("tooMany.account")}
        </a>
      </p>
    </div>
  );
}
