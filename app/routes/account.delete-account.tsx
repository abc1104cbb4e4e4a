import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { AccountPage } from "~/account/account-page";
import { deleteAccount } from "~/account/delete-account.server";
import { deleteAccountSchema } from "~/account/schemas";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { clearSessionCookie, requireUser } from "~/auth/session.server";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import type { Route } from "./+types/account.delete-account";

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const submission = parseWithZod(await request.formData(), { schema: deleteAccountSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const refused = await deleteAccount(user.id, submission.value, context.get(clientAddressContext));
    if (refused) return refuse(submission, refused);
    // The session went with the account: the cookie goes too, and only this browser may see the confirmation.
    const headers = new Headers();
    headers.append("Set-Cookie", await clearSessionCookie());
    headers.append("Set-Cookie", await writeFlowState({ accountDeleted: true }));
    return redirect("/auth/account-deleted", { headers });
  });
}

export default function DeleteAccount({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "delete-account",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deleteAccountSchema }),
  });
  const errors = summaryErrors([fields.password, "Password"], [fields.code, "Code from your authenticator app, or a recovery code"]);
  return (
    <AccountPage title="Delete my account" errors={showsErrors(errors, form.errors)}>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <p>
        <strong>This cannot be undone.</strong> Deleting your account deletes, at once and for good:
      </p>
      <ul>
        <li>your profile: your name, email address, phone number, password and authenticator;</li>
        <li>every interview you started or completed, with all your answers;</li>
        <li>the files you uploaded;</li>
        <li>your recovery codes, and your sign-ins on every device;</li>
        <li>the emails we sent you that we still keep.</li>
      </ul>
      <p>
        You will not be able to sign in again with this email address and password. If you want to keep your
        answers and documents, <a href="/account/my-data">download your data</a> first. We send a last email to
        tell you that the account was deleted.
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.password} label="Password" type="password" autoComplete="current-password" />
        <TextField
          field={fields.code}
          label="Code from your authenticator app, or a recovery code"
          hint="6 digits from your authenticator app, or one of your recovery codes"
          autoComplete="one-time-code"
        />
        <button type="submit" className="button button--danger">
          Delete my account
        </button>
      </Form>
    </AccountPage>
  );
}
