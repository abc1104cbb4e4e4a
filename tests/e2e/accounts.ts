import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { outboxMessages } from "./support";

export const PASSWORD = "correct horse 42";

/** An email address no other test uses. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.org`;
}

/** The newest link to `path` emailed to `email`, read from the outbox as a person would read their email. */
export function emailedLink(email: string, path: string): string {
  const messages = outboxMessages()
    .filter((m) => m.to_address === email && m.text.includes(path))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const text = messages.at(-1)?.text;
  const url = text?.match(/https?:\/\/\S+/)?.[0];
  if (!url) throw new Error(`No email to ${email} with a link to ${path}`);
  return new URL(url).pathname + new URL(url).search;
}

/** The code an authenticator app shows now (or `steps` periods later), computed with otpauth. */
export function totpCode(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

export async function fillSignUp(page: Page, email: string, values: Partial<Record<string, string>> = {}) {
  await page.goto("/auth/sign-up");
  await page.getByLabel("First name").fill(values.firstName ?? "Ana");
  await page.getByLabel("Last name").fill(values.lastName ?? "Lim");
  await page.getByLabel("Email").fill(email);
  if (values.phoneCountry) await page.getByLabel("Country code").selectOption(values.phoneCountry);
  await page.getByLabel("Phone number").fill(values.phoneNumber ?? "91234567");
  await page.getByRole("button", { name: "Create an account" }).click();
}

/** Sign-up → emailed link → password → two-factor setup → recovery codes saved: the person ends signed in; returns the TOTP secret. */
export async function createAccount(page: Page, email: string): Promise<string> {
  return (await createAccountWithCodes(page, email)).secret;
}

/** The recovery codes shown after a set-up, as the person reads them off the page. */
export async function shownRecoveryCodes(page: Page): Promise<string[]> {
  await expect(page).toHaveURL(/\/account\/recovery-codes$/);
  // The address changes before the page is drawn: wait for the list itself, not for the address.
  const items = page.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem");
  await expect(items).toHaveCount(10);
  return (await items.allTextContents()).map((c) => c.trim());
}

/** As createAccount, also returning the ten recovery codes the set-up showed. */
export async function createAccountWithCodes(page: Page, email: string): Promise<{ secret: string; codes: string[] }> {
  const secret = await signUpToRecoveryCodes(page, email);
  const codes = await shownRecoveryCodes(page);
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page).toHaveURL(/\/$/);
  return { secret, codes };
}

/** Signs up and sets up two-factor, stopping on the page that shows the new recovery codes; returns the secret. */
export async function signUpToRecoveryCodes(page: Page, email: string): Promise<string> {
  await fillSignUp(page, email);
  await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
  await page.goto(emailedLink(email, "/auth/sign-up/password"));
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page).toHaveURL(/\/auth\/setup-2fa$/);
  const secret = (await page.locator("#secret-key").textContent())!.trim();
  await page.getByLabel("Verification code").fill(totpCode(secret));
  await page.getByRole("button", { name: "Verify and finish" }).click();
  await expect(page).toHaveURL(/\/account\/recovery-codes$/);
  return secret;
}

export async function signInWithPassword(page: Page, email: string, password = PASSWORD) {
  await page.goto("/auth/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
}
