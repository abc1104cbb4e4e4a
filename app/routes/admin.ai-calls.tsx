import { AdminPage } from "~/administration/admin-page";
import { type AiCallView, listAiCalls } from "~/ai/call-log.server";
import { config } from "~/config.server";
import { AdminTime, AdminTimeZoneName, OlderNewerPages } from "~/ui/admin-lists";
import type { Route } from "./+types/admin.ai-calls";

const purposes: Record<string, string> = {
  rephrase: "Rephrase with AI",
  understand: "Understand my situation",
  document: "Use a document I have",
};

export async function loader({ request }: Route.LoaderArgs) {
  const page = Number(new URL(request.url).searchParams.get("page") ?? 1);
  const settings = config();
  return {
    ...(await listAiCalls(Number.isInteger(page) ? page : 1)),
    transcripts: settings.AI_TRANSCRIPTS,
    retentionDays: settings.AI_CALL_RETENTION_DAYS,
    transcriptRetentionDays: settings.AI_TRANSCRIPT_RETENTION_DAYS,
  };
}

export default function AiCalls({ loaderData }: Route.ComponentProps) {
  const { calls, page, pageCount, total, transcripts, retentionDays, transcriptRetentionDays } = loaderData;
  return (
    <AdminPage title="AI calls">
      <p>
        Every call made to the AI, newest first: {total} in all, kept {retentionDays} days. Each record says what the call
        was for, the issue, the model, the tokens used, the source passages it was given and how it ended.{" "}
        {transcripts
          ? `Transcripts are on: what was sent (with personal details replaced) and answered is kept for ${transcriptRetentionDays} days.`
          : "No personal text is kept: transcripts are off. Whoever runs the server can turn them on (the AI_TRANSCRIPTS setting in the README)."}
      </p>
      {calls.length ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">
              AI calls, page {page} of {pageCount}
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  When (<AdminTimeZoneName />)
                </th>
                <th scope="col">For</th>
                <th scope="col">Issue</th>
                <th scope="col">Model</th>
                <th scope="col">Tokens (sent / answered)</th>
                <th scope="col">Passages</th>
                <th scope="col">Reading grade</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((call) => (
                <CallRow key={call.id} call={call} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No AI call has been made yet.</p>
      )}
      {transcripts && calls.some((call) => call.transcript) ? (
        <>
          <h2>Transcripts on this page</h2>
          {calls
            .filter((call) => call.transcript)
            .map((call) => (
              <details key={call.id} className="transcript">
                <summary>
                  <AdminTime at={call.happenedAt} />: {purposes[call.purpose] ?? call.purpose}
                </summary>
                {call.transcript!.sent.map((message, index) => (
                  <div key={index}>
                    <h3 className="transcript__role">{message.role}</h3>
                    <pre className="transcript__text">{message.content}</pre>
                  </div>
                ))}
                <h3 className="transcript__role">answer</h3>
                <pre className="transcript__text">{call.transcript!.answer}</pre>
              </details>
            ))}
        </>
      ) : null}
      <OlderNewerPages path="/admin/ai-calls" label="AI call pages" page={page} pageCount={pageCount} />
    </AdminPage>
  );
}

function CallRow({ call }: { call: AiCallView }) {
  return (
    <tr>
      <td>
        <AdminTime at={call.happenedAt} />
      </td>
      <td>{purposes[call.purpose] ?? call.purpose}</td>
      <td>{call.issueName ?? (call.issueId === null ? "—" : `Issue ${call.issueId} (deleted)`)}</td>
      <td>{call.model}</td>
      <td>
        {call.promptTokens} / {call.completionTokens}
      </td>
      <td>{call.passageIds.length ? call.passageIds.join(", ") : "—"}</td>
      <td>{call.readingGrade ?? "—"}</td>
      <td>{call.outcome}</td>
    </tr>
  );
}
