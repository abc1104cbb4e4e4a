import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { documentFileName, downloadResponse } from "~/documents/documents.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { storedSignedDocument } from "~/signing/requests.server";
import { redirectWithToast } from "~/ui/toast.server";
import { A2J_DATES } from "~/a2j";
import type { Route } from "./+types/account.interview.$interviewId.signed";

/** The signed, sealed document of the owner's interview, once everyone has signed (anyone else's, or not yet: 404). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const refused = await refuseCostlyUse("documents", user.id, context.get(clientAddressContext));
  if (refused) return redirectWithToast(`/account/interview/${params.interviewId}/sign`, { type: "error", message: refused.ref });
  const signed = await storedSignedDocument(user.id, params.interviewId);
  if (!signed) notFound(request);
  const base = documentFileName({
    issue: signed.issue ? { name: signed.issue.name, sensitive: signed.issue.sensitive } : null,
    what: "signed",
    madeAt: signed.updatedAt,
    dates: signed.issue?.country.dates ?? A2J_DATES,
  });
  // A sealed PDF, or a zip of it and the signed Word files when the guide makes Word documents.
  const zip = signed.bytes[0] === 0x50 && signed.bytes[1] === 0x4b;
  return downloadResponse({ bytes: signed.bytes, contentType: zip ? "application/zip" : "application/pdf", fileName: `${base}.${zip ? "zip" : "pdf"}` });
}
