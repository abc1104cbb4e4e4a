import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";

/**
 * An administration page: breadcrumb Home › Administration › {trail…} › {title}, and the title ("Error: " first while
 * a form shows errors). The trail names the pages between, e.g. Sources for one source.
 */
export function AdminPage({
  title,
  errors = false,
  trail = [],
  children,
}: {
  title: string;
  errors?: boolean;
  trail?: { label: string; href: string }[];
  children: ReactNode;
}) {
  const home = title === "Administration";
  return (
    // Administration is in English whatever the site's language (the organisation's own staff use it).
    <div className="page" lang="en" dir="ltr">
      <PageTitle title={title} errors={errors} />
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, ...(home ? [] : [{ label: "Administration", href: "/admin" }]), ...trail, { label: title }]} />
      <h1>{title}</h1>
      {children}
    </div>
  );
}
