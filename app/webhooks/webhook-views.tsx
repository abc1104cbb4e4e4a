// What the webhook administration pages share (app/routes/admin.webhooks*.tsx).

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
