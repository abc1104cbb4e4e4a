import { aiAvailable } from "~/ai/chat.server";
import { withReturn } from "~/auth/return-to";
import { currentUser } from "~/auth/session.server";
import { issueHasSources } from "~/sources/sources.server";
import { getIssue, type Issue, readOrEmpty } from "~/content/content.server";
import { notFound, parseId } from "~/http.server";
import { Breadcrumb } from "~/ui/breadcrumb";
import { Prose } from "~/ui/markdown";
import { markdownToHtml } from "~/ui/markdown.server";
import { issueLabel, QuickExit, QuickExitExplained } from "~/ui/quick-exit";
import type { Route } from "./+types/issues.$issueId";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.issueId);
  if (id === null) notFound(request);
  const issue = await readOrEmpty<Issue | null | "failed">(`issue ${id}`, () => getIssue(id), "failed");
  if (issue === null) notFound(request);
  // A failed read shows the page without content, not an error page.
  const shown =
    issue === "failed" ? null : { id: issue.id, name: issue.name, country: issue.country, html: markdownToHtml(issue.content), sensitive: issue.sensitive };
  // "Understand my situation" only where it can help: an AI to explain, and sources on this issue to cite.
  const understand = shown !== null && aiAvailable() && (await issueHasSources({ id: shown.id, countryId: shown.country.id }));
  return { issue: shown, signedIn: currentUser(context) !== null, understand };
}

// A sensitive issue's name stays out of the tab and the browser's history list (docs/decisions/0028).
export function meta({ data }: Route.MetaArgs) {
  return [{ title: data?.issue && !data.issue.sensitive ? `${data.issue.name} | Legal Self-Help` : "Legal Self-Help" }];
}

export default function IssuePage({ loaderData: { issue, signedIn, understand } }: Route.ComponentProps) {
  return (
    <div className="page">
      {issue?.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: "Home", href: "/" },
          ...(issue
            ? [{ label: issue.country.name, href: `/?country=${issue.country.id}` }, { label: issueLabel(issue) }]
            : []),
        ]}
      />
      {issue?.sensitive ? <QuickExitExplained /> : null}
      <article className="issue">
        <h1>{issue?.name ?? "Legal issue"}</h1>
        {issue ? <Prose html={issue.html} /> : null}
        <p className="button-row">
          {signedIn && issue ? (
            <a className="button" href={`/issues/${issue.id}/interviews`}>
              Start now
            </a>
          ) : (
            <a className="button" href={withReturn("/auth/sign-in", issue ? `/issues/${issue.id}/interviews` : null)}>
              Sign In
            </a>
          )}
        </p>
        {issue && understand ? (
          <p className="link-line">
            <a href={`/issues/${issue.id}/understand`}>Understand my situation</a>: ask about it in your own words and see
            what our sources say.
          </p>
        ) : null}
      </article>
    </div>
  );
}
