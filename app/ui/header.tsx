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

export function Header({ user }: { user: HeaderUser | null }) {
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <a className="site-header__logo" href="/">
          <Logo />
          <span className="visually-hidden">Legal Self-Help, home</span>
        </a>
        <nav className="site-header__nav" aria-label="Main">
          <a className="nav-link" href="/about">
            About
          </a>
          {user ? <SignedInControls user={user} /> : <a className="button button--small" href="/auth/sign-in">Sign In</a>}
        </nav>
      </div>
    </header>
  );
}

function SignedInControls({ user }: { user: HeaderUser }) {
  const signOut = (
    <form method="post" action="/auth/sign-out">
      <button type="submit" className="nav-link nav-link--button">
        Sign out
      </button>
    </form>
  );
  // The area of the account's role, if it has one.
  const roleArea = user.administrator ? (
    <a className="nav-link" href="/admin">
      Administration
    </a>
  ) : user.helper ? (
    <a className="nav-link" href="/help">
      Help desk
    </a>
  ) : null;
  return (
    <>
      <span className="site-header__wide">
        <span className="site-header__welcome">Welcome {fullName(user)}</span>
        {roleArea}
        <a className="nav-link" href="/account/dashboard">
          Your account
        </a>
        {signOut}
      </span>
      {/* On narrow screens the name opens a menu; a <details> needs no script. */}
      <details className="site-header__menu">
        <summary className="nav-link">
          {fullName(user)}
          <Caret />
        </summary>
        <div className="site-header__menu-panel">
          {roleArea}
          <a className="nav-link" href="/account/dashboard">
            Your account
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
