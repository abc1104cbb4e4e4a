import { AdminPage } from "~/administration/admin-page";

export default function AdministrationHome() {
  return (
    <AdminPage title="Administration">
      <ul className="link-list">
        <li>
          <a href="/admin/administrators">Administrators and helpers</a>
          <p className="muted">Who can administer the service, and who helps people on the help desk with which countries and issues.</p>
        </li>
        <li>
          <a href="/admin/languages">Languages</a>
          <p className="muted">Which languages people can choose for the site, and how far each translation has been reviewed.</p>
        </li>
        <li>
          <a href="/admin/reminders">Reminders</a>
          <p className="muted">How many days after a person saves and leaves their unfinished interview an email reminds them, or no reminders.</p>
        </li>
        <li>
          <a href="/admin/content">Content</a>
          <p className="muted">Countries, issues, the home page, About, terms and privacy: drafts, publishing, history.</p>
        </li>
        <li>
          <a href="/admin/usage">Usage</a>
          <p className="muted">How each issue is used: interviews started, completed and abandoned by month, where people stop, and documents downloaded.</p>
        </li>
        <li>
          <a href="/admin/sources">Sources</a>
          <p className="muted">The organisation's sources that "Understand my situation" answers from: add, read and delete them.</p>
        </li>
        <li>
          <a href="/admin/guides">Guides</a>
          <p className="muted">Upload interview guides, read their import report, publish them, and attach them to issues.</p>
        </li>
        <li>
          <a href="/admin/api">API tokens</a>
          <p className="muted">Tokens for the organisation's own systems to use the API: make them, see when each was last used, revoke them.</p>
        </li>
        <li>
          <a href="/admin/webhooks">Webhooks</a>
          <p className="muted">Addresses of the organisation's own systems that are told, signed, when people ask for help, share, complete or stop sharing: deliveries, attempts, Send again.</p>
        </li>
        <li>
          <a href="/admin/audit">Audit</a>
          <p className="muted">Every administrative action: who did what, when, and from which address.</p>
        </li>
        <li>
          <a href="/admin/ai-calls">AI calls</a>
          <p className="muted">Every call made to the AI: what for, which issue and model, tokens, the sources used, how it ended.</p>
        </li>
      </ul>
    </AdminPage>
  );
}
