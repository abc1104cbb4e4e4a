export interface Crumb {
  label: string;
  href?: string;
}

/**
 * A breadcrumb trail; the last crumb is the current page. `collapse`: on phones only the way back (the crumb
 * before the current page) is shown, one line where the whole trail would take three (the interview, whose
 * question must be on the first screen).
 */
export function Breadcrumb({ crumbs, collapse = false }: { crumbs: Crumb[]; collapse?: boolean }) {
  return (
    <nav className={collapse ? "breadcrumb breadcrumb--collapse" : "breadcrumb"} aria-label="Breadcrumb">
      <ol>
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1;
          return (
            <li key={`${index}-${crumb.label}`}>
              {crumb.href && !current ? (
                <a href={crumb.href}>{crumb.label}</a>
              ) : (
                <span aria-current={current ? "page" : undefined}>{crumb.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
