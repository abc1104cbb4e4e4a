import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { grantAdministrator, type HelperLimits, listAdministrators, listHelpers, removeHelper, revokeAdministrator, saveHelper } from "~/administration/roles.server";
import { grantSchema, helperSchema } from "~/administration/schemas";
import { invalid } from "~/auth/form-replies.server";
import { listCountries } from "~/content/content.server";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.administrators";

// The page that manages roles: administrators, and helpers with what each may help with (docs/decisions/0042).
export async function loader({ request }: Route.LoaderArgs) {
  const [administrators, helpers, countries] = await Promise.all([listAdministrators(), listHelpers(), listCountries()]);
  const search = new URL(request.url).searchParams;
  // "Change" on a helper's row fills the helper form with their email and limits (no script needed).
  const chosen = search.get("helper");
  // "Remove" asks first: ?remove=<email> shows the question for an administrator or a helper on the list.
  const asked = search.get("remove");
  const removing = administrators.some((a) => a.email === asked)
    ? { email: asked!, role: "administrator" as const }
    : helpers.some((helper) => helper.email === asked)
      ? { email: asked!, role: "helper" as const }
      : null;
  return { administrators, helpers, countries, chosen: helpers.find((helper) => helper.email === chosen) ?? null, removing };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const form = await request.formData();
  const intent = form.get("intent");
  const email = form.get("email");
  if (intent === "revoke" || intent === "remove-helper") {
    // Only the confirmation's form removes; anything else is asked again.
    if (!confirmed(form)) return redirect(`/admin/administrators?${new URLSearchParams({ remove: typeof email === "string" ? email : "" })}#confirm`);
    const change = intent === "revoke" ? revokeAdministrator : removeHelper;
    const done = await change(typeof email === "string" ? email : "", actor);
    if (!done.ok) return data({ result: null, helperResult: null, revokeError: done.message }, { status: 409 });
    const what = intent === "revoke" ? "an administrator" : "a helper";
    return redirectWithToast("/admin/administrators", { type: "success", message: `${done.email} is no longer ${what}.` });
  }
  if (intent === "helper") {
    const submission = parseWithZod(form, { schema: helperSchema });
    if (submission.status !== "success") return data({ result: null, helperResult: submission.reply(), revokeError: null }, { status: 400 });
    const saved = await saveHelper(submission.value.email, { countryIds: submission.value.countries, issueIds: submission.value.issues }, actor);
    if (!saved.ok) return data({ result: null, helperResult: submission.reply({ fieldErrors: { email: [saved.message] } }), revokeError: null }, { status: 400 });
    const message = saved.granted ? `${saved.email} is now a helper.` : `What ${saved.email} helps with is saved.`;
    return redirectWithToast("/admin/administrators", { type: "success", message });
  }
  const submission = parseWithZod(form, { schema: grantSchema });
  if (submission.status !== "success") return invalid(submission);
  const granted = await grantAdministrator(submission.value.email, actor);
  if (!granted.ok) return data({ result: submission.reply({ fieldErrors: { email: [granted.message] } }), helperResult: null, revokeError: null }, { status: 400 });
  return redirectWithToast("/admin/administrators", { type: "success", message: `${granted.email} is now an administrator.` });
}

type Countries = Route.ComponentProps["loaderData"]["countries"];

/** "Every country and issue", or the countries and issues named. */
function limitsText(limits: HelperLimits, countries: Countries): string {
  if (limits.everywhere) return "Every country and issue";
  const names = [
    ...countries.filter((country) => limits.countryIds.includes(country.id)).map((country) => `${country.name} (every issue)`),
    ...countries.flatMap((country) => country.issues.filter((issue) => limits.issueIds.includes(issue.id)).map((issue) => `${issue.name} (${country.name})`)),
  ];
  return names.length ? names.join("; ") : "Nothing: the countries and issues they helped with were deleted";
}

export default function Administrators({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "grant",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: grantSchema }),
  });
  const chosen = loaderData.chosen;
  const [helperForm, helperFields] = useForm<{ email: string; countries: string[]; issues: string[] }>({
    id: "helper",
    lastResult: actionData && "helperResult" in actionData ? actionData.helperResult : undefined,
    defaultValue: chosen
      ? { email: chosen.email, countries: chosen.limits.countryIds.map(String), issues: chosen.limits.issueIds.map(String) }
      : undefined,
  });
  const revokeError = actionData && "revokeError" in actionData ? actionData.revokeError : null;
  const grantErrors = summaryErrors([fields.email, "Email"]);
  const helperErrors = summaryErrors([helperFields.email, "Email"], [helperFields.countries, "Countries"], [helperFields.issues, "Issues"]);
  const ticked = (values: unknown) => new Set(([] as unknown[]).concat(values ?? []).map(String));
  const tickedCountries = ticked(helperFields.countries.initialValue);
  const tickedIssues = ticked(helperFields.issues.initialValue);
  return (
    <AdminPage title="Administrators and helpers" errors={Boolean(revokeError) || showsErrors(grantErrors, form.errors) || showsErrors(helperErrors, helperForm.errors)}>
      {revokeError ? <ErrorSummary errors={[]} formErrors={[revokeError]} /> : null}
      {loaderData.removing && !revokeError ? (
        <Confirmation
          title={`Remove ${loaderData.removing.email} as ${loaderData.removing.role === "administrator" ? "an administrator" : "a helper"}?`}
          fields={{ intent: loaderData.removing.role === "administrator" ? "revoke" : "remove-helper", email: loaderData.removing.email }}
          confirmLabel="Yes, remove"
          cancelHref="/admin/administrators"
          cancelLabel="No, keep"
          danger
        >
          <p>
            {loaderData.removing.role === "administrator"
              ? "They keep their account, but can no longer open the administration. You can make them an administrator again later."
              : "They keep their account, but can no longer open the help desk. Requests they took stay with them until closed. You can make them a helper again later."}
          </p>
        </Confirmation>
      ) : null}
      <h2>Administrators</h2>
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

      <h3>Make an administrator</h3>
      <p>The account must exist already. Administrators sign in like everyone, with their password and a code.</p>
      <ErrorSummary errors={grantErrors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <input type="hidden" name="intent" value="grant" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="off" />
        <button type="submit" className="button">
          Make administrator
        </button>
      </Form>

      <h2 id="helpers">Helpers</h2>
      <p>
        Helpers use the help desk: they read what people choose to share with the organisation, for as long as they share it,
        and reply. Each person sees which helper opened what, and when. Helpers can also start an interview for someone and
        invite them to carry on with it.
      </p>
      {loaderData.helpers.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">Helpers</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Helps with</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.helpers.map((helper) => (
                <tr key={helper.id}>
                  <td>{helper.name}</td>
                  <td>{helper.email}</td>
                  <td>{limitsText(helper.limits, loaderData.countries)}</td>
                  <td>
                    <div className="actions">
                      <a className="action-link" href={`/admin/administrators?helper=${encodeURIComponent(helper.email)}#helper-form-title`}>
                        Change<span className="visually-hidden"> what {helper.email} helps with</span>
                      </a>
                      <a className="action-link" href={`/admin/administrators?${new URLSearchParams({ remove: helper.email })}#confirm`}>
                        Remove<span className="visually-hidden"> {helper.email} as a helper</span>
                      </a>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>There are no helpers yet.</p>
      )}

      <h3 id="helper-form-title" tabIndex={-1}>
        {chosen ? `What ${chosen.email} helps with` : "Make a helper, or change what a helper helps with"}
      </h3>
      <p>The account must exist already. Tick nothing for a helper who may help with every country and issue.</p>
      <ErrorSummary errors={helperErrors} formErrors={helperForm.errors} />
      <Form method="post" {...getFormProps(helperForm)} noValidate className="form" aria-labelledby="helper-form-title">
        <input type="hidden" name="intent" value="helper" />
        <TextField field={helperFields.email} label="Email" type="email" autoComplete="off" />
        <fieldset className="fieldset" id={helperFields.countries.id}>
          <legend className="fieldset__legend">Countries (every issue of the country)</legend>
          {loaderData.countries.map((country) => (
            <div key={country.id} className="field field--check">
              <input
                id={`helper-country-${country.id}`}
                type="checkbox"
                name="countries"
                value={country.id}
                defaultChecked={tickedCountries.has(String(country.id))}
                className="check"
              />
              <label htmlFor={`helper-country-${country.id}`} className="check__label">
                {country.name}
              </label>
            </div>
          ))}
        </fieldset>
        <fieldset className="fieldset" id={helperFields.issues.id}>
          <legend className="fieldset__legend">Issues</legend>
          {loaderData.countries.flatMap((country) =>
            country.issues.map((issue) => (
              <div key={issue.id} className="field field--check">
                <input
                  id={`helper-issue-${issue.id}`}
                  type="checkbox"
                  name="issues"
                  value={issue.id}
                  defaultChecked={tickedIssues.has(String(issue.id))}
                  className="check"
                />
                <label htmlFor={`helper-issue-${issue.id}`} className="check__label">
                  {issue.name} ({country.name})
                </label>
              </div>
            )),
          )}
        </fieldset>
        <button type="submit" className="button">
          Save helper
        </button>
      </Form>
    </AdminPage>
  );
}
