import { notFound } from "~/http.server";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

// Rendered by the root error boundary, which shows the not-found page for every 404.
export default function NotFoundRoute() {
  return null;
}

export function action({ request }: Route.ActionArgs) {
  notFound(request);
}
