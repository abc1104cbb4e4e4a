import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { datAssemble } from "~/documents/dat.server";
import { notFound } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import type { Route } from "./+types/assemble";

/**
 * Document assembly compatible with A2J DAT's (POST guideId and the answers as a JSON string; the binary
 * answer with its content type and disposition), for signed-in people (preview included) and integrations.
 * Past the person's or the address's limit: 429 with DAT's error shape and Retry-After.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const refused = await refuseCostlyUse("documents", user.id, context.get(clientAddressContext));
  if (refused) {
    return Response.json({ ok: false, error: refused.message }, { status: 429, headers: { "Retry-After": String(refused.retryAfterMinutes * 60) } });
  }
  return datAssemble(request);
}

export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}
