import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { config } from "~/config.server";
import { ErrorSummary, showsErrors, summaryErrors } from "~/ui/form";
import { listEndpoints, registerEndpoint } from "~/webhooks/endpoints.server";
import { EndpointFields, EventList, SecretShownOnce } from "~/webhooks/webhook-views";
import { endpointSchema } from "~/webhooks/schemas";
import type { Route } from "./+types/admin.webhooks";

// The organisation's webhook endpoints: the list, and registering one (docs/decisions/0057-webhooks.md). The signing
// secret of a new endpoint is shown once, in the answer to the form that made it.
export async function loader() {
  return { endpoints: await listEndpoints(), allowPrivate: config().WEBHOOK_ALLOW_PRIVATE };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const submission = parseWithZod(await request.formData(), { schema: endpointSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), created: null }, { status: 400 });
  const { url, description, events } = submission.value;
  const made = await registerEndpoint({ url, description: description ?? "", events }, actor);
  if (!made.ok) return data({ result: submission.reply({ fieldErrors: { [made.field]: [made.message] } }), created: null }, { status: 400 });
  return data(
    { result: submission.reply({ resetForm: true }), created: { id: made.endpoint.id, url: made.endpoint.url, secret: made.secret } },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm<{ url: string; description: string; events: string[] }>({ id: "endpoint", lastResult: actionData?.result });
  const errors = summaryErrors([fields.url, "Address"], [fields.description, "Description"], [fields.events, "Events"]);
  const created = actionData?.created ?? null;
  return (
    <AdminPage title="Webhooks" errors={showsErrors(errors, form.errors)}>
      <p>
        Webhooks tell the organisation's own systems (a case management system, say) when something happens: a person asks for help, shares an interview,
        completes a shared interview, has documents signed, or stops sharing. Each delivery is signed and carries only ids and links: the receiving system reads
        what was shared through the API, with its own token. Deliveries that fail are tried again for 24 hours.
      </p>
      {created ? (
        <>
          <SecretShownOnce secret={created.secret} title="Endpoint registered" />
          <p>
            <a href={`/admin/webhooks/${created.id}`}>See {created.url}</a>
          </p>
        </>
      ) : null}
      <h2>Endpoints</h2>
      {loaderData.endpoints.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">Endpoints</caption>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Description</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Waiting</th>
                <th scope="col">Failed</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td className="break-anywhere">
                    <a href={`/admin/webhooks/${endpoint.id}`}>{endpoint.url}</a>
                  </td>
                  <td>{endpoint.description}</td>
                  <td>
                    <EventList events={endpoint.events} />
                  </td>
                  <td>{endpoint.enabled ? "Enabled" : "Disabled"}</td>
                  <td>{endpoint.pending}</td>
                  <td>{endpoint.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No endpoints yet.</p>
      )}

      <h2 id="register-title">Register an endpoint</h2>
      <p>
        {loaderData.allowPrivate
          ? "WEBHOOK_ALLOW_PRIVATE is on: private, loopback and plain http addresses are allowed. Turn it off outside tests and closed networks."
          : "The address must be https and public: private, loopback and link-local addresses are refused, when registering and at every delivery."}
      </p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form" aria-labelledby="register-title">
        <EndpointFields fields={fields} idPrefix="event" />
        <button type="submit" className="button">
          Register endpoint
        </button>
      </Form>
    </AdminPage>
  );
}
