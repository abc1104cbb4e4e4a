import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { contactSchema } from "./contact";
import { buildContactEmail } from "./contact.server";
import { messages } from "~/ui/validation";

function errorsOf(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const submission = parseWithZod(form, { schema: contactSchema });
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
}

const valid = { firstName: "Ana", lastName: "Lim", email: "ana@example.org", message: "Hello" };

describe("contact form rules", () => {
  it("requires every field", () => {
    expect(errorsOf({})).toEqual({
      firstName: [messages.required],
      lastName: [messages.required],
      email: [messages.required],
      message: [messages.required],
    });
  });

  it("trims names, so blanks are missing, and allows at most 50 characters", () => {
    expect(errorsOf({ ...valid, firstName: "   " })).toEqual({ firstName: [messages.required] });
    expect(errorsOf({ ...valid, lastName: "x".repeat(51) })).toEqual({
      lastName: [messages.nameTooLong],
    });
    expect(errorsOf({ ...valid, lastName: ` ${"x".repeat(50)} ` })).toEqual({});
  });

  it("checks the email format", () => {
    for (const email of ["ana", "ana@", "@example.org", "ana@example", "a b@example.org"]) {
      expect(errorsOf({ ...valid, email })).toEqual({ email: [messages.emailInvalid] });
    }
  });

  it("accepts a valid message", () => {
    expect(errorsOf(valid)).toEqual({});
  });
});

describe("the email to support", () => {
  it("is built from the form with every value escaped in the HTML", () => {
    const email = buildContactEmail(
      { firstName: "<b>Ana</b>", lastName: "O'Neil", email: "ana@example.org", message: "Line 1\n<script>x</script>" },
      "support@example.org",
    );
    expect(email.to).toBe("support@example.org");
    expect(email.replyTo).toBe("ana@example.org");
    expect(email.subject).toBe("Contact form: <b>Ana</b> O'Neil");
    expect(email.html).toContain("&lt;b&gt;Ana&lt;/b&gt; O&#39;Neil");
    expect(email.html).toContain("Line 1<br>&lt;script&gt;x&lt;/script&gt;");
    expect(email.html).not.toContain("<script>");
    expect(email.text).toContain("Line 1\n<script>x</script>");
  });

  it("keeps line breaks out of the subject", () => {
    const email = buildContactEmail({ ...valid, firstName: "Ana\r\nBcc: x@evil.example" }, "s@example.org");
    expect(email.subject).not.toMatch(/[\r\n]/);
  });
});
