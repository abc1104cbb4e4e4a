import { redirect } from "react-router";
import { myDataZip } from "~/account/my-data.server";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { downloadResponse } from "~/documents/documents.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import type { Route } from "./+types/account.my-data.download";

/**
 * "Download my data": the page's plain form POSTs here (no script needed) and gets the zip as an attachment.
 * Past the limit, back to the page, which says how long to wait.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const address = context.get(clientAddressContext);
  const refused = await refuseCostlyUse("my-data", user.id, address);
  if (refused) return redirect(`/account/my-data?wait=${refused.retryAfterMinutes}`);
  const zip = await myDataZip(user.id, { address });
  if (!zip) notFound(request);
  return downloadResponse({ ...zip, contentType: "application/zip" });
}

export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}
