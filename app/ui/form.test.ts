import type { FieldMetadata } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { resultShowsErrors, showsErrors, summaryEntryText, summaryErrors } from "./form";
import { pageTitle } from "./page-title";

// Only what summaryErrors reads of conform's field metadata.
const field = (id: string, errors?: string[]) => ({ id, errors }) as unknown as FieldMetadata<unknown>;

describe("error summary entries", () => {
  it("name their field, in the form's order, and skip fields without errors", () => {
    const errors = summaryErrors(
      [field("first", ["This field is required."]), "First name"],
      [field("last"), "Last name"],
      [field("email", ["The email format is invalid.", "second message"]), "Email"],
    );
    expect(errors).toEqual([
      { fieldId: "first", label: "First name", message: "This field is required." },
      { fieldId: "email", label: "Email", message: "The email format is invalid." },
    ]);
    expect(errors.map((error) => summaryEntryText(error))).toEqual(["First name: This field is required.", "Email: The email format is invalid."]);
  });

  it("do not double a label's own colon, and fall back to the message when there is no label", () => {
    expect(summaryEntryText({ label: "Your name: ", message: "This field is required." })).toBe("Your name: This field is required.");
    expect(summaryEntryText({ label: "  ", message: "This field is required." })).toBe("This field is required.");
  });

  it("say whether a summary shows: field errors or form errors", () => {
    expect(showsErrors([])).toBe(false);
    expect(showsErrors([], [])).toBe(false);
    expect(showsErrors([], null)).toBe(false);
    expect(showsErrors([], ["Too many attempts."])).toBe(true);
    expect(showsErrors([{ fieldId: "a", label: "A", message: "m" }])).toBe(true);
    expect(resultShowsErrors(undefined)).toBe(false);
    expect(resultShowsErrors({ status: "error", error: { password: null } })).toBe(false);
    expect(resultShowsErrors({ status: "error", error: { password: ["This field is required."] } })).toBe(true);
    expect(resultShowsErrors({ status: "error", error: { "": ["Too many attempts."] } })).toBe(true);
  });
});

describe("page titles", () => {
  it("put Error: in front while errors are shown", () => {
    expect(pageTitle("Sign In")).toBe("Sign In | Legal Self-Help");
    expect(pageTitle("Sign In", false)).toBe("Sign In | Legal Self-Help");
    expect(pageTitle("Sign In", true)).toBe("Error: Sign In | Legal Self-Help");
  });
});
