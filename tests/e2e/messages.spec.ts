import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createAccount, emailedLink, fillSignUp, PASSWORD, uniqueEmail } from "./accounts";
import { outboxMessages, withE2eDatabase } from "./support";

// Issue 15, parts 3 and 4: messages that stay when they matter, links that say why they no longer work,
// error summaries that name their field.

const summary = (page: Page) => page.getByRole("alert").filter({ hasText: "There is a problem" });
const toast = (page: Page) => page.getByRole("dialog", { name: "Successfully resent." });
const linksTo = (email: string, path: string) => outboxMessages().filter((m) => m.to_address === email && m.text.includes(path)).length;

test.describe("links that no longer work", () => {
  test("a used sign-up link says so, and sends a new link (a reset link, the password being set)", async ({ page, axe }) => {
    const email = uniqueEmail("used-signup");
    await createAccount(page, email);
    const used = emailedLink(email, "/auth/sign-up/password");
    await page.context().clearCookies();

    await page.goto(used);
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has already been used");
    await expect(page).toHaveTitle("This link has already been used | Legal Self-Help");
    await expect(page.getByText(/^This link has already been used, or a newer link was sent after it\./)).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign In" }).last()).toHaveAttribute("href", "/auth/sign-in");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await axe();

    // A blank email: the summary names the field, the title says there is an error.
    await page.getByLabel("Email").fill("");
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(summary(page).getByRole("link")).toHaveText(["Email: This field is required."]);
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/This field is required\.$/);
    await expect(page).toHaveTitle("Error: This link has already been used | Legal Self-Help");
    await axe();

    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your email");
    // The email is verified already: the new link is one to choose the password again, and it works.
    await page.goto(emailedLink(email, "/auth/reset-password/password"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
  });

  test("a replaced sign-up link says it was used, and a new verification link arrives", async ({ page, axe }) => {
    const email = uniqueEmail("replaced-signup");
    await fillSignUp(page, email);
    const first = emailedLink(email, "/auth/sign-up/password");
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(page.getByRole("status")).toHaveText("Successfully resent.");
    await page.goto(first);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has already been used");
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    expect(linksTo(email, "/auth/sign-up/password")).toBe(3);
    await page.goto(emailedLink(email, "/auth/sign-up/password"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your password");
    await axe();
  });

  test("an unknown sign-up link says so and asks for the email; nobody learns whether an account exists", async ({ page, axe }) => {
    await page.goto("/auth/sign-up/password?code=nonsense");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
    await expect(page.getByLabel("Email")).toHaveValue("");
    await axe();
    const nobody = uniqueEmail("nobody");
    await page.getByLabel("Email").fill(nobody);
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    await expect(page.getByText(nobody)).toBeVisible();
    expect(outboxMessages().filter((m) => m.to_address === nobody)).toHaveLength(0);
  });

  test("a used reset link says so, and sends a new reset link", async ({ page, axe }) => {
    const email = uniqueEmail("used-reset");
    await createAccount(page, email);
    await page.context().clearCookies();
    await page.goto("/auth/reset-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page).toHaveURL(/\/auth\/reset-password\/check-email$/);
    const used = emailedLink(email, "/auth/reset-password/password");
    await page.goto(used);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page).toHaveURL(/\/auth\/reset-password\/successful$/);

    await page.goto(used);
    await expect(page).toHaveURL(/\/auth\/reset-password\?link=used$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has already been used");
    await expect(page).toHaveTitle("This link has already been used | Legal Self-Help");
    await expect(
      page.getByText(
        "This link has already been used, or a newer link was sent after it. You can receive a new link by clicking the button below. This link will expire in 1 hour.",
      ),
    ).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await axe();
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(page).toHaveURL(/\/auth\/reset-password\/check-email$/);
    expect(linksTo(email, "/auth/reset-password/password")).toBe(2);
    const fresh = emailedLink(email, "/auth/reset-password/password");
    expect(fresh).not.toBe(used);
    await page.goto(fresh);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
  });

  test("an expired and an unknown reset link say which", async ({ page, axe }) => {
    const email = uniqueEmail("expired-reset");
    await createAccount(page, email);
    await page.context().clearCookies();
    await page.goto("/auth/reset-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    withE2eDatabase((db) =>
      db
        .prepare("update auth_tokens set expires_at = '2000-01-01T00:00:00.000Z' where purpose = 'reset-password' and user_id = (select id from users where email = ?)")
        .run(email),
    );
    await page.goto(emailedLink(email, "/auth/reset-password/password"));
    await expect(page).toHaveURL(/\/auth\/reset-password\?link=expired$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has expired");
    await expect(
      page.getByText("This link has expired. You can receive a new link by clicking the button below. This link will expire in 1 hour."),
    ).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await axe();

    await page.goto("/auth/reset-password/password?code=nonsense");
    await expect(page).toHaveURL(/\/auth\/reset-password\?link=unknown$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
    // No error state is lost on the way: a blank email is named in the summary, the problem stays said.
    await page.getByLabel("Email").fill("");
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(summary(page).getByRole("link")).toHaveText(["Email: This field is required."]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
    await expect(page).toHaveTitle("Error: This link is not valid | Legal Self-Help");
    await axe();
  });
});

test.describe("toasts", () => {
  test("a success toast stays while hovered or focused, fades after 5 s, and closes; a reached limit is said on the page", async ({
    page,
    axe,
  }) => {
    const email = uniqueEmail("toast");
    await fillSignUp(page, email);
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(toast(page)).toBeVisible();
    // Hovered before axe runs: on a busy machine axe alone can outlast the toast's 5 seconds.
    await toast(page).hover();
    await axe();
    await page.waitForTimeout(6_500);
    await expect(toast(page)).toBeVisible();
    // Away from it, the rest of the 5 seconds runs out.
    await page.mouse.move(0, 0);
    await expect(toast(page)).toBeHidden({ timeout: 6_000 });

    // Closed at once with its button, which keyboard focus also holds it for.
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(toast(page)).toBeVisible();
    await toast(page).getByRole("button", { name: "Close message" }).focus();
    await page.waitForTimeout(6_500);
    await expect(toast(page)).toBeVisible();
    await toast(page).getByRole("button", { name: "Close message" }).click();
    await expect(toast(page)).toBeHidden({ timeout: 500 });

    // Past the per-account limit (3 an hour): not a toast that fades, but the page's own error summary.
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(toast(page)).toBeVisible();
    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(summary(page)).toContainText(/Too many attempts\. Please wait \d+ minutes? and try again\./);
    await expect(page).toHaveTitle("Error: Check your email | Legal Self-Help");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await axe();
  });
});
