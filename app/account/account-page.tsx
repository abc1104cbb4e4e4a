import type { ReactNode } from "react";
import { useT } from "~/i18n/react";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";
import { QuickExit } from "~/ui/quick-exit";

/**
 * An account sub-page: breadcrumb Home › Your account › {title}, the title, and the way back. `errors`: the
 * page's form shows errors, and the document title says so. `quickExit`: the page is about a sensitive issue
 * ("Leave this page", docs/decisions/0041). `crumb`: the breadcrumb's words for the page, where they are not its title.
 */
export function AccountPage({
  title,
  crumb = title,
  errors = false,
  quickExit = false,
  children,
}: {
  title: string;
  crumb?: string;
  errors?: boolean;
  quickExit?: boolean;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <div className="page">
      <PageTitle title={title} errors={errors} />
      {quickExit ? <QuickExit /> : null}
      <Breadcrumb crumbs={[{ label: t("account.page.home"), href: "/" }, { label: t("account.page.yourAccount"), href: "/account/dashboard" }, { label: crumb }]} />
      <h1>{title}</h1>
      {children}
      <p className="account-back">
        <a href="/account/dashboard">{t("account.page.back")}</a>
      </p>
    </div>
  );
}
