import { type Toast, toastText } from "./toast";

/**
 * A success message at the bottom right, rendered by the server. CSS fades it out after the product's 5
 * seconds, pauses while it is hovered or holds focus, and its close button (a dialog form) dismisses it: all
 * without script.
 */
export function ToastMessage({ toast }: { toast: Toast }) {
  const text = toastText(toast);
  if (!text || toast.type !== "success") return null;
  return (
    <dialog open className="toast toast--success" aria-labelledby="toast-text">
      <p className="toast__text" id="toast-text" role="status">
        {text}
      </p>
      <form method="dialog" className="toast__close-form">
        <button type="submit" className="toast__close" aria-label="Close message">
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
  if (toast.type !== "error") return null;
  return (
    <div className="page">
      <div className="notice notice--error" role="alert">
        <p>{toastText(toast)}</p>
      </div>
    </div>
  );
}
