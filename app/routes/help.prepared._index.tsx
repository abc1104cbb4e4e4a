import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage, When } from "~/help/help-views";
import { listPrepared } from "~/help/prepared.server";
import { PreparedStatus } from "~/help/prepared-status";
import { preparedWords } from "~/help/words";
import type { Route } from "./+types/help.prepared._index";

// The interviews this helper prepared for people: waiting for the invitation, invited, expired, or taken.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = helperAtDesk(context, request);
  return { prepared: await listPrepared(user.id) };
}

export default function PreparedInterviews({ loaderData }: Route.ComponentProps) {
  return (
    <HelpDeskPage title={preparedWords.listTitle}>
      <p>
        <a className="button" href="/help/prepared/new">
          {preparedWords.newTitle}
        </a>
      </p>
      {loaderData.prepared.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">{preparedWords.listTitle}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">For</th>
                <th scope="col">Issue</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.prepared.map((item) => (
                <tr key={item.interviewId}>
                  <td>
                    <When at={item.createdAt} />
                  </td>
                  <td>
                    {item.person.firstName} {item.person.lastName}
                  </td>
                  <td>{item.issueName}</td>
                  <td>
                    <PreparedStatus prepared={item} />
                  </td>
                  <td>
                    <a className="action-link" href={`/help/prepared/${item.interviewId}`}>
                      Open
                      <span className="visually-hidden">
                        {" "}
                        the interview for {item.person.firstName} {item.person.lastName}
                      </span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>You have not prepared an interview for anyone yet.</p>
      )}
    </HelpDeskPage>
  );
}
