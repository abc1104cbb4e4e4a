import { aiAvailable } from "~/ai/chat.server";
import { withReturn } from "~/auth/return-to";
import { currentUser } from "~/auth/session.server";
import { issueHasSources } from "~/sources/sources.server";
import { countryCrumb, issueCrumb, theirs } from "~/content/language";
import { metaTranslator } from "~/i18n/meta";
import { RichText, useT } from "~/i18n/react";
import { pageTitle } from "~/ui/page-title";
import { getIssue, issueInLanguage, readOrEmpty } from "~/content/content.server";
import { NotYetTranslated } from "~/content/not-yet-translated";
import { languageContext } from "~/request-context";
import { notFound, parseId } from "~/http.server";
import { Breadcrumb } from "~/ui/breadcrumb";
import { Prose } from "~/ui/markdown";
import { markdownToHtml } from "~/ui/markdown.server";
import { QuickExit, QuickExitExplained } from "~/ui/quick-exit";
import type { Route } from "./+types/issues.$issueId";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = parseId(params.issueId);
  if (id === null) notFound(request);
  const language = context.get(languageContext);
  const read = async () => {
    const found = await getIssue(id);
    return found ? issueInLanguage(found, language) : null;
  };
  const issue = await readOrEmpty<Awaited<ReturnType<typeof read>> | "failed">(`issue ${id}`, read, "failed");
  if (issue === null) notFound(request);
  // A failed read shows the page without content, not an error page.
  const shown =
    issue === "failed"
      ? null
      : { id: issue.id, name: issue.name, country: issue.country, html: markdownToHtml(issue.content), sensitive: issue.sensitive, lang: issue.lang };
  // "Understand my situation" only where it can help: an AI to explain, and sources on this issue to cite.
  const understand = shown !== null && aiAvailable() && (await issueHasSources({ id: shown.id, countryId: shown.country.id }));
  return { issue: shown, signedIn: currentUser(context) !== null, understand };
}

// A sensitive issue's name stays out of the tab and the browser's history list (docs/decisions/0028).
export function meta({ data, matches }: Route.MetaArgs) {
  const t = metaTranslator(matches);
  return [{ title: data?.issue && !data.issue.sensitive ? pageTitle(data.issue.name, false, t) : t.t("site.name") }];
}

export default function IssuePage({ loaderData: { issue, signedIn, understand } }: Route.ComponentProps) {
  const t = useT();
  return (
    <div className="page">
      {issue?.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        crumbs={[
          { label: t.t("public.crumb.home"), href: "/" },
          ...(issue ? [countryCrumb(issue.country, t), issueCrumb(issue, t)] : []),
        ]}
      />
      {issue?.sensitive ? <QuickExitExplained /> : null}
      <article className="issue">
        {issue ? <NotYetTranslated lang={issue.lang.content} /> : null}
        {issue ? <h1 {...theirs(t, issue.lang.name)}>{issue.name}</h1> : <h1>{t.t("public.issue.fallbackTitle")}</h1>}
        {issue ? <Prose html={issue.html} {...theirs(t, issue.lang.content)} /> : null}
        <p className="button-row">
          {signedIn && issue ? (
            <a className="button" href={`/issues/${issue.id}/interviews`}>
              {t.t("public.issue.startNow")}
            </a>
          ) : (
            <a className="button" href={withReturn("/auth/sign-in", issue ? `/issues/${issue.id}/interviews` : null)}>
              {t.t("header.signIn")}
            </a>
          )}
        </p>
        {issue && understand ? (
          <p className="link-line">
            <RichText id="public.issue.understand" tags={{ link: (words) => <a href={`/issues/${issue.id}/understand`}>{words}</a> }} />
          </p>
        ) : null}
      </article>
    </div>
  );
}
