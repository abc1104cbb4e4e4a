import { describe, expect, it } from "vitest";
import { toastText } from "./toast";

describe("toast text", () => {
  it("shows the server's message, else System Error for errors", () => {
    expect(toastText({ type: "success", message: "Successfully sent" })).toBe("Successfully sent");
    expect(toastText({ type: "error", message: "Wrong username or password." })).toBe("Wrong username or password.");
    expect(toastText({ type: "error" })).toBe("System Error");
    expect(toastText({ type: "error", message: "  " })).toBe("System Error");
  });
});
