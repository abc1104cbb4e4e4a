import { useT } from "~/i18n/react";

export interface Crumb {
  label: string;
  href?: string;
  /** The label's language and direction when it is not ours (an issue's or a country's name). */
  lang?: string;
  dir?: "auto";
}

/**
 * A breadcrumb trail; the last crumb is the current page. `collapse`: on phones only the way back (the crumb
 * before the current page) is shown, one line where the whole trail would take three (the interview, whose
 * question must be on the first screen).
 */
export function Breadcrumb({ crumbs, collapse = false }: { crumbs: Crumb[]; collapse?: boolean }) {
  const { t } = useT();
  return (
    <nav className={collapse ? "breadcrumb breadcrumb--collapse" : "breadcrumb"} aria-label={t("breadcrumb.label")}>
      <ol>
        {crumbs.map((crumb, index) => {
          const current = index === crumbs.length - 1;
          return (
            <li key={`${index}-${crumb.label}`}>
              {crumb.href && !current ? (
                <a href={crumb.href} lang={crumb.lang} dir={crumb.dir}>
                  {crumb.label}
                </a>
              ) : (
                <span aria-current={current ? "page" : undefined} lang={crumb.lang} dir={crumb.dir}>
                  {crumb.label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
