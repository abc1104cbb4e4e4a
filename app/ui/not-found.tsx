import { useT } from "~/i18n/react";
import { pageTitle } from "./page-title";

export function NotFound({ backHref }: { backHref: string }) {
  const t = useT();
  return (
    <div className="page page--narrow not-found">
      <title>{pageTitle(t.t("notFound.title"), false, t)}</title>
      <h1>{t.t("notFound.heading")}</h1>
      <p className="button-row">
        <a className="button button--secondary" href={backHref}>
          {t.t("notFound.back")}
        </a>
        <a className="button" href="/">
          {t.t("errorPage.home")}
        </a>
      </p>
    </div>
  );
}
