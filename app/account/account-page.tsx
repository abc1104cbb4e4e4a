import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";

/**
 * An account sub-page: breadcrumb Home › Your account › {title}, the title, and the way back. `errors`: the
 * page's form shows errors, and the document title says so.
 */
export function AccountPage({ title, errors = false, children }: { title: string; errors?: boolean; children: ReactNode }) {
  return (
    <div className="page">
      <PageTitle title={title} errors={errors} />
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, { label: "Your account", href: "/account/dashboard" }, { label: title }]} />
      <h1>{title}</h1>
      {children}
      <p className="account-back">
        <a href="/account/dashboard">Return to your account overview</a>
      </p>
    </div>
  );
}
