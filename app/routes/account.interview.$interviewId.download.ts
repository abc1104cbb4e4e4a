import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { downloadResponse, interviewDocument } from "~/documents/documents.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { redirectWithToast } from "~/ui/toast.server";
import { recordDownload } from "~/usage/usage.server";
import type { Route } from "./+types/account.interview.$interviewId.download";

/**
 * The document of the owner's Completed interview (anyone else's, or a Draft: 404). A document that cannot
 * be made, or one past the person's or the address's limit, goes back to the interview list with the reason in
 * a message on that page, which stays until they leave it (the cause is logged). Each download counts for the
 * issue's usage (the issue and month only).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const refused = await refuseCostlyUse("documents", user.id, context.get(clientAddressContext));
  if (refused) return redirectWithToast("/account/interview", { type: "error", message: refused.message });
  const document = await interviewDocument(user.id, params.interviewId);
  if (document.kind === "not-found") notFound(request);
  if (document.kind === "unavailable") return redirectWithToast("/account/interview", { type: "error", message: document.message });
  await recordDownload(document.issueId, document.language);
  return downloadResponse(document);
}
