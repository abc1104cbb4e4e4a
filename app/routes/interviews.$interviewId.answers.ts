import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { interviewAnswersAnx } from "~/interviews/interviews.server";
import type { Route } from "./+types/interviews.$interviewId.answers";

/** The ANX answer file of the person's interview (the viewer's getDataUrl). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const anx = await interviewAnswersAnx(user.id, params.interviewId);
  if (anx === null) notFound(request);
  return new Response(anx, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "no-store" } });
}
