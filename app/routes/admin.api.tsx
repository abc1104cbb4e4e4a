import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { SCOPE_DESCRIPTIONS, SCOPES, TOKEN_DAYS, tokenSchema } from "~/api/scopes";
import { createToken, listTokens, revokeToken } from "~/api/tokens.server";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { AdminTime } from "~/ui/admin-lists";
import { ErrorSummary, SelectField, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.api";

// The organisation's API tokens (docs/decisions/0056-the-api.md): made here, shown once, revoked here.
export async function loader() {
  return { tokens: await listTokens() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const administrator = requireAdministrator(context, request);
  const actor = actorOf(administrator, context);
  const form = await request.formData();
  if (form.get("intent") === "revoke") {
    const id = String(form.get("token") ?? "");
    const revoked = await revokeToken(id.slice(0, 100), actor);
    return redirectWithToast("/admin/api", revoked ? { type: "success", message: "The token is revoked: it no longer works." } : { type: "error", message: "That token was revoked already." });
  }
  const submission = parseWithZod(form, { schema: tokenSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  const made = await createToken(administrator, submission.value, actor);
  // Shown in this answer only: the page after it (or a reload) never has it again.
  return data({ result: submission.reply({ resetForm: true }), created: { name: submission.value.name, token: made.token } }, { headers: { "Cache-Control": "no-store" } });
}

const STATUS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

export default function ApiTokens({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "api-token",
    lastResult: actionData?.result,
    defaultValue: { days: "90" },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: tokenSchema }),
  });
  const errors = summaryErrors([fields.name, "Name"], [fields.scopes, "What it may do"], [fields.days, "Works for"]);
  const created = actionData?.created ?? null;
  const scopesInvalid = Boolean(fields.scopes.errors?.length);
  return (
    <AdminPage title="API tokens" errors={showsErrors(errors, form.errors)}>
      <p>
        The organisation's own systems (a case management system, for example) use the API with a token. A token acts for the administrator who
        made it; people see its name where they see who prepared an interview or who opened what they shared. The API is described at{" "}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
      </p>

      {created ? (
        <section className="notice" aria-labelledby="new-token-title">
          <h2 id="new-token-title" tabIndex={-1}>
            Your new token: {created.name}
          </h2>
          <p>Copy it now and keep it somewhere safe: it is shown only this once.</p>
          <p>
            <label htmlFor="new-token" className="field__label">
              Token
            </label>
            <input id="new-token" className="field__input" readOnly value={created.token} spellCheck={false} autoComplete="off" />
          </p>
        </section>
      ) : null}

      <h2>Tokens</h2>
      {loaderData.tokens.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">API tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">May</th>
                <th scope="col">Made by</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Uses</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.tokens.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td>
                    <code>{token.prefix}…</code>
                  </td>
                  <td>{token.scopes.join(", ")}</td>
                  <td>{token.createdByEmail}</td>
                  <td>
                    <AdminTime at={token.expiresAt} dateOnly />
                  </td>
                  <td>{token.lastUsedAt ? <AdminTime at={token.lastUsedAt} /> : "Never"}</td>
                  <td>{token.useCount}</td>
                  <td>{STATUS[token.status]}</td>
                  <td>
                    {token.status === "revoked" ? null : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="token" value={token.id} />
                        <button type="submit" className="button button--secondary">
                          Revoke<span className="visually-hidden"> {token.name}</span>
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>There are no tokens yet.</p>
      )}

      <h2 id="make-token-title">Make a token</h2>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form" aria-labelledby="make-token-title">
        <TextField field={fields.name} label="Name" hint="Who uses it, for example: Case management system." autoComplete="off" />
        <fieldset
          className={`fieldset${scopesInvalid ? " field--invalid" : ""}`}
          id={fields.scopes.id}
          aria-describedby={scopesInvalid ? fields.scopes.errorId : undefined}
        >
          <legend className="fieldset__legend">What it may do</legend>
          <p className="field__error" id={fields.scopes.errorId}>
            {fields.scopes.errors?.[0] ?? ""}
          </p>
          {SCOPES.map((scope) => (
            <div key={scope} className="field field--check">
              <input id={`scope-${scope}`} type="checkbox" name="scopes" value={scope} className="check" />
              <label htmlFor={`scope-${scope}`} className="check__label">
                <code>{scope}</code>: {SCOPE_DESCRIPTIONS[scope]}
              </label>
            </div>
          ))}
        </fieldset>
        <SelectField field={fields.days} label="Works for" options={TOKEN_DAYS.map((days) => ({ value: String(days), label: `${days} days` }))} />
        <button type="submit" className="button">
          Make the token
        </button>
      </Form>
    </AdminPage>
  );
}
