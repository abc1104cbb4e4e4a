import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { findAttachment } from "~/interviews/attachments.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import type { Route } from "./+types/attachments.$attachmentId";

/** An uploaded file, for its owner only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const attachment = await findAttachment(user.id, params.attachmentId);
  const bytes = attachment ? await attachmentStorage().get(attachment.storage_key) : null;
  if (!attachment || !bytes) notFound(request);
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": attachment.content_type,
      "Content-Disposition": `attachment; filename="${attachment.file_name.replace(/[^\w. -]/g, "_")}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
