import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { notFound, tooManyRequests } from "~/http.server";
import { getGuideSource } from "~/guides/guides.server";
import { previewViewerUrl } from "~/viewer/viewer.server";
import { clientAddressContext } from "~/request-context";
import { Breadcrumb } from "~/ui/breadcrumb";
import type { Route } from "./+types/preview.$guideId";

export const handle = { scripts: ["/scripts/interview-host.js"] };

// Who may preview: any signed-in person (docs/decisions/0005-preview.md); a version by number (`?version=2`,
// which may be an upload not yet published) only administrators (docs/decisions/0029-guide-versions.md).
// Nothing is saved.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const search = new URL(request.url).searchParams;
  const asked = search.get("version");
  // A page to open at (the health check's links): shown as the page says, the start's answers only.
  const page = search.get("page");
  if (asked !== null && (!user.administrator || !/^[1-9][0-9]{0,5}$/.test(asked))) notFound(request);
  const version = asked === null ? undefined : Number(asked);
  const guide = await getGuideSource(params.guideId, undefined, version);
  if (!guide) notFound(request);
  const refused = await refuseCostlyUse("preview", user.id, context.get(clientAddressContext));
  if (refused) tooManyRequests(refused.message, refused.retryAfterMinutes);
  const title = version === undefined ? guide.title : `${guide.title} (version ${guide.version}${guide.published_at ? "" : ", not published"})`;
  return { title, page, viewerSrc: previewViewerUrl(guide.id, version ?? null, page) };
}

export default function Preview({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <title>{`Preview: ${loaderData.title} | Legal Self-Help`}</title>
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, { label: "Preview" }]} />
      <h1>Preview: {loaderData.title}</h1>
      <p>This is a preview of the interview. Nothing you enter is saved, and the buttons that end an interview only say what they would do.</p>
      {loaderData.page ? <p>It opens at the page “{loaderData.page}”, as the guide shows it, with no answers given before it.</p> : null}
      <iframe className="viewer-frame" title={`Interview preview: ${loaderData.title}`} src={loaderData.viewerSrc} height={300} />
    </div>
  );
}
