import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";

/** An account sub-page: breadcrumb Home › Your account › {title}, the title, and the way back. */
export function AccountPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page">
      <title>{`${title} | Legal Self-Help`}</title>
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, { label: "Your account", href: "/account/dashboard" }, { label: title }]} />
      <h1>{title}</h1>
      {children}
      <p className="account-back">
        <a href="/account/dashboard">Return to your account overview</a>
      </p>
    </div>
  );
}
