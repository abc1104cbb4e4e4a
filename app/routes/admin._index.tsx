import { AdminPage } from "~/administration/admin-page";

export default function AdministrationHome() {
  return (
    <AdminPage title="Administration">
      <ul className="link-list">
        <li>
          <a href="/admin/administrators">Administrators</a>
          <p className="muted">Who can administer the service: make an account an administrator, or remove one.</p>
        </li>
        <li>
          <a href="/admin/content">Content</a>
          <p className="muted">Countries, issues, the home page, About, terms and privacy: drafts, publishing, history.</p>
        </li>
        <li>
          <a href="/admin/audit">Audit</a>
          <p className="muted">Every administrative action: who did what, when, and from which address.</p>
        </li>
      </ul>
    </AdminPage>
  );
}
