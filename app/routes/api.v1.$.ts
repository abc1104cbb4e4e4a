import { answerApi } from "~/api/dispatch.server";
import { clientAddressContext } from "~/request-context";
import type { Route } from "./+types/api.v1.$";

// The organisation's API (docs/decisions/0056-the-api.md): every path and method under /api/v1, answered by the
// table of endpoints. Bearer tokens only: the edge drops the request's cookies before it gets here (server/app.ts).
export function loader({ request, context }: Route.LoaderArgs) {
  return answerApi(request, context.get(clientAddressContext));
}

export function action({ request, context }: Route.ActionArgs) {
  return answerApi(request, context.get(clientAddressContext));
}
