import { actorOf } from "~/administration/guard.server";
import { recordAuditEvent } from "~/audit/audit.server";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { downloadResponse, interviewDocument } from "~/documents/documents.server";
import { helperAtDesk } from "~/help/guard.server";
import { openRequest, recordView } from "~/help/shares.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/help.requests.$shareId.document";

/**
 * The shared document, assembled from the person's interview for this request, for the helper who took the
 * request; under the same limit as the person's own downloads (it costs the same), recorded in the audit and
 * shown to the person. Anyone else, or once the share ends: 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const helper = helperAtDesk(context, request);
  const found = await openRequest(helper.user.id, helper.limits, params.shareId);
  if (!found?.mine || !found.documents) notFound(request);
  const back = `/help/requests/${found.id}`;
  const refused = await refuseCostlyUse("documents", helper.user.id, context.get(clientAddressContext));
  if (refused) return redirectWithToast(back, { type: "error", message: refused.message });
  const document = await interviewDocument(found.ownerId, found.interviewId);
  if (document.kind === "not-found") notFound(request);
  if (document.kind === "unavailable") return redirectWithToast(back, { type: "error", message: document.message });
  await recordView(found, helper.user, "document");
  await recordAuditEvent(actorOf(helper.user, context), { action: "help.document-downloaded", subject: `request ${found.id}`, details: { issue: found.issueName } });
  return downloadResponse(document);
}
