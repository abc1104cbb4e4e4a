import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";
import { PageTitle } from "~/ui/page-title";

/** An administration page: breadcrumb Home › Administration › {title}, and the title ("Error: " first while a form shows errors). */
export function AdminPage({ title, errors = false, children }: { title: string; errors?: boolean; children: ReactNode }) {
  const home = title === "Administration";
  return (
    <div className="page">
      <PageTitle title={title} errors={errors} />
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, ...(home ? [] : [{ label: "Administration", href: "/admin" }]), { label: title }]} />
      <h1>{title}</h1>
      {children}
    </div>
  );
}
