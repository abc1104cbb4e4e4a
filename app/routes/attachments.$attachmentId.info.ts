import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { findAttachment } from "~/interviews/attachments.server";
import type { Route } from "./+types/attachments.$attachmentId.info";

/** An attachment's info (its url), for its owner only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const attachment = await findAttachment(user.id, params.attachmentId);
  if (!attachment) notFound(request);
  return Response.json({ url: attachment.url }, { headers: { "Cache-Control": "no-store" } });
}
