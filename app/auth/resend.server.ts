import { data, redirect, type RouterContextProvider } from "react-router";
import { clientAddressContext } from "~/request-context";
import { redirectWithToast } from "~/ui/toast.server";
import { type FlowState, readFlowState } from "./flow-state.server";
import { RateLimitError } from "./rate-limit.server";

/** The flow state a page needs, or a redirect to / when the person did not arrive through the flow. */
export async function requireFlowState<K extends keyof FlowState>(request: Request, key: K): Promise<FlowState & Required<Pick<FlowState, K>>> {
  const state = await readFlowState(request);
  if (state[key] === undefined) throw redirect("/");
  return state as FlowState & Required<Pick<FlowState, K>>;
}

/**
 * The "send it again" buttons: send to the email the flow carries, then come back to the same page with a
 * toast ("Successfully resent.", "Password resent.": references to the catalogue). A reached limit is no toast: the person must wait, so the
 * page itself says so (`problem`, status 429) until they leave it.
 */
export async function resendAndReturn(
  request: Request,
  context: Readonly<RouterContextProvider>,
  send: (email: string, address: string) => Promise<void>,
  successMessage: string,
) {
  const { email } = await requireFlowState(request, "email");
  const back = new URL(request.url).pathname;
  try {
    await send(email, context.get(clientAddressContext));
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error;
    return data({ problem: error.ref }, { status: 429 });
  }
  return redirectWithToast(back, { type: "success", message: successMessage });
}
