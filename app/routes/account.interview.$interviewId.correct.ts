import { redirect } from "react-router";
import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { draftFromCompleted } from "~/interviews/correct.server";
import type { Route } from "./+types/account.interview.$interviewId.correct";

// A POST only (it makes an interview): an address opened by hand goes back to the list.
export function loader() {
  return redirect("/account/interview");
}

/** "Change answers" on a completed interview: a new draft copied from it, opened on Check your answers. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const draft = await draftFromCompleted(user.id, params.interviewId);
  if (!draft) notFound(request);
  return redirect(`/issues/${draft.issueId}/interviews/${draft.id}`);
}
