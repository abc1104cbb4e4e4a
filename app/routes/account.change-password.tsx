import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AccountPage } from "~/account/account-page";
import { accountMessages, changePassword } from "~/account/account.server";
import { changePasswordSchema } from "~/account/schemas";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
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
  const errors = summaryErrors(
    [fields.currentPassword, "Current password"],
    [fields.password, "New password"],
    [fields.confirmPassword, "Repeat new password"],
  );
  return (
    // The breadcrumb keeps the spec's words ("Change Password"); the heading is in sentence case, as the dashboard's tile.
    <AccountPage title="Change password" crumb="Change Password" errors={showsErrors(errors, form.errors)}>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.currentPassword} label="Current password" type="password" autoComplete="current-password" />
        <TextField
          field={fields.password}
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, with a letter and a number."
        />
        <TextField field={fields.confirmPassword} label="Repeat new password" type="password" autoComplete="new-password" />
        <button type="submit" className="button">
          Change password
        </button>
      </Form>
    </AccountPage>
  );
}
