import { Outlet } from "react-router";
import { requireUser } from "~/auth/session.server";
import type { Route } from "./+types/account";

// Every /account page needs a signed-in person; others are sent to sign in, and come back here after.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    requireUser(context, request);
    return next();
  },
];

export default function AccountLayout() {
  return <Outlet />;
}
