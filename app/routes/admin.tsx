import { Outlet } from "react-router";
import { requireAdministrator } from "~/administration/guard.server";
import { config } from "~/config.server";
import { AdminTimeZone } from "~/ui/admin-lists";
import type { Route } from "./+types/admin";

// Every /admin page and form, read or write: administrators only; everyone else gets 404.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context, request }, next) => {
    requireAdministrator(context, request);
    return next();
  },
];

// Times on every administration page are in the organisation's time zone.
export function loader() {
  return { timeZone: config().TIME_ZONE };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminTimeZone value={loaderData.timeZone}>
      <Outlet />
    </AdminTimeZone>
  );
}
