import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { uniqueEmail, emailedLink } from "./accounts";
import { type OpenApi, callOperation, plantAdministrator, plantToken } from "./api-support";
import { expect, test } from "./fixtures";
import { plantSignedIn } from "./people";
import { interviewVars, moveInterviewTo, setInterviewVars } from "./support";
import { press, viewer } from "./viewer";

// The organisation's API (issue 31), as its developer would use it from the OpenAPI document alone: every call is
// plain fetch to an address read from /api/v1/openapi.json. A case system prepares an interview with answers
// filled in; the person adds it to their account, shares it, finishes it; the system reads the answers (JSON and
// ANX) and the document, and after the share ends the same calls give 404. Meanwhile a local receiver gets the
// signed webhooks of the share and the completion, checked with the standardwebhooks package. Raw HTTP and one
// browser: js only.

interface Received {
  body: string;
  headers: Record<string, string>;
}

/** A local receiver of webhooks (the e2e server allows private addresses: WEBHOOK_ALLOW_PRIVATE). */
async function receiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

let closeReceiver: (() => Promise<unknown>) | null = null;
test.afterAll(async () => void (await closeReceiver?.()));

test("an organisation's system prepares an interview, and reads what the person shares while it is shared", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const admin = plantAdministrator("api-admin");
  const token = plantToken(admin.id, "Case system", ["issues:read", "prepared:write", "shared:read", "webhooks:manage"]);
  const document = (await (await fetch(`${baseURL}/api/v1/openapi.json`)).json()) as OpenApi;
  const call = (operationId: string, params: Record<string, string | number> = {}, body?: unknown) => callOperation(document, token, operationId, params, body);
  const hooks = await receiver();
  closeReceiver = hooks.close;
  const registered = await call("registerWebhook", {}, { url: hooks.url, description: "Case system", events: ["interview.shared", "interview.completed", "share.ended"] });
  expect(registered.status).toBe(201);
  const { id: webhookId, secret } = await registered.json();
  /** The events received so far, each checked against its signature. */
  const verified = () =>
    hooks.received.map(({ body, headers }) => new Webhook(secret).verify(body, headers) as { type: string; data: { share_id: string; links: { self: string } } });
  const receivedEvent = async (type: string, shareId: string) => {
    await expect.poll(() => verified().some((event) => event.type === type && event.data.share_id === shareId), { timeout: 20_000 }).toBe(true);
    return verified().find((event) => event.type === type && event.data.share_id === shareId)!;
  };

  // Which variables the issue's guide has, then the interview prepared with two of them answered.
  const issue = await (await call("getIssue", { issueId: 2 })).json();
  const guide = await (await call("getGuide", { guideId: issue.guideId })).json();
  expect(guide.variables.map((variable: { name: string }) => variable.name)).toEqual(expect.arrayContaining(["Client first name TE", "Client last name TE"]));
  const email = uniqueEmail("api-person");
  const made = await call("prepareInterview", {}, { issueId: 2, person: { firstName: "Cy", lastName: "Lim", email }, answers: { "Client first name TE": "Cy", "Client last name TE": "Lim" } });
  expect(made.status).toBe(201);
  const prepared = await made.json();
  expect(prepared).toMatchObject({ issueId: 2, state: "sent" });

  // The person, who has an account with that address, adds it from the emailed invitation and finds the answers given.
  await plantSignedIn(page, email, { firstName: "Cy", lastName: "Lim" });
  await page.goto(emailedLink(email, "/invitation"));
  await expect(page.getByText("Case system from our team has started an interview for you.", { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Add it to my interviews" }).click();
  await expect(page).toHaveURL(new RegExp(`/issues/2/interviews/${prepared.interviewId}$`));
  const frame = viewer(page);
  await press(frame, "Continue");
  await press(frame, "Continue");
  await press(frame, "Get Started");
  await expect(frame.getByLabel(/^First/)).toHaveValue("Cy");
  await expect(frame.getByLabel(/^Last/)).toHaveValue("Lim");
  await press(frame, "Continue");
  expect((await (await call("getPreparedInterview", { interviewId: prepared.interviewId })).json()).state).toBe("claimed");

  // They share their answers while the interview is under way: the system finds it by the interview's id.
  const share = async (what: string[]) => {
    await page.goto(`/account/interview/${prepared.interviewId}/help`);
    for (const label of what) await page.getByLabel(label).check();
    await page.getByRole("button", { name: "Share with a helper" }).click();
    await expect(page.getByRole("status")).toHaveText("Your interview is shared with our helpers.");
    const listed = await (await call("listSharedInterviews")).json();
    const found = listed.items.find((item: { interviewId: string }) => item.interviewId === prepared.interviewId);
    expect(found, "the share is listed").toBeDefined();
    return found as { id: string; shared: { answers: boolean; documents: boolean }; links: Record<string, string> };
  };
  const first = await share(["My answers"]);
  expect(first.shared).toMatchObject({ answers: true, documents: false });
  // The signed webhook says so, with the share's id and link and nothing personal; the link is the API's.
  const shared = await receivedEvent("interview.shared", first.id);
  expect(JSON.stringify(shared)).not.toContain("Cy");
  expect(shared.data.links.self).toContain(`/shared-interviews/${first.id}`);
  const answers = await (await call("getSharedAnswers", { shareId: first.id })).json();
  expect(answers).toMatchObject({ interviewStatus: "Draft" });
  expect(answers.answers["client first name te"].values).toEqual([null, "Cy"]);
  const anx = await call("getSharedAnswersAnx", { shareId: first.id });
  expect(anx.headers.get("content-type")).toContain("application/xml");
  expect(await anx.text()).toMatch(/<Answer name="Client first name TE">[\s\S]*Cy/);

  // They finish it; the share says so. A document is shared only once finished: they share again with it.
  const answered = interviewVars(prepared.interviewId) as Parameters<typeof setInterviewVars>[1];
  setInterviewVars(prepared.interviewId, { ...answered, "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] } });
  moveInterviewTo(prepared.interviewId, "7-Finish instructions");
  await page.goto(`/issues/2/interviews/${prepared.interviewId}`);
  await press(viewer(page), "Finish");
  await viewer(page).getByRole("button", { name: "Confirm and finish" }).click();
  await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
  expect((await (await call("getSharedInterview", { shareId: first.id })).json()).interviewStatus).toBe("Completed");
  await receivedEvent("interview.completed", first.id);
  expect((await call("getSharedDocument", { shareId: first.id })).status).toBe(404);
  await page.goto(`/account/interview/${prepared.interviewId}/help`);
  await page.getByRole("button", { name: "Stop sharing" }).click();
  await expect(page.getByRole("status")).toHaveText("You have stopped sharing this interview.");
  const second = await share(["My document"]);
  const pdf = await call("getSharedDocument", { shareId: second.id });
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // The person sees who prepared it and that the system opened what they shared.
  await expect(page.getByRole("table", { name: /Who has seen it/ }).getByRole("row").filter({ hasText: "Case system" }).first()).toBeVisible();
  await page.goto("/account/interview");
  await expect(page.getByText("Prepared with Case system")).toBeVisible();

  // They stop sharing: from then on every call about either share is 404, and neither is listed.
  await page.goto(`/account/interview/${prepared.interviewId}/help`);
  await page.getByRole("button", { name: "Stop sharing" }).click();
  await expect(page.getByRole("status")).toHaveText("You have stopped sharing this interview.");
  for (const shareId of [first.id, second.id]) {
    for (const operationId of ["getSharedInterview", "getSharedAnswers", "getSharedAnswersAnx", "getSharedDocument", "listReplies"]) {
      const gone = await call(operationId, { shareId });
      expect(gone.status, `${operationId} after the share ended`).toBe(404);
      expect(gone.headers.get("content-type")).toBe("application/problem+json");
    }
  }
  const listed = await (await call("listSharedInterviews")).json();
  expect(listed.items.some((item: { interviewId: string }) => item.interviewId === prepared.interviewId)).toBe(false);
  await receivedEvent("share.ended", second.id);
  // Every delivery was signed, and the deliveries' log says each was delivered, under the id the receiver saw.
  const deliveries = await (await call("listWebhookDeliveries", { webhookId })).json();
  const seenIds = new Set(hooks.received.map(({ headers }) => headers["webhook-id"]));
  expect(deliveries.items.filter((delivery: { status: string }) => delivery.status === "delivered").every((delivery: { id: string }) => seenIds.has(delivery.id))).toBe(true);
  expect((await call("deleteWebhook", { webhookId })).status).toBe(204);
});
