import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { grantAdministrator, listAdministrators, revokeAdministrator } from "~/administration/roles.server";
import { grantSchema } from "~/administration/schemas";
import { invalid } from "~/auth/form-replies.server";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.administrators";

export async function loader({ request }: Route.LoaderArgs) {
  const administrators = await listAdministrators();
  // "Remove" asks first: ?remove=<email> shows the question for an administrator on the list.
  const asked = new URL(request.url).searchParams.get("remove");
  return { administrators, removing: administrators.find((a) => a.email === asked)?.email ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const form = await request.formData();
  if (form.get("intent") === "revoke") {
    const email = form.get("email");
    // Only the confirmation's form removes; anything else is asked again.
    if (!confirmed(form)) return redirect(`/admin/administrators?${new URLSearchParams({ remove: typeof email === "string" ? email : "" })}#confirm`);
    const revoked = await revokeAdministrator(typeof email === "string" ? email : "", actor);
    if (!revoked.ok) return data({ result: null, revokeError: revoked.message }, { status: 409 });
    return redirectWithToast("/admin/administrators", { type: "success", message: `${revoked.email} is no longer an administrator.` });
  }
  const submission = parseWithZod(form, { schema: grantSchema });
  if (submission.status !== "success") return invalid(submission);
  const granted = await grantAdministrator(submission.value.email, actor);
  if (!granted.ok) return data({ result: submission.reply({ fieldErrors: { email: [granted.message] } }), revokeError: null }, { status: 400 });
  return redirectWithToast("/admin/administrators", { type: "success", message: `${granted.email} is now an administrator.` });
}

export default function Administrators({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "grant",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: grantSchema }),
  });
  const revokeError = actionData && "revokeError" in actionData ? actionData.revokeError : null;
  const grantErrors = summaryErrors([fields.email, "Email"]);
  return (
    <AdminPage title="Administrators" errors={Boolean(revokeError) || showsErrors(grantErrors, form.errors)}>
      {revokeError ? <ErrorSummary errors={[]} formErrors={[revokeError]} /> : null}
      {loaderData.removing && !revokeError ? (
        <Confirmation
          title={`Remove ${loaderData.removing} as an administrator?`}
          fields={{ intent: "revoke", email: loaderData.removing }}
          confirmLabel="Yes, remove"
          cancelHref="/admin/administrators"
          cancelLabel="No, keep"
          danger
        >
          <p>They keep their account, but can no longer open the administration. You can make them an administrator again later.</p>
        </Confirmation>
      ) : null}
      <table className="data-table">
        <caption className="visually-hidden">Administrators</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {loaderData.administrators.map((administrator) => (
            <tr key={administrator.id}>
              <td>{administrator.name}</td>
              <td>{administrator.email}</td>
              <td>
                <a className="action-link" href={`/admin/administrators?${new URLSearchParams({ remove: administrator.email })}#confirm`}>
                  Remove<span className="visually-hidden"> {administrator.email}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Make an administrator</h2>
      <p>The account must exist already. Administrators sign in like everyone, with their password and a code.</p>
      <ErrorSummary errors={grantErrors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <input type="hidden" name="intent" value="grant" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="off" />
        <button type="submit" className="button">
          Make administrator
        </button>
      </Form>
    </AdminPage>
  );
}
