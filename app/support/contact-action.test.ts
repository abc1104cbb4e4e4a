import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, type TestDatabase } from "../../tests/support/databases";
import { startResendStandIn } from "../../tests/support/resend-stand-in";
import { clientAddressContext } from "~/request-context";
import { translator } from "~/i18n/translator";

type Reply = { data: { result: { initialValue: Record<string, string>; error: Record<string, string[]> } }; init: { status: number } };

// The contact route's action with a mail service that fails: the person keeps what they typed and sees the
// error on the page, in the form's error summary ("System Error: …"), and the answer is a 502, never a 500 page.
// Past the per-address limit nothing is sent and the form says how long to wait (429).
describe("the contact form's action", () => {
  let resend: Awaited<ReturnType<typeof startResendStandIn>>;
  let handle: TestDatabase;
  let failing = true;
  beforeAll(async () => {
    resend = await startResendStandIn(() =>
      failing ? { status: 500, body: { statusCode: 500, name: "application_error", message: "boom" } } : { status: 200, body: { id: "sent" } },
    );
    handle = await createTestDatabase("sqlite");
    await migrateToLatest(handle.db);
    process.env.DATABASE_URL = handle.url;
    process.env.RESEND_API_KEY = "re_test_key";
    process.env.RESEND_BASE_URL = resend.url;
  });
  afterAll(async () => {
    delete process.env.RESEND_API_KEY;
    delete process.env.RESEND_BASE_URL;
    delete process.env.DATABASE_URL;
    const { closeDatabase } = await import("~/db.server");
    await closeDatabase();
    await resend.close();
    await handle.drop();
  });

  async function send(address: string) {
    const { action } = await import("~/routes/support.contact-us");
    const body = new URLSearchParams({ firstName: "Ana", lastName: "Lim", email: "ana@example.org", message: "Help" });
    const request = new Request("http://localhost/support/contact-us", { method: "POST", body });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, address);
    return (await action({ request, params: {}, context } as never)) as unknown as Reply | Response;
  }

  it("answers 502 with the values kept and the error on the page", async () => {
    const result = (await send("192.0.2.1")) as Reply;
    expect(result.init.status).toBe(502);
    expect(result.data.result.error[""]?.map((message) => translator("en").message(message))).toEqual([
      "System Error: your message was not sent. Please try again in a moment.",
    ]);
    expect(result.data.result.initialValue).toMatchObject({ firstName: "Ana", message: "Help" });
    expect(resend.requests).toHaveLength(1);
  });

  it("sends 10 messages an hour from one address, then says how long to wait and sends nothing", async () => {
    failing = false;
    const sentBefore = resend.requests.length;
    for (let i = 0; i < 10; i++) expect(await send("192.0.2.2")).toBeInstanceOf(Response);
    const refused = (await send("192.0.2.2")) as Reply;
    expect(refused.init.status).toBe(429);
    expect(refused.data.result.error[""]?.map((message) => translator("en").message(message))).toEqual(["Too many attempts. Please wait 60 minutes and try again."]);
    expect(refused.data.result.error[""]?.map((message) => translator("fr").message(message))).not.toEqual(["Too many attempts. Please wait 60 minutes and try again."]);
    expect(refused.data.result.initialValue).toMatchObject({ message: "Help" });
    expect(resend.requests.length - sentBefore).toBe(10);
    // Another address is counted on its own.
    expect(await send("192.0.2.3")).toBeInstanceOf(Response);
  });
});
