import { requireUser } from "~/auth/session.server";
import { datAssemble } from "~/documents/dat.server";
import { notFound } from "~/http.server";
import type { Route } from "./+types/assemble";

/**
 * Document assembly compatible with A2J DAT's (POST guideId and the answers as a JSON string; the binary
 * answer with its content type and disposition), for signed-in people (preview included) and integrations.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireUser(context, "/auth/sign-in");
  return datAssemble(request);
}

export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}
