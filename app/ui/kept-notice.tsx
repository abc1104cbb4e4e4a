import { useT } from "~/i18n/react";

/** Said on an AI page showing a form kept while the person was signed out (app/expiry/): check it and send it again. */
export function KeptNotice() {
  const { t } = useT();
  return (
    <div className="notice" role="status">
      <p>{t("expiry.kept.typed")}</p>
    </div>
  );
}
