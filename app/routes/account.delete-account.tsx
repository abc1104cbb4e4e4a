import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { AccountPage } from "~/account/account-page";
import { deleteAccount } from "~/account/delete-account.server";
import { deleteAccountSchema } from "~/account/schemas";
import { writeFlowState } from "~/auth/flow-state.server";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { clearSessionCookie, requireUser } from "~/auth/session.server";
import { RichText, useT } from "~/i18n/react";
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
  const { t } = useT();
  const errors = summaryErrors([fields.password, t("account.deleteAccount.password")], [fields.code, t("account.deleteAccount.code")]);
  return (
    <AccountPage title={t("account.deleteAccount.title")} errors={showsErrors(errors, form.errors)}>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <p>
        <RichText id="account.deleteAccount.intro" tags={{ strong: (words) => <strong>{words}</strong> }} />
      </p>
      <ul>
        <li>{t("account.deleteAccount.profile")}</li>
        <li>{t("account.deleteAccount.interviews")}</li>
        <li>{t("account.deleteAccount.files")}</li>
        <li>{t("account.deleteAccount.codes")}</li>
        <li>{t("account.deleteAccount.emails")}</li>
      </ul>
      <p>
        <RichText id="account.deleteAccount.after" tags={{ link: (words) => <a href="/account/my-data">{words}</a> }} />
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.password} label={t("account.deleteAccount.password")} type="password" autoComplete="current-password" />
        <TextField
          field={fields.code}
          label={t("account.deleteAccount.code")}
          hint={t("account.deleteAccount.codeHint")}
          autoComplete="one-time-code"
        />
        <button type="submit" className="button button--danger">
          {t("account.deleteAccount.submit")}
        </button>
      </Form>
    </AccountPage>
  );
}
