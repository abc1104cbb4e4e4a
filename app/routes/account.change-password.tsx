import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AccountPage } from "~/account/account-page";
import { accountMessages, changePassword } from "~/account/account.server";
import { changePasswordSchema } from "~/account/schemas";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { useT } from "~/i18n/react";
import { requireUser, sessionContext } from "~/auth/session.server";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/account.change-password";

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const submission = parseWithZod(await request.formData(), { schema: changePasswordSchema });
  if (submission.status !== "success") return invalid(submission);
  const { currentPassword, password } = submission.value;
  return limited(submission, async () => {
    const refused = await changePassword(user.id, currentPassword, password, context.get(sessionContext));
    if (refused) return refuse(submission, refused);
    return redirectWithToast("/account/change-password", { type: "success", message: accountMessages.passwordUpdated });
  });
}

export default function ChangePassword({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors(
    [fields.currentPassword, t("account.changePassword.current")],
    [fields.password, t("account.changePassword.new")],
    [fields.confirmPassword, t("account.changePassword.repeat")],
  );
  return (
    // The breadcrumb keeps the spec's words ("Change Password"); the heading is in sentence case, as the dashboard's tile.
    <AccountPage title={t("account.changePassword.title")} crumb={t("account.changePassword.crumb")} errors={showsErrors(errors, form.errors)}>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.currentPassword} label={t("account.changePassword.current")} type="password" autoComplete="current-password" />
        <TextField
          field={fields.password}
          label={t("account.changePassword.new")}
          type="password"
          autoComplete="new-password"
          hint={t("account.changePassword.hint")}
        />
        <TextField field={fields.confirmPassword} label={t("account.changePassword.repeat")} type="password" autoComplete="new-password" />
        <button type="submit" className="button">
          {t("account.changePassword.submit")}
        </button>
      </Form>
    </AccountPage>
  );
}
