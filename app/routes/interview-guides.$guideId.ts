import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { getGuideSource } from "~/guides/guides.server";
import type { Route } from "./+types/interview-guides.$guideId";

/** A guide by id (the spec's "interview guides/{id}"), for signed-in people. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireUser(context, request);
  const guide = await getGuideSource(params.guideId);
  if (!guide) notFound(request);
  return new Response(guide.source, {
    headers: {
      "Content-Type": guide.format === "json" ? "application/json; charset=utf-8" : "application/xml; charset=utf-8",
      "Cache-Control": "private, max-age=300",
    },
  });
}
