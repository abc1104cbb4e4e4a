import { useT } from "~/i18n/react";
import type { Translator } from "~/i18n/translator";
import type { Toast } from "./toast";

/** A toast's words in the page's language: its message (a reference, or a text shown as it is), or "System Error". */
function toastWords(toast: Toast, t: Translator): string {
  const message = toast.message?.trim();
  if (message) return t.message(message);
  return toast.type === "error" ? t.t("common.toast.systemError") : "";
}

/**
 * A success message at the bottom right, rendered by the server. CSS fades it out after the product's 5
 * seconds, pauses while it is hovered or holds focus, and its close button (a dialog form) dismisses it: all
 * without script.
 */
export function ToastMessage({ toast }: { toast: Toast }) {
  const t = useT();
  const text = toastWords(toast, t);
  if (!text || toast.type !== "success") return null;
  return (
    <dialog open className="toast toast--success" aria-labelledby="toast-text">
      <p className="toast__text" id="toast-text" role="status">
        {text}
      </p>
      <form method="dialog" className="toast__close-form">
        <button type="submit" className="toast__close" aria-label={t.t("common.toast.close")}>
          <span aria-hidden="true">×</span>
        </button>
      </form>
    </dialog>
  );
}

/**
 * An error that needs the person to act (a document that could not be made, a limit reached) is not a toast
 * that fades: it stays on the page, at the top of the main content, until they leave it.
 */
export function PageErrorMessage({ toast }: { toast: Toast }) {
  const t = useT();
  if (toast.type !== "error") return null;
  return (
    <div className="page">
      <div className="notice notice--error" role="alert">
        <p>{toastWords(toast, t)}</p>
      </div>
    </div>
  );
}
