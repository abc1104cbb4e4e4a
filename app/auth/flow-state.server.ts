import { createCookie } from "react-router";
import { z } from "zod";
import { config } from "~/config.server";
import { safeReturnPath } from "./return-to";

/**
 * What the spec passes in navigation state between auth pages (the email a link was sent to, the kind of
 * email problem, that a reset just happened), kept instead in a signed, short-lived cookie so the pages work
 * without script and cannot be forged. Pages that need it and find none send the person to /.
 */
const flowStateSchema = z.object({
  email: z.string().optional(),
  problem: z.enum(["expired", "used", "unknown", "not-verified"]).optional(),
  passwordReset: z.boolean().optional(),
  accountDeleted: z.boolean().optional(),
  /** Where the person goes once signed in (app/auth/return-to.ts; checked again when read). */
  returnTo: z.string().optional(),
});

export type FlowState = z.infer<typeof flowStateSchema>;

function flowCookie() {
  return createCookie("__auth_flow", {
    httpOnly: true,
    secure: config().isHttps,
    sameSite: "lax",
    path: "/auth",
    maxAge: 60 * 60,
    secrets: config().sessionSecrets,
  });
}

export async function readFlowState(request: Request): Promise<FlowState> {
  const parsed = flowStateSchema.safeParse(await flowCookie().parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : {};
}

/** The Set-Cookie header that carries this state to the next page. */
export function writeFlowState(state: FlowState): Promise<string> {
  return flowCookie().serialize(state);
}

/** The return address the flow carries, checked again: the page to go to once signed in. */
export async function flowReturn(request: Request): Promise<string | null> {
  return safeReturnPath((await readFlowState(request)).returnTo);
}

/** A redirect's headers: each Set-Cookie given (a session and the flow state, say). */
export function setCookies(...cookies: (string | null | undefined)[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) if (cookie) headers.append("Set-Cookie", cookie);
  return headers;
}
