import { expect, test } from "./fixtures";
import { createAccount, emailedLink, fillSignUp, PASSWORD, shownRecoveryCodes, signInWithPassword, signOut, totpCode, uniqueEmail } from "./accounts";
import { withE2eDatabase } from "./support";

const summary = (page: import("@playwright/test").Page) => page.getByRole("alert").filter({ hasText: "There is a problem" });

test.describe("accounts", () => {
  test("the whole journey: sign up, verify by email, password, two-factor setup, sign out, sign in again", async ({ page, axe }) => {
    const email = uniqueEmail("journey");
    await fillSignUp(page, email, { firstName: "  Ana  ", lastName: "Lim" });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your email");
    await expect(page.getByText(email)).toBeVisible();
    await axe();

    await page.getByRole("button", { name: "Send the link again" }).click();
    await expect(page.getByRole("status")).toHaveText("Successfully resent.");

    await page.goto(emailedLink(email, "/auth/sign-up/password"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your password");
    await axe();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save password" }).click();

    await expect(page).toHaveURL(/\/auth\/setup-2fa$/);
    await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
    await axe();
    const secret = (await page.locator("#secret-key").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel("Verification code").fill(totpCode(secret));
    await page.getByRole("button", { name: "Verify and finish" }).click();
    await shownRecoveryCodes(page);
    await page.getByRole("button", { name: "I have saved them" }).click();

    await expect(page).toHaveURL(/\/$/);
    const header = page.locator("header");
    await expect(header.getByText("Welcome Ana Lim")).toBeVisible();
    await expect(header.getByRole("link", { name: "Your account" }).first()).toHaveAttribute("href", "/account/dashboard");
    await axe();

    // Signed in, the issue page offers to start the interview.
    await page.goto("/issues/2");
    await expect(page.locator("main").getByRole("link", { name: "Start now" })).toHaveAttribute("href", "/issues/2/interviews");

    await signOut(page);
    await expect(page).toHaveURL(/\/$/);

    await signInWithPassword(page, email.toUpperCase());
    await expect(page).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
    await axe();
    await page.getByLabel("Verification code").fill(totpCode(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("header").getByText("Welcome Ana Lim")).toBeVisible();
  });

  test("sign-up messages and AU01", async ({ page, axe }) => {
    await page.goto("/auth/sign-up");
    await expect(page.getByLabel("Country code")).toHaveValue("SG");
    // About 240 countries, each with its calling code.
    expect(await page.getByLabel("Country code").locator("option").count()).toBeGreaterThanOrEqual(240);
    await expect(page.getByLabel("Country code").locator("option:checked")).toHaveText("Singapore (+65)");
    await expect(page).toHaveTitle("Create an account | Legal Self-Help");
    await page.getByRole("button", { name: "Create an account" }).click();
    await expect(summary(page)).toBeFocused();
    for (const label of ["First name", "Last name", "Email", "Phone number"]) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAccessibleDescription(/^(.* )?This field is required\.$/);
    }
    // The summary names each field; the message under the field stays the product's own.
    await expect(summary(page).getByRole("link")).toHaveText(
      ["First name", "Last name", "Email", "Phone number"].map((label) => `${label}: This field is required.`),
    );
    await expect(page).toHaveTitle("Error: Create an account | Legal Self-Help");
    await axe();

    await fillSignUp(page, "not-an-email", { firstName: "x".repeat(51), phoneNumber: "12 ab" });
    await expect(page.getByLabel("First name")).toHaveAccessibleDescription("This field must be less than 50 characters.");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/The email format is invalid\./);
    await expect(page.getByLabel("Phone number", { exact: true })).toHaveAccessibleDescription(/The phone number is invalid\./);
    await fillSignUp(page, uniqueEmail("long-phone"), { phoneNumber: "123456789012" });
    await expect(page.getByLabel("Phone number", { exact: true })).toHaveAccessibleDescription(/The phone number is invalid\./);

    // A phone code outside the list, as a tampered form would send it.
    const response = await page.request.post("/auth/sign-up", {
      form: { firstName: "A", lastName: "B", email: uniqueEmail("code"), phoneCountry: "XX", phoneNumber: "123" },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("The phone code is invalid.");

    const email = uniqueEmail("au01");
    await fillSignUp(page, email);
    await expect(page).toHaveURL(/email-sent$/);
    await fillSignUp(page, email.toUpperCase());
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/This account already exists\. Please reset your password\./);
    await axe();
  });

  test("password rules, a link used twice, and an expired link (AU03)", async ({ page, axe }) => {
    const email = uniqueEmail("links");
    await fillSignUp(page, email);
    const link = emailedLink(email, "/auth/sign-up/password");
    await page.goto(link);
    for (const [password, confirm, field, message] of [
      ["abc1", "abc1", "Password", "Your password must have 8 characters."],
      ["abcdefgh", "abcdefgh", "Password", "Your password must include a number."],
      ["12345678", "12345678", "Password", "Your password must include a letter."],
      [PASSWORD, "something else 1", "Confirm Password", "The Confirm Password does not match."],
    ] as const) {
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByLabel("Confirm Password").fill(confirm);
      await page.getByRole("button", { name: "Save password" }).click();
      await expect(page.getByLabel(field, { exact: true })).toHaveAccessibleDescription(new RegExp(message.replace(".", "\\.")));
      await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    }
    await axe();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save password" }).click();
    await expect(page).toHaveURL(/setup-2fa$/);

    // The same link again: it is used up, and the page says so (more in messages.spec.ts).
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has already been used");

    // An expired link (AU03) leads to the page that sends a new one.
    const late = uniqueEmail("expired");
    await fillSignUp(page, late);
    withE2eDatabase((db) =>
      db
        .prepare("update auth_tokens set expires_at = '2000-01-01T00:00:00.000Z' where user_id = (select id from users where email = ?)")
        .run(late),
    );
    await page.goto(emailedLink(late, "/auth/sign-up/password"));
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await expect(page.getByText("This link has expired. You can receive a new link by clicking the button below. This link will expire in 7 days.")).toBeVisible();
    await axe();
    await expect(page.getByLabel("Email")).toHaveValue(late);
    await page.getByRole("button", { name: "Send a new link" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    await page.goto(emailedLink(late, "/auth/sign-up/password"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your password");
  });

  test("sign-in messages, wrong password, unknown email, and an unverified account (AU02)", async ({ page, axe }) => {
    await page.goto("/auth/sign-in");
    await expect(page.getByRole("link", { name: "Forgotten password?" })).toHaveAttribute("href", "/auth/reset-password");
    await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("This field is required.");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("This field is required.");
    await expect(summary(page).getByRole("link")).toHaveText(["Email: This field is required.", "Password: This field is required."]);
    await expect(page).toHaveTitle("Error: Sign in | Legal Self-Help");
    await axe();

    await signInWithPassword(page, "nobody-" + uniqueEmail("x"), "whatever1");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Wrong username or password.");
    await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid");
    await expect(summary(page).getByRole("link")).toHaveText(["Password: Wrong username or password."]);
    await expect(page).toHaveTitle("Error: Sign in | Legal Self-Help");
    await axe();

    const email = uniqueEmail("au02");
    await fillSignUp(page, email);
    await signInWithPassword(page, email, "whatever1");
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await expect(page.getByText(/Your email address has not been verified yet/)).toBeVisible();
    await axe();
  });

  test("a replayed code, a code without the password step, and another user's pending state", async ({
    page,
    browser,
    javaScriptEnabled,
    axe,
  }) => {
    const a = uniqueEmail("replay-a");
    const secretA = await createAccount(page, a);
    await signOut(page);

    // Without the password step there is nothing to verify.
    await page.goto("/auth/sign-in/verify-2fa");
    await expect(page).toHaveURL(/\/auth\/sign-in$/);
    await page.goto("/auth/sign-in/recovery-code");
    await expect(page).toHaveURL(/\/auth\/sign-in$/);
    await page.goto("/auth/setup-2fa");
    await expect(page).toHaveURL(/\/auth\/sign-in$/);

    // The code that signed A in a moment ago does not work a second time. The next period's code is used so
    // that it is newer than the one two-factor setup accepted, whichever side of a 30 s boundary we are on.
    const used = totpCode(secretA, 1);
    await signInWithPassword(page, a);
    await page.getByLabel("Verification code").fill(used);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/$/);
    await signOut(page);
    await signInWithPassword(page, a);
    await page.getByLabel("Verification code").fill(used);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByLabel("Verification code")).toHaveAccessibleDescription(/The verification code is invalid\./);
    await axe();

    // B's valid code, sent with B's email, against A's pending sign-in: refused, and nobody is signed in.
    const other = await browser.newContext({ javaScriptEnabled });
    const b = uniqueEmail("replay-b");
    const secretB = await createAccount(await other.newPage(), b);
    await other.close();
    const response = await page.request.post("/auth/sign-in/verify-2fa", {
      form: { code: totpCode(secretB, 1), email: b, userId: "anything" },
    });
    expect(await response.text()).toContain("The verification code is invalid.");
    await page.goto("/");
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
  });

  test("signed-in people are sent from every auth page to /", async ({ page }) => {
    await createAccount(page, uniqueEmail("signed-in"));
    for (const path of ["/auth/sign-in", "/auth/sign-up", "/auth/reset-password", "/auth/setup-2fa", "/auth/sign-in/verify-2fa", "/auth/sign-in/recovery-code", "/auth/email-verify-issue"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/$/);
    }
  });

  test("pages that need the flow's state send visitors to /", async ({ page }) => {
    for (const path of ["/auth/sign-up/email-sent", "/auth/email-verify-issue", "/auth/reset-password/check-email", "/auth/reset-password/successful"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/$/);
    }
    await page.goto("/auth/sign-up/password?code=nonsense");
    await expect(page).toHaveURL(/\/auth\/email-verify-issue$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
  });

  test("reset password: check-email, resend, new password, success, other sessions end, sign in", async ({
    page: reset,
    browser,
    javaScriptEnabled,
    axe,
  }) => {
    const email = uniqueEmail("reset");
    // Another device stays signed in: the reset must end its session.
    const device = await browser.newContext({ javaScriptEnabled });
    const page = await device.newPage();
    await createAccount(page, email);
    await reset.goto("/auth/reset-password");
    await reset.getByRole("button", { name: "Send reset link" }).click();
    await expect(reset.getByLabel("Email")).toHaveAccessibleDescription("This field is required.");
    await axe();
    await reset.getByLabel("Email").fill(email);
    await reset.getByRole("button", { name: "Send reset link" }).click();
    await expect(reset).toHaveURL(/\/auth\/reset-password\/check-email$/);
    await axe();
    await reset.getByRole("button", { name: "Send the link again" }).click();
    await expect(reset.getByRole("status")).toHaveText("Password resent.");

    // The same page for an email nobody has.
    await reset.goto("/auth/reset-password");
    await reset.getByLabel("Email").fill(uniqueEmail("nobody"));
    await reset.getByRole("button", { name: "Send reset link" }).click();
    await expect(reset).toHaveURL(/\/auth\/reset-password\/check-email$/);

    await reset.goto(emailedLink(email, "/auth/reset-password/password"));
    const newPassword = "a new password 7";
    await reset.getByLabel("Password", { exact: true }).fill("short1");
    await reset.getByLabel("Confirm Password").fill("short1");
    await reset.getByRole("button", { name: "Reset password" }).click();
    await expect(reset.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(/Your password must have 8 characters\./);
    await axe();
    await reset.getByLabel("Password", { exact: true }).fill(newPassword);
    await reset.getByLabel("Confirm Password").fill(newPassword);
    await reset.getByRole("button", { name: "Reset password" }).click();
    await expect(reset).toHaveURL(/\/auth\/reset-password\/successful$/);
    await axe();
    await reset.reload();
    await expect(reset).toHaveURL(/\/$/);

    // The reset ended the session on the other device.
    await page.goto("/issues/2");
    await expect(page).toHaveURL(/\/issues\/2$/);
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();

    await signInWithPassword(reset, email, PASSWORD);
    await expect(reset.getByLabel("Password")).toHaveAccessibleDescription("Wrong username or password.");
    await signInWithPassword(reset, email, newPassword);
    await expect(reset).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
    await device.close();
  });

  test("too many sign-in attempts are refused with a clear message", async ({ page, axe }) => {
    const email = uniqueEmail("limit");
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await page.request.post("/auth/sign-in", { form: { email, password: `wrong-${attempt}` } });
      expect(response.status()).toBe(400);
    }
    await signInWithPassword(page, email, "wrong-11");
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
      /Too many attempts\. Please wait \d+ minutes? and try again\./,
    );
    await axe();
  });
});

test.describe("signed-in layout", () => {
  test("the secret key can be copied with script, and is selectable text without", async ({ page, javaScriptEnabled, axe }) => {
    const email = uniqueEmail("copy");
    await fillSignUp(page, email);
    await page.goto(emailedLink(email, "/auth/sign-up/password"));
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save password" }).click();
    const secret = (await page.locator("#secret-key").textContent())!.trim();
    const copy = page.getByRole("button", { name: "Copy secret key" });
    if (!javaScriptEnabled) {
      await expect(copy).toBeHidden();
      await expect(page.locator("#secret-key")).toHaveCSS("user-select", "all");
      return;
    }
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await copy.click();
    await expect(page.getByRole("status")).toHaveText("Text copied to clipboard");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await axe();
  });

  test("on a narrow screen the name opens a menu with Your account and Sign out", async ({ page, axe }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await createAccount(page, uniqueEmail("narrow"));
    const header = page.locator("header");
    await expect(header.getByText("Welcome Ana Lim")).toBeHidden();
    await header.getByText("Ana Lim", { exact: true }).click();
    await expect(header.getByRole("link", { name: "Your account" })).toBeVisible();
    await axe();
    await header.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
  });
});
