export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p className="site-footer__copyright">© {new Date().getFullYear()} Legal Self-Help</p>
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            <li>
              <a href="/support/contact-us/">Contact Us</a>
            </li>
            <li>
              <a href="/legal/terms-and-conditions/">Terms &amp; Conditions</a>
            </li>
            <li>
              <a href="/legal/privacy-policies">Privacy Policy</a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
