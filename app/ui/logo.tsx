import { useT } from "~/i18n/react";

/** The product mark: a set of scales and the name; decorative, the link around it carries the text. */
export function Logo() {
  const { t } = useT();
  return (
    <span className="logo" aria-hidden="true">
      <svg width="32" height="32" viewBox="0 0 32 32" focusable="false">
        <circle cx="16" cy="16" r="16" fill="#1565c0" />
        <path
          d="M16 7v17M10 24h12M8 11h16M11 11l-3.5 7h7zM21 11l-3.5 7h7z"
          stroke="#fff"
          strokeWidth="1.6"
          strokeLinejoin="round"
          fill="none"
        />
      </svg>
      <span className="logo__text">{t("site.name")}</span>
    </span>
  );
}
