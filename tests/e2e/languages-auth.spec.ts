import { createHash, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { createAccount, createAccountWithCodes, emailedLink, PASSWORD, signOut, totpCode, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { overflowAt320, untranslatedWords } from "./pseudo-language";
import { outboxMessages, sealedColumn, withE2eDatabase } from "./support";

// The sign-in, sign-up, password, two-factor and invitation pages (app/routes/auth.*, app/routes/invitation.tsx)
// in the pseudo-language: every word on them, their error states included, comes from the catalogues.

const XA = "lang=en-XA";

/** No plain English left on the page as it is now. */
async function allTranslated(page: Page, where: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
  expect(await untranslatedWords(page), where).toEqual([]);
  expect(await overflowAt320(page), `${where} at 320 px`).toEqual([]);
}

/** The page's form sent as it is (empty, or as filled in). */
async function submit(page: Page) {
  await page.locator("main form.form button[type=submit]").first().click();
}

/** Signing out from the header, whatever the page's language. */
async function signOutHere(page: Page) {
  await page.locator('header form[action="/auth/sign-out"] button').first().click();
  await expect(page.locator('header form[action="/auth/sign-out"]')).toHaveCount(0);
}

const field = (page: Page, name: string) => page.locator(`main [name="${name}"]`);

/** The newest emailed link to `path`: a pseudo-language email's link line ends in its bracket, left out. */
function emailedPseudoLink(email: string, path: string): string {
  const text = outboxMessages()
    .filter((m) => m.to_address === email && m.text.includes(path))
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .at(-1)?.text;
  const url = text?.match(/https?:\/\/[^\s⟧]+/)?.[0];
  if (!url) throw new Error(`No email to ${email} with a link to ${path}`);
  return new URL(url).pathname + new URL(url).search;
}

/** A prepared interview with an invitation code, as the help desk makes one (app/help/prepared.server.ts). */
function plantInvitation(helperEmail: string, personEmail: string, state: "valid" | "expired" | "used"): string {
  const code = `xa-${randomUUID()}`;
  withE2eDatabase((db) => {
    const helper = db.prepare("select id from users where email = ?").get(helperEmail) as { id: string };
    const id = randomUUID();
    const now = Date.now();
    const stamp = new Date(now).toISOString();
    const expires = new Date(state === "expired" ? now - 86_400_000 : now + 86_400_000).toISOString();
    db.prepare("insert into interviews (id, user_id, issue_id, status, vars, engine_state, created_at, updated_at) values (?, ?, 2, 'Draft', ?, ?, ?, ?)").run(
      id, helper.id, sealedColumn("vars", id, "{}"), sealedColumn("engine_state", id, "{}"), stamp, stamp,
    );
    db.prepare(
      "insert into prepared_interviews (interview_id, helper_id, helper_name, person_first_name, person_last_name, person_email, invitation_hash, invited_at, expires_at, created_at, claimed_at) values (?, ?, 'Hana Helper', 'Di', 'Ng', ?, ?, ?, ?, ?, ?)",
    ).run(id, helper.id, personEmail, createHash("sha256").update(code).digest("base64url"), stamp, expires, stamp, state === "used" ? stamp : null);
  });
  return `/invitation?code=${code}`;
}

test.describe("the auth pages in the pseudo-language", () => {
  test("signing up: the form and its errors, the emailed link, the password, two-factor set-up, a limit reached", async ({ page }) => {
    await page.goto(`/auth/sign-up?${XA}`);
    await allTranslated(page, "sign-up");
    await submit(page);
    await expect(page.locator(".error-summary")).toBeVisible();
    await allTranslated(page, "sign-up, empty");
    await field(page, "firstName").fill("x".repeat(51));
    await field(page, "lastName").fill("Lim");
    await field(page, "email").fill("not-an-email");
    await field(page, "phoneNumber").fill("12 ab");
    await submit(page);
    await allTranslated(page, "sign-up, wrong values");

    const email = uniqueEmail("xa-sign-up");
    await field(page, "firstName").fill("Ana");
    await field(page, "email").fill(email);
    await field(page, "phoneNumber").fill("91234567");
    await submit(page);
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    await allTranslated(page, "email sent");
    await page.locator("main form button[type=submit]").click();
    await expect(page.locator(".toast")).toBeVisible();
    await allTranslated(page, "email sent, resent (toast)");

    // The same account again: it exists.
    await page.goto("/auth/sign-up");
    await field(page, "firstName").fill("Ana");
    await field(page, "lastName").fill("Lim");
    await field(page, "email").fill(email);
    await field(page, "phoneNumber").fill("91234567");
    await submit(page);
    await expect(page.locator("#sign-up .field--invalid, .field--invalid").first()).toBeVisible();
    await allTranslated(page, "sign-up, account exists");

    const link = emailedPseudoLink(email, "/auth/sign-up/password");
    await page.goto(link);
    await allTranslated(page, "create password");
    await submit(page);
    await allTranslated(page, "create password, empty");
    await field(page, "password").fill("abcdefgh");
    await field(page, "confirmPassword").fill("abcdefgh");
    await submit(page);
    await allTranslated(page, "create password, no number");
    await field(page, "password").fill(PASSWORD);
    await field(page, "confirmPassword").fill("something else 1");
    await submit(page);
    await allTranslated(page, "create password, not confirmed");
    await field(page, "password").fill(PASSWORD);
    await field(page, "confirmPassword").fill(PASSWORD);
    await submit(page);

    await expect(page).toHaveURL(/\/auth\/setup-2fa$/);
    await allTranslated(page, "set up two-factor");
    await submit(page);
    await allTranslated(page, "set up two-factor, empty");
    await field(page, "code").fill("12345");
    await submit(page);
    await allTranslated(page, "set up two-factor, wrong code");

    // The used link leads to the page that sends a new one.
    await page.context().clearCookies();
    await page.goto(`${link}&${XA}`);
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await allTranslated(page, "email verify issue (used link)");
    await submit(page);
    await allTranslated(page, "email verify issue, empty");
    await page.goto(`/auth/sign-up/password?code=made-up`);
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await allTranslated(page, "email verify issue (unknown link)");

    // Sending the link again past the limit of emails per account: the page says how long to wait.
    await field(page, "email").fill(email);
    await submit(page);
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    for (let tries = 0; tries < 5 && !(await page.locator(".error-summary").isVisible()); tries++) {
      await page.locator("main form button[type=submit]").click();
    }
    await expect(page.locator(".error-summary")).toBeVisible();
    await allTranslated(page, "email sent, too many attempts");
  });

  test("signing in: wrong password, two-factor code, recovery code; resetting the password; a deleted account", async ({ page }) => {
    const email = uniqueEmail("xa-sign-in");
    const { secret, codes } = await createAccountWithCodes(page, email);
    await signOut(page);

    await page.goto(`/auth/sign-in?${XA}`);
    await allTranslated(page, "sign-in");
    await submit(page);
    await allTranslated(page, "sign-in, empty");
    await field(page, "email").fill(email);
    await field(page, "password").fill("wrong password 1");
    await submit(page);
    await allTranslated(page, "sign-in, wrong password");
    await page.goto("/auth/sign-in?returnTo=/account/dashboard");
    await allTranslated(page, "sign-in, to see a page");

    await field(page, "email").fill(email);
    await field(page, "password").fill(PASSWORD);
    await submit(page);
    await expect(page).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
    await allTranslated(page, "two-factor code");
    await submit(page);
    await allTranslated(page, "two-factor code, empty");
    await field(page, "code").fill("000000");
    await submit(page);
    await allTranslated(page, "two-factor code, wrong");
    await page.goto("/auth/sign-in/recovery-code");
    await allTranslated(page, "recovery code");
    await submit(page);
    await allTranslated(page, "recovery code, empty");
    await field(page, "code").fill("aaaaa-bbbbb");
    await submit(page);
    await allTranslated(page, "recovery code, wrong");
    await page.goto("/auth/sign-in/verify-2fa");
    await field(page, "code").fill(totpCode(secret, 1));
    await submit(page);
    // Signed in, back to the page that asked for it.
    await expect(page).toHaveURL(/\/account\/dashboard$/);

    // A deleted account's last page.
    await page.goto("/account/delete-account");
    await field(page, "password").fill(PASSWORD);
    await field(page, "code").fill(codes[1]!);
    await page.locator("main form button[type=submit]").click();
    await expect(page).toHaveURL(/\/auth\/account-deleted$/);
    await allTranslated(page, "account deleted");

    // Resetting a password: the request, its errors, the links that no longer work, the new password.
    const other = uniqueEmail("xa-reset");
    await page.context().clearCookies();
    await createAccount(page, other);
    await signOut(page);
    await page.goto(`/auth/reset-password?${XA}`);
    await allTranslated(page, "reset password");
    await submit(page);
    await allTranslated(page, "reset password, empty");
    for (const kind of ["expired", "used", "unknown"]) {
      await page.goto(`/auth/reset-password?link=${kind}`);
      await allTranslated(page, `reset password, ${kind} link`);
    }
    await field(page, "email").fill(other);
    await submit(page);
    await expect(page).toHaveURL(/\/auth\/reset-password\/check-email$/);
    await allTranslated(page, "check email");
    await page.goto(emailedPseudoLink(other, "/auth/reset-password/password"));
    await allTranslated(page, "new password");
    await submit(page);
    await allTranslated(page, "new password, empty");
    await field(page, "password").fill("another secret 7");
    await field(page, "confirmPassword").fill("another secret 7");
    await submit(page);
    await expect(page).toHaveURL(/\/auth\/reset-password\/successful$/);
    await allTranslated(page, "password reset");
  });

  test("an invitation: to sign up, to sign in, to add, for another account, used, expired, unknown", async ({ page }) => {
    const helper = uniqueEmail("xa-helper");
    await createAccount(page, helper);
    const invited = uniqueEmail("xa-invited");
    const forNewPerson = plantInvitation(helper, invited, "valid");
    const forHelper = plantInvitation(helper, helper, "valid");

    // Signed in as the helper: one is theirs to add, the other is someone else's.
    await page.goto(`${forHelper}&${XA}`);
    await allTranslated(page, "invitation, to add");
    await page.goto(forNewPerson);
    await allTranslated(page, "invitation, another account's");
    await signOutHere(page);

    await page.goto(forHelper);
    await allTranslated(page, "invitation, to sign in");
    await page.goto(forNewPerson);
    await allTranslated(page, "invitation, to sign up");
    await field(page, "firstName").fill("");
    await submit(page);
    await allTranslated(page, "invitation, to sign up, empty");
    await page.goto(plantInvitation(helper, uniqueEmail("xa-used"), "used"));
    await allTranslated(page, "invitation, used");
    await page.goto(plantInvitation(helper, uniqueEmail("xa-late"), "expired"));
    await allTranslated(page, "invitation, expired");
    await page.goto("/invitation?code=made-up");
    await allTranslated(page, "invitation, unknown");
  });
});

test.describe("the auth pages in a language", () => {
  test("sign-in in French and in Arabic, with its errors", async ({ page }) => {
    await page.goto("/auth/sign-in?lang=fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Se connecter");
    await expect(page).toHaveTitle("Se connecter | Aide juridique autonome");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByLabel("Courriel")).toHaveAccessibleDescription("Ce champ est obligatoire.");
    await expect(page.getByRole("alert").getByRole("link").first()).toHaveText("Courriel : Ce champ est obligatoire.");

    await page.goto("/auth/sign-in?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("تسجيل الدخول");
    await page.getByLabel("البريد الإلكتروني").fill(uniqueEmail("ar"));
    await page.getByLabel("كلمة المرور").fill("wrong password 1");
    await page.getByRole("button", { name: "تسجيل الدخول" }).click();
    await expect(page.getByLabel("كلمة المرور")).toHaveAccessibleDescription("اسم المستخدم أو كلمة المرور غير صحيحة.");
  });

  test("signing up in French: the page, the countries' names, and the email arrive in French", async ({ page }) => {
    const email = uniqueEmail("fr-sign-up");
    await page.goto("/auth/sign-up?lang=fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Créer un compte");
    await expect(page.getByLabel("Indicatif du pays").locator("option:checked")).toHaveText("Singapour (+65)");
    await page.getByLabel("Prénom").fill("Ana");
    await page.getByLabel("Nom de famille").fill("Lim");
    await page.getByLabel("Courriel").fill(email);
    await page.getByLabel("Numéro de téléphone", { exact: true }).fill("91234567");
    await page.getByRole("button", { name: "Créer un compte" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vérifiez vos courriels");
    await expect(page.getByText(email)).toBeVisible();
    await expect.poll(() => outboxMessages().some((message) => message.to_address === email)).toBe(true);
    const sent = outboxMessages().find((message) => message.to_address === email);
    expect(sent?.subject).toBe("Confirmez votre adresse courriel");
    expect(sent?.text).toContain("Bonjour Ana Lim,");
    expect(sent?.html).toContain('lang="fr"');
    // The link works as in English.
    await page.goto(emailedLink(email, "/auth/sign-up/password"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Créez votre mot de passe");
  });
});
