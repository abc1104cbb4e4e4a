export interface Toast {
  type: "success" | "error";
  /** For errors: the server's message; without one the toast reads "System Error". */
  message?: string;
}

export function toastText(toast: Toast): string {
  return toast.message?.trim() || (toast.type === "error" ? "System Error" : "");
}
