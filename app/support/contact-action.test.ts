import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startResendStandIn } from "../../tests/support/resend-stand-in";

// The contact route's action with a mail service that fails: the person keeps what they typed and sees the
// error on the page, in the form's error summary ("System Error: …"), and the answer is a 502, never a 500 page.
describe("contact form when the mail service fails", () => {
  let resend: Awaited<ReturnType<typeof startResendStandIn>>;
  beforeAll(async () => {
    resend = await startResendStandIn(() => ({ status: 500, body: { statusCode: 500, name: "application_error", message: "boom" } }));
    process.env.RESEND_API_KEY = "re_test_key";
    process.env.RESEND_BASE_URL = resend.url;
  });
  afterAll(async () => {
    delete process.env.RESEND_API_KEY;
    delete process.env.RESEND_BASE_URL;
    await resend.close();
  });

  it("answers 502 with the values kept and the error on the page", async () => {
    const { action } = await import("~/routes/support.contact-us");
    const body = new URLSearchParams({ firstName: "Ana", lastName: "Lim", email: "ana@example.org", message: "Help" });
    const request = new Request("http://localhost/support/contact-us", { method: "POST", body });
    const result = (await action({ request, params: {}, context: {} } as never)) as unknown as {
      data: { result: { initialValue: Record<string, string>; error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(result.init.status).toBe(502);
    expect(result.data.result.error[""]).toEqual(["System Error: your message was not sent. Please try again in a moment."]);
    expect(result.data.result.initialValue).toMatchObject({ firstName: "Ana", message: "Help" });
    expect(resend.requests).toHaveLength(1);
  });
});
