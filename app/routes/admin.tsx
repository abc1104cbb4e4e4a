import { Outlet } from "react-router";
import { requireAdministrator } from "~/administration/guard.server";
import type { Route } from "./+types/admin";

// Every /admin page and form, read or write: administrators only; everyone else gets 404.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context, request }, next) => {
    requireAdministrator(context, request);
    return next();
  },
];

export default function AdminLayout() {
  return <Outlet />;
}
