import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";

/**
 * An administration page: breadcrumb Home › Administration › {parents…} › {title}, and the title ("Error: "
 * first while a form shows errors).
 */
export function AdminPage({
  title,
  errors = false,
  parents = [],
  children,
}: {
  title: string;
  errors?: boolean;
  parents?: { label: string; href: string }[];
  children: ReactNode;
}) {
  const home = title === "Administration";
  return (
    <div className="page">
      <PageTitle title={title} errors={errors} />
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, ...(home ? [] : [{ label: "Administration", href: "/admin" }]), ...parents, { label: title }]} />
      <h1>{title}</h1>
      {children}
    </div>
  );
}
