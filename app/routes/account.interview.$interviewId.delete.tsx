import { AccountPage } from "~/account/account-page";
import { requireUser } from "~/auth/session.server";
import { forgetGivenAnswers } from "~/guide-checks/given-answers.server";
import { notFound } from "~/http.server";
import { DeleteConfirmation, listHref } from "~/interviews/interview-table";
import { deleteInterview, findInterview } from "~/interviews/interviews.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/account.interview.$interviewId.delete";

/** Only back to the list, whatever the form says. */
function safeBack(value: FormDataEntryValue | string | null): string {
  return typeof value === "string" && /^\/account\/interview(\?page=\d+&size=\d+)?$/.test(value) ? value : listHref(1, 5);
}

// The confirmation page for browsers without popover dialogs.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const interview = await findInterview(user.id, params.interviewId);
  if (!interview) notFound(request);
  return { interview, back: safeBack(new URL(request.url).searchParams.get("back")) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const back = safeBack((await request.formData()).get("back"));
  if (!(await deleteInterview(user.id, params.interviewId))) notFound(request);
  await forgetGivenAnswers([params.interviewId]);
  return redirectWithToast(back, { type: "success", message: messageRef("account.interviews.deleted") });
}

export default function DeleteInterview({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <AccountPage title={t("account.interviews.title")}>
      <DeleteConfirmation
        item={loaderData.interview}
        back={loaderData.back}
        cancel={
          <a className="button button--secondary" href={loaderData.back}>
            {t("account.interviews.keep")}
          </a>
        }
      />
    </AccountPage>
  );
}

