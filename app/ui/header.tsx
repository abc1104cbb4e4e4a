import { useT } from "~/i18n/react";
import { Logo } from "./logo";

export interface HeaderUser {
  firstName: string;
  lastName: string;
  /** Shows the "Administration" link. */
  administrator?: boolean;
  /** Shows the "Help desk" link. */
  helper?: boolean;
}

export function fullName(user: HeaderUser): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** The same page in one of the languages offered (app/i18n/language.server.ts). */
export interface LanguageLink {
  code: string;
  /** The language named in itself. */
  name: string;
  href: string;
  current: boolean;
}

export function Header({ user, languages = [] }: { user: HeaderUser | null; languages?: LanguageLink[] }) {
  const { t } = useT();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <a className="site-header__logo" href="/">
          <Logo />
          <span className="visually-hidden">{t("site.home")}</span>
        </a>
        <nav className="site-header__nav" aria-label={t("header.nav")}>
          <LanguageSwitcher languages={languages} />
          <a className="nav-link" href="/about">
            {t("header.about")}
          </a>
          {user ? <SignedInControls user={user} /> : <a className="button button--small" href="/auth/sign-in">{t("header.signIn")}</a>}
        </nav>
      </div>
    </header>
  );
}

/**
 * Every language offered, each named in itself and marked with its own `lang`, as plain links to this page in
 * it: a <details> needs no script. Shown only when there is a choice.
 */
function LanguageSwitcher({ languages }: { languages: LanguageLink[] }) {
  const { t } = useT();
  const current = languages.find((language) => language.current);
  if (languages.length < 2 || !current) return null;
  return (
    <details className="language-switcher">
      <summary className="nav-link">
        <Globe />
        <span className="visually-hidden">{t("language.label")}: </span>
        <span lang={current.code}>{current.name}</span>
        <Caret />
      </summary>
      <ul className="site-header__menu-panel language-switcher__list" aria-label={t("language.label")}>
        {languages.map((language) => (
          <li key={language.code}>
            <a className="nav-link" href={language.href} lang={language.code} hrefLang={language.code} aria-current={language.current ? "true" : undefined}>
              {language.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A globe, drawn: the sign for "language" that needs no words. */
function Globe() {
  return (
    <svg className="language-switcher__globe" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="8.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M1.75 10h16.5M10 1.75c-2.6 2.4-3.75 5.2-3.75 8.25S7.4 15.85 10 18.25c2.6-2.4 3.75-5.2 3.75-8.25S12.6 4.15 10 1.75z" fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

function SignedInControls({ user }: { user: HeaderUser }) {
  const { t } = useT();
  const signOut = (
    <form method="post" action="/auth/sign-out">
      <button type="submit" className="nav-link nav-link--button">
        {t("header.signOut")}
      </button>
    </form>
  );
  // The area of the account's role, if it has one.
  const roleArea = user.administrator ? (
    <a className="nav-link" href="/admin">
      {t("header.administration")}
    </a>
  ) : user.helper ? (
    <a className="nav-link" href="/help">
      {t("header.helpDesk")}
    </a>
  ) : null;
  return (
    <>
      <span className="site-header__wide">
        <span className="site-header__welcome">{t("header.welcome", { name: fullName(user) })}</span>
        {roleArea}
        <a className="nav-link" href="/account/dashboard">
          {t("header.account")}
        </a>
        {signOut}
      </span>
      {/* On narrow screens the name opens a menu; a <details> needs no script. */}
      <details className="site-header__menu">
        <summary className="nav-link">
          <span translate="no">{fullName(user)}</span>
          <Caret />
        </summary>
        <div className="site-header__menu-panel">
          {roleArea}
          <a className="nav-link" href="/account/dashboard">
            {t("header.account")}
          </a>
          {signOut}
        </div>
      </details>
    </>
  );
}

/** The ▾ after the name, drawn rather than typed: no symbol font to fetch, and it takes the text colour. */
function Caret() {
  return (
    <svg className="site-header__caret" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
      <path d="M0 0H10L5 10Z" fill="currentColor" />
    </svg>
  );
}
