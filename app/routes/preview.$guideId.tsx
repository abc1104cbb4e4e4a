import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { notFound, tooManyRequests } from "~/http.server";
import { getGuideSource } from "~/guides/guides.server";
import { previewViewerUrl } from "~/viewer/viewer.server";
import { clientAddressContext } from "~/request-context";
import { Breadcrumb } from "~/ui/breadcrumb";
import type { Route } from "./+types/preview.$guideId";

export const handle = { scripts: ["/scripts/interview-host.js"] };

// Who may preview: any signed-in person (docs/decisions/0005-preview.md). Nothing is saved.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, "/auth/sign-in");
  const guide = await getGuideSource(params.guideId);
  if (!guide) notFound(request);
  const refused = await refuseCostlyUse("preview", user.id, context.get(clientAddressContext));
  if (refused) tooManyRequests(refused.message, refused.retryAfterMinutes);
  return { title: guide.title, viewerSrc: previewViewerUrl(guide.id) };
}

export default function Preview({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <title>{`Preview: ${loaderData.title} | Legal Self-Help`}</title>
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, { label: "Preview" }]} />
      <h1>Preview: {loaderData.title}</h1>
      <p>This is a preview of the interview. Nothing you enter is saved, and the buttons that end an interview only say what they would do.</p>
      <iframe className="viewer-frame" title={`Interview preview: ${loaderData.title}`} src={loaderData.viewerSrc} height={300} />
    </div>
  );
}
