import { actorOf } from "~/administration/guard.server";
import { recordAuditEvent } from "~/audit/audit.server";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { downloadResponse } from "~/documents/documents.server";
import { helperAtDesk } from "~/help/guard.server";
import { openRequest, recordView, sharedFiles } from "~/help/shares.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/help.requests.$shareId.files.$attachmentId";

/**
 * A file the person uploaded to the shared interview, opened for this request, for the helper who took the
 * request while it shares files; limited per helper, recorded in the audit and shown to the person.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const helper = helperAtDesk(context, request);
  const found = await openRequest(helper.user.id, helper.limits, params.shareId);
  if (!found?.mine || !found.files) notFound(request);
  const file = (await sharedFiles(found)).find((candidate) => candidate.id === params.attachmentId);
  if (!file) notFound(request);
  const refused = await refuseCostlyUse("help-files", helper.user.id, context.get(clientAddressContext));
  if (refused) return redirectWithToast(`/help/requests/${found.id}`, { type: "error", message: refused.message });
  const bytes = await attachmentStorage().get(file.storageKey);
  if (!bytes) notFound(request);
  await recordView(found, helper.user, "file", file.id);
  await recordAuditEvent(actorOf(helper.user, context), { action: "help.file-downloaded", subject: `request ${found.id}`, details: { issue: found.issueName, file: file.id } });
  return downloadResponse({ bytes, contentType: file.contentType, fileName: file.fileName });
}
