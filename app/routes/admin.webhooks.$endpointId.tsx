import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { Confirmation, confirmed } from "~/administration/confirmation";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { notFound } from "~/http.server";
import { AdminTime } from "~/ui/admin-lists";
import { ErrorSummary, showsErrors, summaryErrors } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import { endpointSchema } from "~/webhooks/schemas";
import { EndpointFields, EventList, SecretShownOnce } from "~/webhooks/webhook-views";
import {
  changeEndpoint,
  deleteEndpoint,
  type Delivery,
  endpointDeliveries,
  findEndpoint,
  rotateSecret,
  sendAgain,
  setEndpointEnabled,
} from "~/webhooks/endpoints.server";
import type { Route } from "./+types/admin.webhooks.$endpointId";

// One webhook endpoint: what it receives, its deliveries with each attempt and what the receiver answered, "Send
// again"; rotate its secret (shown once), disable or enable it, delete it (docs/decisions/0057-webhooks.md).
export async function loader({ request, params }: Route.LoaderArgs) {
  const endpoint = await findEndpoint(params.endpointId);
  if (!endpoint) notFound(request);
  const asked = new URL(request.url).searchParams.get("confirm");
  return { endpoint, deliveries: await endpointDeliveries(endpoint.id), confirm: asked === "rotate" || asked === "delete" ? asked : null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const endpoint = await findEndpoint(params.endpointId);
  if (!endpoint) notFound(request);
  const here = `/admin/webhooks/${endpoint.id}`;
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "rotate" || intent === "delete") {
    // Only the confirmation's form does it; anything else is asked again.
    if (!confirmed(form)) return redirect(`${here}?confirm=${intent}#confirm`);
    if (intent === "delete") {
      await deleteEndpoint(endpoint.id, actor);
      return redirectWithToast("/admin/webhooks", { type: "success", message: `${endpoint.url} was deleted.` });
    }
    const secret = await rotateSecret(endpoint.id, actor);
    if (!secret) notFound(request);
    return data({ secret, error: null, result: null }, { headers: { "Cache-Control": "no-store" } });
  }
  if (intent === "change") {
    const submission = parseWithZod(form, { schema: endpointSchema });
    if (submission.status !== "success") return data({ secret: null, error: null, result: submission.reply() }, { status: 400 });
    const { url, description, events } = submission.value;
    const changed = await changeEndpoint(endpoint.id, { url, description: description ?? "", events }, actor);
    if (!changed) notFound(request);
    if (!changed.ok)
      return data({ secret: null, error: null, result: submission.reply({ fieldErrors: { [changed.field]: [changed.message] } }) }, { status: 400 });
    return redirectWithToast(here, { type: "success", message: "The endpoint is saved." });
  }
  if (intent === "disable" || intent === "enable") {
    await setEndpointEnabled(endpoint.id, intent === "enable", actor);
    return redirectWithToast(here, {
      type: "success",
      message: intent === "enable" ? "The endpoint is enabled." : "The endpoint is disabled: no events are sent to it.",
    });
  }
  if (intent === "send-again") {
    const deliveryId = String(form.get("delivery") ?? "");
    if (!(await sendAgain(endpoint.id, deliveryId, actor)))
      return data({ secret: null, error: "That delivery is no longer kept.", result: null }, { status: 404 });
    return redirectWithToast(here, { type: "success", message: `Delivery ${deliveryId} will be sent again in a moment.` });
  }
  return data({ secret: null, error: "Choose what to do from the page.", result: null }, { status: 400 });
}

function statusText(delivery: Delivery) {
  if (delivery.status === "delivered") return "Delivered";
  if (delivery.status === "failed") return "Failed: no more tries";
  return delivery.attempts ? "Waiting to be tried again" : "Waiting to be sent";
}

function DeliveryAttempts({ delivery }: { delivery: Delivery }) {
  if (!delivery.recent.length) return <>None yet</>;
  return (
    <ol className="webhook-attempts" reversed>
      {delivery.recent.map((attempt) => (
        <li key={attempt.attemptedAt}>
          <AdminTime at={attempt.attemptedAt} />:{" "}
          {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : `no answer (${attempt.error ?? "unknown error"})`}, {attempt.durationMs} ms
          {attempt.response ? <pre translate="no">{attempt.response}</pre> : null}
        </li>
      ))}
    </ol>
  );
}

export default function WebhookEndpoint({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoint, deliveries, confirm } = loaderData;
  const here = `/admin/webhooks/${endpoint.id}`;
  const [form, fields] = useForm<{ url: string; description: string; events: string[] }>({
    id: "change",
    lastResult: actionData?.result,
    defaultValue: { url: endpoint.url, description: endpoint.description, events: endpoint.events },
  });
  const errors = summaryErrors([fields.url, "Address"], [fields.description, "Description"], [fields.events, "Events"]);
  return (
    <AdminPage
      title="Webhook endpoint"
      trail={[{ label: "Webhooks", href: "/admin/webhooks" }]}
      errors={Boolean(actionData?.error) || showsErrors(errors, form.errors)}
    >
      {actionData?.error ? (
        <div className="notice notice--error" role="alert">
          <p>{actionData.error}</p>
        </div>
      ) : null}
      {actionData?.secret ? <SecretShownOnce secret={actionData.secret} title="New signing secret" /> : null}
      {confirm === "delete" ? (
        <Confirmation
          title={`Delete ${endpoint.url}?`}
          fields={{ intent: "delete" }}
          confirmLabel="Yes, delete"
          cancelHref={here}
          cancelLabel="No, keep"
          danger
        >
          <p>No more events are sent to it, and its deliveries and their attempts are deleted with it. This cannot be undone.</p>
        </Confirmation>
      ) : null}
      {confirm === "rotate" && !actionData?.secret ? (
        <Confirmation
          title="Make a new signing secret?"
          fields={{ intent: "rotate" }}
          confirmLabel="Yes, make a new secret"
          cancelHref={here}
          cancelLabel="No, keep this one"
        >
          <p>
            The new secret is shown once. For 24 hours deliveries are signed with both the new and the old secret, so the receiving system can change over
            without missing one.
          </p>
        </Confirmation>
      ) : null}
      <dl className="summary-list">
        <div>
          <dt>Address</dt>
          <dd className="break-anywhere">{endpoint.url}</dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{endpoint.description || "None"}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>
            <EventList events={endpoint.events} />
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{endpoint.enabled ? "Enabled" : "Disabled: no events are queued for it; deliveries already waiting are sent once it is enabled again"}</dd>
        </div>
        <div>
          <dt>Signing secret</dt>
          <dd>
            {endpoint.previousSecretUntil ? (
              <>
                Rotated: the previous secret also signs until <AdminTime at={endpoint.previousSecretUntil} />
              </>
            ) : (
              "Shown once when it was made"
            )}
          </dd>
        </div>
      </dl>
      <div className="button-row">
        <form method="post">
          <input type="hidden" name="intent" value={endpoint.enabled ? "disable" : "enable"} />
          <button type="submit" className="button button--secondary">
            {endpoint.enabled ? "Disable" : "Enable"}
          </button>
        </form>
        <a className="button button--secondary" href={`${here}?confirm=rotate#confirm`}>
          Rotate the secret
        </a>
        <a className="button button--danger" href={`${here}?confirm=delete#confirm`}>
          Delete
        </a>
      </div>

      <details className="webhook-change" open={showsErrors(errors, form.errors) || undefined}>
        <summary>Change the address, description or events</summary>
        <ErrorSummary errors={errors} formErrors={form.errors} />
        <Form method="post" {...getFormProps(form)} noValidate className="form" aria-label="Change the endpoint">
          <input type="hidden" name="intent" value="change" />
          <EndpointFields fields={fields} idPrefix="change" />
          <button type="submit" className="button">
            Save endpoint
          </button>
        </Form>
      </details>

      <h2>Deliveries</h2>
      <p>
        The latest 50, newest first, each with its latest attempts. A delivery keeps its id (the webhook-id header) on every attempt, so the receiver can tell
        one it already has.
      </p>
      {deliveries.length ? (
        <div className="table-scroll table-scroll--wide">
          <table className="data-table">
            <caption className="visually-hidden">Deliveries</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Queued</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <code>{delivery.eventType}</code>
                    <br />
                    <code className="break-anywhere muted">{delivery.id}</code>
                  </td>
                  <td>
                    <AdminTime at={delivery.createdAt} />
                  </td>
                  <td>
                    {statusText(delivery)}
                    {delivery.nextAttemptAt && delivery.attempts ? (
                      <>
                        {" "}
                        (next at <AdminTime at={delivery.nextAttemptAt} />)
                      </>
                    ) : null}
                  </td>
                  <td>
                    <DeliveryAttempts delivery={delivery} />
                  </td>
                  <td>
                    <form method="post">
                      <input type="hidden" name="intent" value="send-again" />
                      <input type="hidden" name="delivery" value={delivery.id} />
                      <button type="submit" className="button button--secondary">
                        Send again<span className="visually-hidden"> {delivery.id}</span>
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>Nothing has been sent to this endpoint yet.</p>
      )}
    </AdminPage>
  );
}
