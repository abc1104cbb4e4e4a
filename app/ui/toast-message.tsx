import { type Toast, toastText } from "./toast";

/** A toast at the bottom right, rendered by the server; CSS fades it out after 5 seconds. */
export function ToastMessage({ toast }: { toast: Toast }) {
  const text = toastText(toast);
  if (!text) return null;
  return (
    <div className={`toast toast--${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
      {text}
    </div>
  );
}
