import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createAccountWithCodes, emailedLink, fillSignUp, PASSWORD, shownRecoveryCodes, signInWithPassword, signOut, totpCode, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { outboxMessages } from "./support";

const summary = (page: Page) => page.getByRole("alert").filter({ hasText: "There is a problem" });

async function useRecoveryCode(page: Page, email: string, code: string) {
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
  await page.getByRole("link", { name: "Use a recovery code instead" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Use a recovery code");
  await page.getByLabel("Recovery code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("two-factor that survives a lost phone", () => {
  test("set-up offers a link for this phone, then ten recovery codes to download, print and save", async ({ page, axe, javaScriptEnabled }) => {
    const email = uniqueEmail("codes");
    await fillSignUp(page, email);
    await page.goto(emailedLink(email, "/auth/sign-up/password"));
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save password" }).click();
    await expect(page).toHaveURL(/\/auth\/setup-2fa$/);

    const secret = (await page.locator("#secret-key").textContent())!.trim();
    const link = page.getByRole("link", { name: "Open in my authenticator app" });
    const href = new URL((await link.getAttribute("href"))!);
    expect(href.protocol).toBe("otpauth:");
    expect(href.searchParams.get("secret")).toBe(secret);
    expect(href.searchParams.get("issuer")).toBe("Legal Self-Help");
    await axe();
    await page.getByLabel("Verification code").fill(totpCode(secret));
    await page.getByRole("button", { name: "Verify and finish" }).click();

    const codes = await shownRecoveryCodes(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recovery codes");
    expect((await page.request.get("/account/recovery-codes")).headers()["cache-control"]).toBe("no-store");
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    await axe();
    // Printing needs script; without it the browser's own Print prints the same page.
    await expect(page.getByRole("button", { name: "Print" })).toBeVisible({ visible: javaScriptEnabled });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download as a text file" }).click()]);
    expect(download.suggestedFilename()).toBe("legal-self-help-recovery-codes.txt");
    const text = readFileSync((await download.path())!, "utf8");
    expect(text).toContain(email);
    for (const code of codes) expect(text).toContain(code);

    // Until the person says they saved them, the codes stay (a reload does not lose them).
    await page.reload();
    expect(await shownRecoveryCodes(page)).toEqual(codes);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("header").getByText("Welcome Ana Lim")).toBeVisible();

    // Shown once only: afterwards the page says how many are left.
    await page.goto("/account/recovery-codes");
    await expect(page.getByText("You have 10 unused recovery codes.")).toBeVisible();
    await expect(page.getByRole("list", { name: "Your recovery codes" })).toHaveCount(0);
    await axe();
  });

  test("a recovery code signs in once, says how many are left, offers new ones, and fails the second time", async ({ page, axe }) => {
    const email = uniqueEmail("lost-phone");
    const { codes } = await createAccountWithCodes(page, email);
    await signOut(page);

    await signInWithPassword(page, email);
    await page.getByRole("link", { name: "Use a recovery code instead" }).click();
    await axe();
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(summary(page)).toContainText("This field is required.");
    await axe();
    await page.getByLabel("Recovery code").fill(codes[0]!.toUpperCase());
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page).toHaveURL(/\/account\/recovery-codes\?used=1$/);
    await expect(page.getByRole("status")).toContainText("You signed in with a recovery code, which cannot be used again. You have 9 unused recovery codes.");
    await expect(page.locator("header").getByText("Welcome Ana Lim")).toBeVisible();
    await axe();
    expect(outboxMessages().some((m) => m.to_address === email && m.subject === "Security notice: A recovery code was used to sign in")).toBe(true);

    await signOut(page);
    await useRecoveryCode(page, email, codes[0]!);
    await expect(summary(page)).toContainText("The verification code is invalid.");
    await expect(page.getByLabel("Recovery code")).toHaveAccessibleDescription(/The verification code is invalid\./);
    await axe();

    // A second code works, and new codes replace all the old ones.
    await page.getByLabel("Recovery code").fill(codes[1]!);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("status")).toContainText("You have 8 unused recovery codes.");
    await page.getByRole("button", { name: "Make new recovery codes" }).click();
    await expect(summary(page)).toContainText("This field is required.");
    await page.getByLabel("Password").fill("not my password 1");
    await page.getByRole("button", { name: "Make new recovery codes" }).click();
    await expect(summary(page)).toContainText("The password is invalid.");
    await axe();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Make new recovery codes" }).click();
    const fresh = await shownRecoveryCodes(page);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page).toHaveURL(/\/account\/dashboard$/);

    await signOut(page);
    await useRecoveryCode(page, email, codes[2]!);
    await expect(summary(page)).toContainText("The verification code is invalid.");
  });

  test("a signed-in person sets up a new authenticator from the account area", async ({ page, axe }) => {
    const email = uniqueEmail("new-phone");
    const { secret: oldSecret, codes } = await createAccountWithCodes(page, email);
    await page.goto("/account/dashboard");
    await page.getByRole("link", { name: /^Recovery codes/ }).click();
    await page.getByRole("link", { name: "Set up a new authenticator" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Set up a new authenticator");
    await expect(page.getByRole("link", { name: "Open in my authenticator app" })).toHaveAttribute("href", /^otpauth:\/\/totp\//);
    await axe();
    const secret = (await page.locator("#secret-key").textContent())!.trim();
    expect(secret).not.toBe(oldSecret);

    await page.getByRole("button", { name: "Set up the new authenticator" }).click();
    await expect(summary(page).getByRole("listitem")).toHaveCount(3);
    await axe();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Code from your current app, or a recovery code").fill("aaaaa-bbbbb");
    await page.getByLabel("Code from the new app").fill(totpCode(secret));
    await page.getByRole("button", { name: "Set up the new authenticator" }).click();
    await expect(summary(page)).toContainText("The verification code is invalid.");
    // The same key is offered again: what was added to the new app still works.
    await expect(page.locator("#secret-key")).toHaveText(secret);
    await axe();

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Code from your current app, or a recovery code").fill(codes[0]!);
    await page.getByLabel("Code from the new app").fill(totpCode(secret));
    await page.getByRole("button", { name: "Set up the new authenticator" }).click();
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole("status")).toHaveText("Your new authenticator app is set up.");
    expect(outboxMessages().some((m) => m.to_address === email && m.subject === "Security notice: Your authenticator app was changed")).toBe(true);

    // The old app's codes no longer sign in; the new app's do.
    await signOut(page);
    await signInWithPassword(page, email);
    await page.getByLabel("Verification code").fill(totpCode(oldSecret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(summary(page)).toContainText("The verification code is invalid.");
    await page.getByLabel("Verification code").fill(totpCode(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("header").getByText("Welcome Ana Lim")).toBeVisible();
  });
});
