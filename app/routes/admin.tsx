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

// The administration is written in English only (issue 26 allows it at first): marked so, whatever the page's
// language, so that screen readers read it as English.
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminTimeZone value={loaderData.timeZone}>
      <div lang="en" dir="ltr">
        <Outlet />
      </div>
    </AdminTimeZone>
  );
}
