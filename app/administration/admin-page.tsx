import type { ReactNode } from "react";
import { Breadcrumb } from "~/ui/breadcrumb";

/** An administration page: breadcrumb Home › Administration › {title}, and the title. */
export function AdminPage({ title, children }: { title: string; children: ReactNode }) {
  const home = title === "Administration";
  return (
    <div className="page">
      <title>{`${title} | Legal Self-Help`}</title>
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, ...(home ? [] : [{ label: "Administration", href: "/admin" }]), { label: title }]} />
      <h1>{title}</h1>
      {children}
    </div>
  );
}
