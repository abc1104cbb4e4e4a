import { Outlet } from "react-router";
import { requireSignedOut } from "~/auth/session.server";
import type { Route } from "./+types/auth";

// Signed-in people who open any auth page are sent to /.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context }, next) => {
    requireSignedOut(context);
    return next();
  },
];

export default function AuthLayout() {
  return <Outlet />;
}
