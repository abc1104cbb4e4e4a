import { Outlet } from "react-router";
import { admitHelper } from "~/help/guard.server";
import type { Route } from "./+types/help";

// Every /help page and form, read or write: helpers only, with their limits read for the request; everyone else gets 404.
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context, request }, next) => {
    await admitHelper(context, request);
    return next();
  },
];

// The helpers' desk is for the organisation's staff and written in English only, like the administration.
export default function HelpDeskLayout() {
  return (
    <div lang="en" dir="ltr">
      <Outlet />
    </div>
  );
}
