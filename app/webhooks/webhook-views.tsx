// What the webhook administration pages share (app/routes/admin.webhooks*.tsx).
import type { FieldMetadata } from "@conform-to/react";
import { TextField } from "~/ui/form";
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENTS } from "./events";

type EndpointFieldset = { url: FieldMetadata<string>; description: FieldMetadata<string>; events: FieldMetadata<string[]> };

/** An endpoint's address, description and events, as registered and as changed. */
export function EndpointFields({ fields, idPrefix }: { fields: EndpointFieldset; idPrefix: string }) {
  const ticked = new Set(([] as unknown[]).concat(fields.events.initialValue ?? []).map(String));
  const eventsInvalid = Boolean(fields.events.errors?.length);
  return (
    <>
      <TextField
        field={fields.url}
        label="Address"
        hint="For example https://cases.example.org/hooks/legal-self-help"
        type="url"
        autoComplete="off"
        inputMode="url"
      />
      <TextField
        field={fields.description}
        label="Description (optional)"
        hint="What receives these events, for the administrators."
        required={false}
        autoComplete="off"
      />
      <fieldset
        className={`fieldset${eventsInvalid ? " field--invalid" : ""}`}
        id={fields.events.id}
        aria-describedby={eventsInvalid ? fields.events.errorId : undefined}
      >
        <legend className="fieldset__legend">Events</legend>
        <p className="field__error" id={fields.events.errorId}>
          {fields.events.errors?.[0] ?? ""}
        </p>
        {WEBHOOK_EVENTS.map((event) => (
          <div key={event} className="field field--check">
            <input id={`${idPrefix}-${event}`} type="checkbox" name="events" value={event} defaultChecked={ticked.has(event)} className="check" />
            <label htmlFor={`${idPrefix}-${event}`} className="check__label">
              <code>{event}</code>: {EVENT_DESCRIPTIONS[event]}
            </label>
          </div>
        ))}
      </fieldset>
    </>
  );
}

export function EventList({ events }: { events: readonly string[] }) {
  return (
    <ul className="plain-list">
      {events.map((event) => (
        <li key={event}>
          <code>{event}</code>
        </li>
      ))}
    </ul>
  );
}

/** The secret, shown once (after registering or rotating). */
export function SecretShownOnce({ secret, title }: { secret: string; title: string }) {
  return (
    <section className="notice notice--success" aria-labelledby="secret-title" tabIndex={-1}>
      <h2 id="secret-title">{title}</h2>
      <p>Copy this signing secret into the receiving system now: it is shown only this once. Receivers verify each delivery with it (Standard Webhooks).</p>
      <p className="secret-key">
        <code translate="no" data-testid="webhook-secret">
          {secret}
        </code>
      </p>
    </section>
  );
}
