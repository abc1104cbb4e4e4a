import { AdminPage } from "~/administration/admin-page";
import { type AuditEvent, listAuditEvents } from "~/audit/audit.server";
import { AdminTime, AdminTimeZoneName, OlderNewerPages } from "~/ui/admin-lists";
import type { Route } from "./+types/admin.audit";

/** What each recorded action says, in words. */
const actionNames: Record<string, string> = {
  "role.granted": "Made an administrator",
  "languages.changed": "Changed the languages offered",
  "role.revoked": "Removed as administrator",
  "source.added": "Added a source",
  "source.changed": "Changed a source",
  "source.deleted": "Deleted a source",
  "content.saved": "Saved a draft of content",
  "content.published": "Published content",
  "content.restored": "Restored a version of content",
  "content.deleted": "Deleted content",
  "guide.uploaded": "Uploaded a guide version",
  "guide.published": "Published a guide version",
  "guide.discarded": "Discarded a guide version",
  "guide.attached": "Attached a guide to an issue",
  "guide.detached": "Detached a guide from an issue",
  "guide.language": "Set a guide's language",
  "guide.scenario-added": "Added a test scenario to a guide",
  "guide.scenario-deleted": "Deleted a test scenario of a guide",
  "helper.granted": "Made a helper",
  "helper.limits-changed": "Changed what a helper helps with",
  "helper.revoked": "Removed as helper",
  // What helpers did on the help desk (app/help/): never the answers themselves.
  "help.taken": "Took a request for help",
  "help.answers-read": "Read shared answers",
  "help.document-downloaded": "Downloaded a shared document",
  "help.file-downloaded": "Downloaded a shared file",
  "help.replied": "Replied to a request for help",
  "help.closed": "Closed a request for help",
  "help.prepared": "Started an interview for someone",
  "help.invited": "Invited someone to their prepared interview",
  "help.cancelled": "Cancelled a prepared interview",
  // Webhook endpoints (app/webhooks/): never the secret.
  "webhook.registered": "Registered a webhook endpoint",
  "webhook.changed": "Changed a webhook endpoint",
  "webhook.secret-rotated": "Rotated a webhook endpoint's secret",
  "webhook.disabled": "Disabled a webhook endpoint",
  "webhook.enabled": "Enabled a webhook endpoint",
  "webhook.deleted": "Deleted a webhook endpoint",
  "webhook.sent-again": "Sent a webhook delivery again",
  "api-token.created": "Made an API token",
  "api-token.revoked": "Revoked an API token",
};

export async function loader({ request }: Route.LoaderArgs) {
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  return listAuditEvents(Number.isInteger(page) ? page : 1);
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { events, page, pageCount, total } = loaderData;
  return (
    <AdminPage title="Audit">
      <p>
        Every administrative action, newest first: {total} in all. Records cannot be changed or deleted.
      </p>
      {events.length ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">
              Audit records, page {page} of {pageCount}
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  When (<AdminTimeZoneName />)
                </th>
                <th scope="col">Who</th>
                <th scope="col">From</th>
                <th scope="col">What</th>
                <th scope="col">Concerning</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <AuditRow key={event.seq} event={event} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>Nothing has been recorded yet.</p>
      )}
      <OlderNewerPages path="/admin/audit" label="Audit pages" page={page} pageCount={pageCount} />
    </AdminPage>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  return (
    <tr>
      <td>
        <AdminTime at={event.happenedAt} />
      </td>
      <td>{event.actorEmail}</td>
      <td>{event.address}</td>
      <td>{actionNames[event.action] ?? event.action}</td>
      <td>
        {event.subject}
        {guideDetails(event)}
      </td>
    </tr>
  );
}

/** For a guide's record: which version, and for an attachment which issue. */
function guideDetails(event: AuditEvent): string {
  if (!event.action.startsWith("guide.")) return "";
  const { version, issueName, issue, scenario, failingScenarios } = event.details as {
    version?: number;
    issueName?: string;
    issue?: number;
    scenario?: string;
    failingScenarios?: string[];
  };
  const parts = [
    version ? `version ${version}` : "",
    issueName ? `issue ${issueName}` : issue ? `issue ${issue}` : "",
    scenario ? `scenario ${scenario}` : "",
    failingScenarios?.length ? `confirmed with failing scenarios: ${failingScenarios.join(", ")}` : "",
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}
