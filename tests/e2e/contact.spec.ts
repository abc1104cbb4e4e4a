import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { outboxMessages } from "./support";

async function fill(page: Page, values: { firstName?: string; lastName?: string; email?: string; message?: string }) {
  await page.getByLabel("First name").fill(values.firstName ?? "");
  await page.getByLabel("Last name").fill(values.lastName ?? "");
  await page.getByLabel("Email").fill(values.email ?? "");
  await page.getByLabel("Message").fill(values.message ?? "");
}

const summary = (page: Page) => page.getByRole("alert").filter({ hasText: "There is a problem" });

test.describe("contact us", () => {
  test("shows the form titled Contact Us", async ({ page, axe }) => {
    await page.goto("/support/contact-us/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
    await expect(page).toHaveTitle("Contact Us | Legal Self-Help");
    for (const label of ["First name", "Last name", "Email", "Message"]) await expect(page.getByLabel(label)).toBeVisible();
    await axe();
  });

  test("says which fields are required, in a summary that takes focus and at each field", async ({ page, axe }) => {
    await page.goto("/support/contact-us/");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(summary(page)).toBeVisible();
    // Each entry names its field; the message under the field stays the product's own.
    await expect(summary(page).getByRole("link")).toHaveText(
      ["First name", "Last name", "Email", "Message"].map((label) => `${label}: This field is required.`),
    );
    await expect(summary(page)).toBeFocused();
    await expect(page).toHaveTitle("Error: Contact Us | Legal Self-Help");
    for (const label of ["First name", "Last name", "Email", "Message"]) {
      const input = page.getByLabel(label);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(input).toHaveAccessibleDescription("This field is required.");
    }
    await summary(page).getByRole("link").first().click();
    await expect(page.getByLabel("First name")).toBeFocused();
    await axe();
  });

  test("trims names, limits them to 50 characters and checks the email format, keeping what was typed", async ({ page, axe }) => {
    await page.goto("/support/contact-us/");
    await fill(page, { firstName: "   ", lastName: "x".repeat(51), email: "not-an-email", message: "Please help with my bond." });
    await page.getByLabel("Message").press("Control+Enter");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByLabel("First name")).toHaveAccessibleDescription("This field is required.");
    await expect(page.getByLabel("Last name")).toHaveAccessibleDescription("This field must be less than 50 characters.");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("The email format is invalid.");
    await expect(page.getByLabel("Message")).not.toHaveAttribute("aria-invalid");
    await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
    await expect(page.getByLabel("Message")).toHaveValue("Please help with my bond.");
    await axe();
  });

  test("sends the message to support, shows Successfully sent, and the outbox holds it escaped", async ({ page, axe }) => {
    const token = randomUUID();
    await page.goto("/support/contact-us/");
    await fill(page, {
      firstName: "  Ana  ",
      lastName: "Lim",
      email: "ana@example.org",
      message: `My landlord kept the bond <b>${token}</b>.\nWhat can I do?`,
    });
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("status")).toHaveText("Successfully sent");
    await expect(page).toHaveURL(/\/support\/contact-us$/);
    await expect(page.getByLabel("First name")).toHaveValue("");
    await axe();

    const message = outboxMessages().find((m) => m.text.includes(token));
    expect(message).toBeDefined();
    expect(message).toMatchObject({ to_address: "support@e2e.test", reply_to: "ana@example.org", subject: "Contact form: Ana Lim" });
    expect(message!.html).toContain(`&lt;b&gt;${token}&lt;/b&gt;`);
    expect(message!.html).toContain("<br>What can I do?");
    expect(message!.text).toContain("Email: ana@example.org");

    // The toast is shown once: reloading the page does not bring it back.
    await page.reload();
    await expect(page.getByText("Successfully sent")).toHaveCount(0);
  });
});
