import type { ReactNode } from "react";

/**
 * "Are you sure?" for an administrator's action that takes effect at once (restore a version, remove an
 * administrator). Its button only links here (`?confirm=…`); this panel's form does the action, carrying
 * `confirmed=yes`, which the action requires. A plain page and a plain form: no script needed. Focus moves to it.
 */
export function Confirmation({
  title,
  children,
  fields,
  confirmLabel,
  cancelHref,
  cancelLabel,
  danger = false,
}: {
  title: string;
  children: ReactNode;
  /** Hidden fields the action needs besides `confirmed`. */
  fields: Record<string, string>;
  confirmLabel: string;
  cancelHref: string;
  cancelLabel: string;
  danger?: boolean;
}) {
  return (
    <section className="confirm-panel" id="confirm" aria-labelledby="confirm-title" tabIndex={-1} autoFocus>
      <h2 id="confirm-title" className="confirm__title">
        {title}
      </h2>
      {children}
      <form method="post" className="button-row">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className={danger ? "button button--danger" : "button"}>
          {confirmLabel}
        </button>
        <a className="button button--secondary" href={cancelHref}>
          {cancelLabel}
        </a>
      </form>
    </section>
  );
}

/** Whether a posted form came from the confirmation panel. */
export function confirmed(form: FormData): boolean {
  return form.get("confirmed") === "yes";
}
