export interface Toast {
  type: "success" | "error";
  /** For errors: the server's message; without one it reads "System Error". Errors show on the page, not in a toast. */
  message?: string;
}

export function toastText(toast: Toast): string {
  return toast.message?.trim() || (toast.type === "error" ? "System Error" : "");
}
