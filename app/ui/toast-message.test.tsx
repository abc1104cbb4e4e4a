import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PageErrorMessage, ToastMessage } from "./toast-message";

describe("flash messages", () => {
  it("a success is a toast that closes without script: a dialog with a named close button in a dialog form", () => {
    const html = renderToStaticMarkup(<ToastMessage toast={{ type: "success", message: "Profile updated." }} />);
    expect(html).toMatch(/^<dialog open="" class="toast toast--success" aria-labelledby="toast-text">/);
    expect(html).toContain('<p class="toast__text" id="toast-text" role="status">Profile updated.</p>');
    expect(html).toContain('<form class="toast__close-form" method="dialog">');
    expect(html).toContain('<button type="submit" class="toast__close" aria-label="Close message">');
    expect(renderToStaticMarkup(<PageErrorMessage toast={{ type: "success", message: "Profile updated." }} />)).toBe("");
  });

  it("an error is never a toast: it stays on the page as an alert", () => {
    const error = { type: "error" as const, message: "Too many attempts. Please wait 14 minutes and try again." };
    expect(renderToStaticMarkup(<ToastMessage toast={error} />)).toBe("");
    const html = renderToStaticMarkup(<PageErrorMessage toast={error} />);
    expect(html).toContain('<div class="notice notice--error" role="alert"><p>Too many attempts. Please wait 14 minutes and try again.</p></div>');
    expect(renderToStaticMarkup(<PageErrorMessage toast={{ type: "error" }} />)).toContain("<p>System Error</p>");
  });
});
