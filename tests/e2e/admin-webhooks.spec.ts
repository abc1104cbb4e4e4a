import { Webhook } from "standardwebhooks";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { plantSignedIn, signedInPerson } from "./people";
import { plantAtFinish, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";

// Webhooks (issue 31, docs/decisions/0057-webhooks.md): an administrator registers an endpoint (a local receiver:
// the e2e servers run with WEBHOOK_ALLOW_PRIVATE=true), a person shares an interview, completes it and stops sharing it, and
// the receiver gets each event signed, the first attempt refused and the next taken; the endpoint's page shows
// every attempt, "Send again" sends one again with the same id; the secret is rotated and the endpoint deleted.

test("administrators register a webhook endpoint, see each signed delivery with its attempts, send one again, change it, rotate the secret and delete it", async ({
  page,
  browser,
  axe,
  javaScriptEnabled,
}) => {
  test.slow();
  const receiver = await startWebhookReceiver(`/hooks/${javaScriptEnabled ? "js" : "no-js"}`);
  const person = await signedInPerson(browser, javaScriptEnabled, "webhook-person");
  try {
    await plantSignedIn(page, uniqueEmail("webhook-admin"), { role: "administrator" });
    await page.goto("/admin");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");

    // Nothing filled in: both problems said, at the fields and in the summary.
    await page.getByRole("button", { name: "Register endpoint" }).click();
    await expect(page.getByRole("alert")).toContainText("Enter the endpoint's full address");
    await expect(page.getByRole("alert")).toContainText("Choose at least one event");
    await expect(page.getByLabel("Address")).toHaveAttribute("aria-invalid", "true");
    await axe();

    await page.getByLabel("Address").fill(receiver.url);
    await page.getByLabel("Description (optional)").fill("Case system (e2e)");
    await page.getByRole("checkbox", { name: /^interview\.shared/ }).check();
    await page.getByRole("checkbox", { name: /^interview\.completed/ }).check();
    await page.getByRole("checkbox", { name: /^share\.ended/ }).check();
    await page.getByRole("button", { name: "Register endpoint" }).click();
    await expect(page.getByRole("heading", { name: "Endpoint registered" })).toBeVisible();
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(page.getByRole("cell", { name: receiver.url })).toBeVisible();
    await axe();

    // The person shares an interview, completes it in the viewer, then stops sharing: interview.shared,
    // interview.completed and share.ended, each refused once and then taken.
    const interviewId = plantAtFinish(person.email);
    const form = { headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0 };
    expect((await person.context.request.post(`/account/interview/${interviewId}/help`, { ...form, data: "intent=share&share=answers" })).status()).toBe(302);
    const shareId = withE2eDatabase((db) => (db.prepare("select id from interview_shares where interview_id = ?").get(interviewId) as { id: string }).id);
    const ours = () => receiver.received.filter((r) => r.event.data.share_id === shareId);
    await expect.poll(() => ours().map((r) => `${r.event.type} ${r.status}`), { timeout: 15_000 }).toEqual(["interview.shared 500", "interview.shared 200"]);
    await person.page.goto(`/issues/2/interviews/${interviewId}`);
    await press(viewer(person.page), "Finish");
    await viewer(person.page).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(person.page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    await expect.poll(() => ours().length, { timeout: 15_000 }).toBe(4);
    expect((await person.context.request.post(`/account/interview/${interviewId}/help`, { ...form, data: "intent=stop" })).status()).toBe(302);
    await expect.poll(() => ours().length, { timeout: 15_000 }).toBe(6);
    expect(ours().map((r) => `${r.event.type} ${r.status}`)).toEqual([
      "interview.shared 500",
      "interview.shared 200",
      "interview.completed 500",
      "interview.completed 200",
      "share.ended 500",
      "share.ended 200",
    ]);
    // Signed in the Standard Webhooks form, the same id on both attempts, ids and links only.
    for (const webhook of ours()) expect(new Webhook(secret).verify(webhook.body, webhook.headers)).toMatchObject({ data: { share_id: shareId } });
    const [shared, , completed, , ended] = ours();
    expect(ours()[1]!.id).toBe(shared!.id);
    expect(ours()[3]!.id).toBe(completed!.id);
    expect(ours()[5]!.id).toBe(ended!.id);
    expect(completed!.event.data.links).toEqual({ self: `/api/v1/shared-interviews/${shareId}`, document: `/api/v1/shared-interviews/${shareId}/document` });
    expect(shared!.event.data).toEqual({ share_id: shareId, links: { self: `/api/v1/shared-interviews/${shareId}` } });
    expect(shared!.body).not.toContain(person.email);

    // The endpoint's page: each delivery with its attempts and what the receiver answered.
    await page.getByRole("link", { name: `See ${receiver.url}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhook endpoint");
    const sharedRow = page.getByRole("row").filter({ hasText: shared!.id });
    await expect(sharedRow).toContainText("Delivered");
    await expect(sharedRow).toContainText("HTTP 500");
    await expect(sharedRow).toContainText("HTTP 200");
    await expect(sharedRow).toContainText("try again later");
    await expect(page.getByRole("row").filter({ hasText: ended!.id })).toContainText("share.ended");
    await axe();

    // Send again: the same delivery id, once more.
    await sharedRow.getByRole("button", { name: `Send again ${shared!.id}` }).click();
    await expect(page.getByRole("status")).toContainText(`Delivery ${shared!.id} will be sent again`);
    await expect.poll(() => receiver.received.filter((r) => r.id === shared!.id).length, { timeout: 15_000 }).toBe(3);
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: shared!.id }).getByRole("listitem")).toHaveCount(3);

    // Change what it receives: a wrong address is said at the field, then the change is saved.
    await page.getByText("Change the address, description or events").click();
    const change = page.getByRole("form", { name: "Change the endpoint" });
    await change.getByLabel("Address").fill("ftp://cases.example.org/");
    await change.getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByRole("alert")).toContainText("The address must start with https://");
    await axe();
    await page.getByRole("form", { name: "Change the endpoint" }).getByLabel("Address").fill(receiver.url);
    await page.getByRole("form", { name: "Change the endpoint" }).getByLabel("Description (optional)").fill("Case system, changed");
    await page.getByRole("form", { name: "Change the endpoint" }).getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByRole("status")).toHaveText("The endpoint is saved.");
    await expect(page.getByText("Case system, changed")).toBeVisible();

    // Rotate the secret (asked first); the new one is shown once, and signs beside the old for a day.
    await page.getByRole("link", { name: "Rotate the secret" }).click();
    const rotate = page.getByRole("region", { name: "Make a new signing secret?" });
    await expect(rotate).toBeVisible();
    await axe();
    await rotate.getByRole("button", { name: "Yes, make a new secret" }).click();
    await expect(page.getByRole("heading", { name: "New signing secret" })).toBeVisible();
    const rotated = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expect(page.getByText("Rotated: the previous secret also signs until")).toBeVisible();
    await axe();

    // Delete (asked first): gone from the list, and audited with every other change.
    await page.goto(page.url().split("?")[0]!);
    await page.getByRole("link", { name: "Delete" }).click();
    await page
      .getByRole("region", { name: `Delete ${receiver.url}?` })
      .getByRole("button", { name: "Yes, delete" })
      .click();
    await expect(page).toHaveURL(/\/admin\/webhooks(#confirm)?$/);
    await expect(page.getByRole("status")).toHaveText(`${receiver.url} was deleted.`);
    await expect(page.getByRole("cell", { name: receiver.url })).toHaveCount(0);
    await page.goto("/admin/audit");
    await expect(page.getByRole("cell", { name: "Deleted a webhook endpoint" }).first()).toBeVisible();
    await expect(page.getByRole("cell", { name: "Sent a webhook delivery again" }).first()).toBeVisible();
  } finally {
    await person.context.close();
    await receiver.close();
  }
});
