import { randomUUID } from "node:crypto";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { plantSignedIn } from "./people";

// /admin/api (issue 31): an administrator makes a token for the organisation's system, sees it once, sees it used,
// and revokes it; the API then refuses it. With and without script, axe on every state.

test("an administrator makes an API token, sees it once and counted, and revokes it", async ({ page, axe, baseURL }) => {
  await plantSignedIn(page, uniqueEmail("api-tokens"), { role: "administrator" });
  await page.goto("/admin");
  await page.getByRole("link", { name: "API tokens" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API tokens");
  await axe();

  // Nothing filled in: each field says what it needs, in the summary too.
  await page.getByRole("button", { name: "Make the token" }).click();
  const summary = page.getByRole("alert");
  await expect(summary).toContainText("Enter a name for the token.");
  await expect(summary).toContainText("Choose what the token may do.");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();

  const name = `Case system ${randomUUID().slice(0, 6)}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel(/^issues:read/).check();
  await page.getByLabel("Works for").selectOption("30");
  await page.getByRole("button", { name: "Make the token" }).click();
  await expect(page.getByRole("heading", { name: `Your new token: ${name}` })).toBeVisible();
  const token = await page.getByLabel("Token", { exact: true }).inputValue();
  expect(token).toMatch(/^lsh_[A-Za-z0-9_-]{43}$/);
  await axe();

  // It works, and its use is counted; the list never shows it again.
  const issues = await fetch(`${baseURL}/api/v1/issues`, { headers: { Authorization: `Bearer ${token}` } });
  expect(issues.status).toBe(200);
  await page.goto("/admin/api");
  expect(await page.content()).not.toContain(token);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(token.slice(0, 8));
  await expect(row).toContainText("issues:read");
  await expect(row.getByRole("cell").nth(6)).toHaveText("1");
  await expect(row).toContainText("Active");

  // Revoked: the API refuses it at once.
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByRole("status")).toHaveText("The token is revoked: it no longer works.");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
  expect((await fetch(`${baseURL}/api/v1/issues`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
});
