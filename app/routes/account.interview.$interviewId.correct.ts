import { redirect } from "react-router";
import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { draftFromCompleted } from "~/interviews/correct.server";
import { messageRef } from "~/i18n/translator";
import { answersChanging } from "~/signing/requests.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/account.interview.$interviewId.correct";

// A POST only (it makes an interview): an address opened by hand goes back to the list.
export function loader() {
  return redirect("/account/interview");
}

/**
 * "Change answers" on a completed interview: a new draft copied from it, opened on Check your answers. A document
 * signed, or sent for signing, is never changed: the new version is unsigned (a request still waiting stops, its
 * links no longer work), and the page says so (docs/decisions/0055).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const draft = await draftFromCompleted(user.id, params.interviewId);
  if (!draft) notFound(request);
  const { wasSigned } = await answersChanging(user.id, params.interviewId);
  const next = `/issues/${draft.issueId}/interviews/${draft.id}`;
  if (wasSigned) return redirectWithToast(next, { type: "success", message: messageRef("signing.newVersion") });
  return redirect(next);
}
