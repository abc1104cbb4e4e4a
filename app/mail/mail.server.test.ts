import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "~/config.server";
import { startResendStandIn } from "../../tests/support/resend-stand-in";
import { MailError, sendMail } from "./mail.server";

const message = { to: "support@example.org", subject: "Hello", html: "<p>Hi</p>", text: "Hi", replyTo: "ana@example.org" };

describe("sending through Resend", () => {
  let resend: Awaited<ReturnType<typeof startResendStandIn>>;
  beforeAll(async () => {
    resend = await startResendStandIn((request) =>
      request.body.subject === "refuse"
        ? { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } }
        : { status: 200, body: { id: "email_123" } },
    );
  });
  afterAll(() => resend.close());

  it("posts the message to RESEND_BASE_URL with the API key", async () => {
    const settings = readConfig({ RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: resend.url, MAIL_FROM: "Help <help@example.org>" });
    expect(await sendMail(message, settings)).toEqual({ id: "email_123", via: "resend" });
    const request = resend.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/emails");
    expect(request.headers.authorization).toBe("Bearer re_test_key");
    expect(request.body).toMatchObject({
      from: "Help <help@example.org>",
      to: "support@example.org",
      subject: "Hello",
      html: "<p>Hi</p>",
      text: "Hi",
      reply_to: "ana@example.org",
    });
    expect(request.body).not.toHaveProperty("headers");
  });

  it("sends a message's own headers (a reminder's one-click List-Unsubscribe)", async () => {
    const settings = readConfig({ RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: resend.url });
    const headers = { "List-Unsubscribe": "<https://help.example.org/reminders/stop?code=x>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    await sendMail({ ...message, headers }, settings);
    expect(resend.requests.at(-1)!.body).toMatchObject({ headers });
  });

  it("turns a refusal into a MailError with Resend's reason", async () => {
    const settings = readConfig({ RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: resend.url });
    await expect(sendMail({ ...message, subject: "refuse" }, settings)).rejects.toThrow(MailError);
    await expect(sendMail({ ...message, subject: "refuse" }, settings)).rejects.toThrow(/Invalid `to` field/);
  });

  it("fails cleanly when the service cannot be reached", async () => {
    const settings = readConfig({ RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: "http://127.0.0.1:9" });
    await expect(sendMail(message, settings)).rejects.toThrow(MailError);
  });
});
