import { createContext, type RouterContextProvider } from "react-router";
import { type HelperLimits, helperScope } from "~/administration/roles.server";
import { currentUser, type SessionUser } from "~/auth/session.server";
import { notFound } from "~/http.server";

export interface HelperAtDesk {
  user: SessionUser;
  /** What they may help with, read for this request. */
  limits: HelperLimits;
}

const helperContext = createContext<HelperAtDesk | null>(null);

/**
 * For every /help page and form (routes/help.tsx): anyone who is not a signed-in helper gets the not-found page,
 * as for a path that does not exist. The helper's limits are read once per request, so a helper removed or
 * narrowed loses what they lost at their next click, on every instance.
 */
export async function admitHelper(context: Readonly<RouterContextProvider>, request: Request): Promise<void> {
  const user = currentUser(context);
  const limits = user?.helper ? await helperScope(user.id) : null;
  if (!user || !limits) notFound(request);
  context.set(helperContext, { user, limits });
}

/** The helper of a /help request (admitHelper let them in). */
export function helperAtDesk(context: Readonly<RouterContextProvider>, request: Request): HelperAtDesk {
  const helper = context.get(helperContext);
  if (!helper) notFound(request);
  return helper;
}
