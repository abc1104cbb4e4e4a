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
          <a href="/admin/guides">Guides</a>
          <p className="muted">Upload interview guides, read their import report, publish them, and attach them to issues.</p>
        </li>
        <li>
          <a href="/admin/audit">Audit</a>
          <p className="muted">Every administrative action: who did what, when, and from which address.</p>
        </li>
      </ul>
    </AdminPage>
  );
}
