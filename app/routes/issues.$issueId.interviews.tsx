import { createContext, data, redirect } from "react-router";
import { requireUser, sessionContext } from "~/auth/session.server";
import { getIssue, issueInLanguage } from "~/content/content.server";
import { languageContext } from "~/request-context";
import { notFound, parseId } from "~/http.server";
import { findInterview } from "~/interviews/interviews.server";
import { languageName, readsIn } from "~/guides/guide-language";
import { guideForPerson } from "~/guides/guides.server";
import { createInterviewToken } from "~/viewer/token.server";
import { viewerUrl } from "~/viewer/viewer.server";
import { ViewerContent, viewerLang } from "~/viewer/viewer-document";
import { hostView, keepHostAnswers, pressHostForm, type ViewerView } from "~/viewer/viewer-request.server";
import { KEPT_PARAM, takeKept, userOrKeep } from "~/expiry/keep.server";
import { messageRef } from "~/i18n/translator";
import { redirectWithToast } from "~/ui/toast.server";
import { Breadcrumb } from "~/ui/breadcrumb";
import { QuickExit } from "~/ui/quick-exit";
import { countryCrumb, issueCrumb, theirs } from "~/content/language";
import { metaTranslator } from "~/i18n/meta";
import { RichText, useT } from "~/i18n/react";
import { pageTitle } from "~/ui/page-title";
import { InterviewHelpNotice } from "~/help/help-views";
import { interviewPageHelp } from "~/help/prepared.server";
import { offeredCount } from "~/reuse/start.server";
import { currentRequest, signaturePlaces } from "~/signing/requests.server";
import type { Route } from "./+types/issues.$issueId.interviews";

// The host page speaks the message layer with the viewer in its frame (public/scripts/interview-host.js).
export const handle = { scripts: ["/scripts/interview-host.js"], sessionTimeout: true };

export function meta({ data, matches }: Route.MetaArgs) {
  const t = metaTranslator(matches);
  // A sensitive issue's name stays out of the tab and the browser's history list (docs/decisions/0041).
  const named = pageTitle(data && !data.issue.sensitive ? t.t("public.interview.titleNamed", { issue: data.issue.name }) : t.t("public.interview.crumb"), false, t);
  return [{ title: data?.title ?? named }];
}

/** What a button pressed on this page's copy of the viewer brought back to show here (a page with its errors…). */
const pressedContext = createContext<{ title: string | null; view: ViewerView } | null>(null);

/** The issue and the person's interview the URL names; 404 for anything else. */
async function hostTarget(request: Request, params: Route.LoaderArgs["params"], userId: string) {
  const issueId = parseId(params.issueId);
  if (issueId === null) notFound(request);
  const issue = await getIssue(issueId);
  if (!issue) notFound(request);
  const interview = params.interviewId ? await findInterview(userId, params.interviewId) : null;
  if (params.interviewId && (!interview || interview.issueId !== issue.id)) notFound(request);
  return { issue, interview };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const language = context.get(languageContext);
  const { issue, interview } = await hostTarget(request, params, user.id);
  if (new URL(request.url).searchParams.has(KEPT_PARAM)) {
    // Back from signing in again, after a page's form was posted when the session had expired (app/expiry/):
    // what was typed is saved on its page, which is shown again with it.
    const kept = await takeKept(context, request, "interview");
    const chosenGuide = kept && issue.guideId && !interview ? await guideForPerson(issue.guideId, language) : null;
    const savedId = kept ? await keepHostAnswers(user, issue.id, interview?.id ?? null, kept, chosenGuide?.guideId ?? null) : null;
    const here = `/issues/${issue.id}/interviews${(savedId ?? interview?.id) ? `/${savedId ?? interview!.id}` : ""}#viewer-heading`;
    throw savedId ? await redirectWithToast(here, { type: "success", message: messageRef("expiry.kept.saved") }) : redirect(here);
  }
  const [help, named, chosen] = await Promise.all([
    interview ? interviewPageHelp(user.id, interview.id) : null,
    issueInLanguage(issue, language),
    issue.guideId && !interview ? guideForPerson(issue.guideId, language) : null,
  ]);
  const base = { issue: { id: issue.id, name: named.name, country: named.country, sensitive: issue.sensitive, lang: named.lang }, title: null as string | null, help };
  if (!issue.guideId || (!interview && !chosen)) return { ...base, state: "unavailable" as const };
  if (interview?.status === "Completed") {
    // A document that needs signatures: its signing page first (issue 30); once signed, a link to who has signed.
    const places = await signaturePlaces(user.id, interview.id);
    const signing = places?.markers.length ? await currentRequest(user.id, interview.id) : null;
    if (places?.markers.length && !signing) throw redirect(`/account/interview/${interview.id}/sign`);
    return { ...base, state: "completed" as const, interviewId: interview.id, signing: signing ? signing.status : null };
  }
  const guideId = chosen?.guideId ?? null;
  const viewerSrc = viewerUrl({ id: issue.id, guideId: guideId ?? issue.guideId }, interview?.id ?? null, user.id);
  const [current, reusable] = await Promise.all([
    context.get(pressedContext) ?? hostView(user, issue.id, interview?.id ?? null, guideId),
    // Before a new interview starts: the answers from before it would be offered (issue 29).
    interview ? 0 : offeredCount(user, issue.id, guideId),
  ]);
  // The interview runs in its guide's language: when that is not the person's, it says so (in their language).
  const interviewLanguage = interview?.language ?? chosen?.language ?? "en";
  return {
    ...base,
    otherLanguage: readsIn(language, interviewLanguage) ? null : languageName(interviewLanguage, language),
    // The step's page title, as the viewer's (the message layer keeps it up to date as the frame moves on).
    title: current?.title ?? null,
    state: "open" as const,
    viewerSrc,
    inline: current ? inPlace(current.view) : null,
    token: interview ? createInterviewToken(interview.id, user.id) : "",
    interviewId: interview?.id ?? null,
    reusable,
  };
}

/**
 * A button pressed on this page's copy of the viewer (without script, or before the frame has taken over): the
 * viewer's own press. Where the viewer redirects, so does this page; what it shows instead (the page with its
 * errors, an ending) is shown here, under the site's header and breadcrumb, by the loader that runs next.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  // A form posted after the session expired is kept, and the person signs in again (app/expiry/).
  const user = await userOrKeep(context, request, "interview", params.interviewId ?? null);
  const { issue, interview } = await hostTarget(request, params, user.id);
  const here = `/issues/${issue.id}/interviews${interview ? `/${interview.id}` : ""}`;
  if (!issue.guideId || interview?.status === "Completed") throw redirect(here);
  const chosen = interview ? null : await guideForPerson(issue.guideId, context.get(languageContext));
  const reply = await pressHostForm(context.get(sessionContext)!, issue.id, interview?.id ?? null, await request.formData(), chosen?.guideId ?? null);
  const headers = new Headers();
  for (const cookie of reply.setCookie ?? []) headers.append("Set-Cookie", cookie);
  if ("location" in reply) throw redirect(reply.location, { headers });
  context.set(pressedContext, { title: "documentTitle" in reply.view ? reply.view.documentTitle : null, view: reply.view });
  return data(null, { status: reply.status, headers });
}

/** The viewer's page as this page shows it: under the page's own h1 (the issue's name). */
function inPlace(view: ViewerView): ViewerView {
  return { ...view, headingLevel: 2 };
}

export default function InterviewHost({ loaderData }: Route.ComponentProps) {
  const { issue } = loaderData;
  const t = useT();
  return (
    <div className="page">
      {issue.sensitive ? <QuickExit /> : null}
      <Breadcrumb
        collapse
        crumbs={[
          { label: t.t("public.crumb.home"), href: "/" },
          countryCrumb(issue.country, t),
          issueCrumb(issue, t, `/issues/${issue.id}`),
          { label: t.t("public.interview.crumb") },
        ]}
      />
      {issue.sensitive ? (
        <h1 className="interview-host__title">{t.t("public.interview.sensitiveTitle")}</h1>
      ) : (
        <h1 className="interview-host__title" {...theirs(t, issue.lang.name)}>
          {issue.name}
        </h1>
      )}
      {loaderData.help && "interviewId" in loaderData && loaderData.interviewId ? <InterviewHelpNotice help={loaderData.help} interviewId={loaderData.interviewId} /> : null}
      {loaderData.state === "unavailable" ? <p>{t.t("public.interview.unavailable")}</p> : null}
      {loaderData.state === "completed" ? (
        <section className="congratulations" aria-labelledby="congratulations-title">
          <h2 id="congratulations-title">{t.t("public.interview.congratulations")}</h2>
          <p>{t.t("public.interview.finished")}</p>
          <p className="button-row">
            <a className="button" href={`/account/interview/${loaderData.interviewId}/download`}>
              {t.t("public.interview.getDocument")}
            </a>
            <a className="button button--secondary" href="/account/dashboard">
              {t.t("public.interview.goToAccount")}
            </a>
          </p>
          {loaderData.signing ? (
            <p>
              <a href={`/account/interview/${loaderData.interviewId}/sign`}>{loaderData.signing === "complete" ? t.t("signing.host.complete") : t.t("signing.host.waiting")}</a>
            </p>
          ) : null}
          <form method="post" action={`/account/interview/${loaderData.interviewId}/correct`}>
            <p>
              {t.t("public.interview.correct")}{" "}
              <button type="submit" className="link-button">
                {t.t("public.interview.changeAnswers")}
              </button>
            </p>
          </form>
        </section>
      ) : null}
      {loaderData.state === "open" ? (
        <>
          {loaderData.otherLanguage ? (
            <div className="notice" role="note">
              <p>{t.t("public.interview.inOtherLanguage", { language: loaderData.otherLanguage })}</p>
            </div>
          ) : null}
          {/* The page is shown here, at full size, as soon as this page arrives: without script for good (a
              frame cannot grow to its page), its form posting to this page. With script the frame loads
              it unseen and takes over at the first step, which then takes one round trip
              (public/scripts/interview-host.js; docs/decisions/0036-one-round-trip-per-step.md). */}
          {loaderData.reusable > 0 ? (
            <div className="notice" role="note">
              <p>
                <RichText id="reuse.host.offer" values={{ count: loaderData.reusable }} tags={{ link: (words) => <a href={`/issues/${issue.id}/interviews/start`}>{words}</a> }} />
              </p>
            </div>
          ) : null}
          {loaderData.inline ? (
            <div className="viewer-inline" {...viewerLang(loaderData.inline)}>
              <ViewerContent view={loaderData.inline} />
            </div>
          ) : null}
          <iframe
            className={loaderData.inline ? "viewer-frame viewer-frame--waiting" : "viewer-frame"}
            title={issue.sensitive ? t.t("public.interview.crumb") : t.t("public.interview.frameTitle", { issue: issue.name })}
            data-src={loaderData.viewerSrc}
            height={300}
            data-token={loaderData.token || undefined}
            inert={loaderData.inline ? true : undefined}
          />
          <p className="link-line">
            {loaderData.interviewId ? (
              <RichText id="reuse.host.addFile" tags={{ link: (words) => <a href={`/issues/${issue.id}/interviews/${loaderData.interviewId}/answer-file`}>{words}</a> }} />
            ) : (
              <RichText id="reuse.host.file" tags={{ link: (words) => <a href={`/issues/${issue.id}/interviews/start`}>{words}</a> }} />
            )}
          </p>
          {loaderData.interviewId && !loaderData.help?.preparingFor ? (
            <p className="link-line">
              <RichText id="public.interview.askForHelp" tags={{ link: (words) => <a href={`/account/interview/${loaderData.interviewId}/help`}>{words}</a> }} />
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

