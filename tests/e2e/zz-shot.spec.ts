import { createAccountWithCodes, uniqueEmail } from "./accounts";
import { test } from "./fixtures";
test("shots", async ({ page }) => {
  const email = uniqueEmail("shot");
  await createAccountWithCodes(page, email);
  await page.goto("/account/recovery-codes");
  await page.getByLabel("Password").fill("correct horse 42");
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/recovery-codes-${width}.png`, fullPage: true });
  }
  await page.emulateMedia({ media: "print" });
  await page.setViewportSize({ width: 800, height: 900 });
  await page.screenshot({ path: `/tmp/recovery-codes-print.png`, fullPage: true });
  await page.emulateMedia({ media: "screen" });
  await page.goto("/account/authenticator");
  await page.setViewportSize({ width: 320, height: 900 });
  await page.screenshot({ path: `/tmp/new-authenticator-320.png`, fullPage: true });
  await page.goto("/account/recovery-codes");
  await page.getByRole("button", { name: "I have saved them" }).click();
  await page.goto("/account/recovery-codes?used=1");
  await page.screenshot({ path: `/tmp/recovery-used-320.png`, fullPage: true });
});
