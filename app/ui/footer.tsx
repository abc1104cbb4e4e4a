import { useT } from "~/i18n/react";

export function Footer() {
  const { t } = useT();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p className="site-footer__copyright">{t("footer.copyright", { year: String(new Date().getFullYear()), site: t("site.name") })}</p>
        <nav aria-label={t("footer.nav")}>
          <ul className="site-footer__links">
            <li>
              <a href="/support/contact-us/">{t("footer.contactUs")}</a>
            </li>
            <li>
              <a href="/legal/terms-and-conditions/">{t("footer.terms")}</a>
            </li>
            <li>
              <a href="/legal/privacy-policies">{t("footer.privacy")}</a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
