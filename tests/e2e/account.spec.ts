import { PDFDict, PDFDocument, PDFName } from "@cantoo/pdf-lib";
import type { Page } from "@playwright/test";
import { createAccount, PASSWORD, signInWithPassword, signOut, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { plantInterviews, setInterviewVars, withE2eDatabase } from "./support";
import { plantSignedIn } from "./people";

const rows = (page: Page) => page.locator("table.interviews tbody tr");

test.describe("account area", () => {
  test("visitors are sent from every account page to sign in (and back after), and unknown account paths are 404", async ({ page }) => {
    for (const path of ["/account", "/account/dashboard", "/account/interview", "/account/edit-profile", "/account/change-password", "/account/recovery-codes", "/account/authenticator"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(`/auth/sign-in?returnTo=${encodeURIComponent(path)}`);
    }
    await plantSignedIn(page, uniqueEmail("guard"));
    const response = await page.goto("/account/nope");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sorry, we couldn't find this page.");
  });

  test("the dashboard greets by name and offers the four tiles, and ones for two-factor recovery and your data", async ({ page, axe }) => {
    await createAccount(page, uniqueEmail("dashboard"));
    await page.locator("header").getByRole("link", { name: "Your account" }).first().click();
    await expect(page).toHaveURL(/\/account\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Ana Lim");
    await expect(page.getByText("Please choose one of the following options:")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem")).toHaveText(["Home", "Your account"]);
    for (const [name, description, href] of [
      ["My interviews", "View my pending or completed interviews", "/account/interview"],
      ["Edit profile", "Edit my profile details", "/account/edit-profile"],
      ["Change password", "Change my password", "/account/change-password"],
      ["Recovery codes", "Make new recovery codes or set up a new authenticator", "/account/recovery-codes"],
      ["Download my data", "Download my profile, interviews, documents and files", "/account/my-data"],
      ["Delete my account", "Delete my account and everything in it", "/account/delete-account"],
    ]) {
      const tile = page.getByRole("link", { name: `${name} ${description}` });
      await expect(tile).toHaveAttribute("href", href!);
    }
    await axe();
    await page.getByRole("button", { name: "Sign out Sign out of the product" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
  });

  test("edit profile: the name rules, then Profile updated. and the new name in the header", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("profile"));
    await page.goto("/account/edit-profile");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem")).toHaveText(["Home", "Your account", "Edit profile"]);
    await expect(page.getByRole("link", { name: "Return to your account overview" })).toHaveAttribute("href", "/account/dashboard");
    await expect(page.getByLabel("First name")).toHaveValue("Ana");
    await page.getByLabel("First name").fill("   ");
    await page.getByLabel("Last name").fill("y".repeat(51));
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByLabel("First name")).toHaveAccessibleDescription("This field is required.");
    await expect(page.getByLabel("Last name")).toHaveAccessibleDescription("This field must be less than 50 characters.");
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" }).getByRole("link")).toHaveText([
      "First name: This field is required.",
      "Last name: This field must be less than 50 characters.",
    ]);
    await expect(page).toHaveTitle("Error: Edit profile | Legal Self-Help");
    await axe();
    await page.getByLabel("First name").fill("  Maria ");
    await page.getByLabel("Last name").fill("Tan");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("Profile updated.");
    await expect(page.locator("header").getByText("Welcome Maria Tan")).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Maria");
    await axe();
  });

  test("change password: every message, a wrong current password, then Password updated and other sessions end", async ({
    page,
    browser,
    javaScriptEnabled,
    axe,
  }) => {
    const email = uniqueEmail("password");
    await createAccount(page, email);
    // A second session of the same account, on another device, through the password step only.
    const device = await browser.newContext({ javaScriptEnabled });
    const other = await device.newPage();
    await signInWithPassword(other, email);
    await expect(other).toHaveURL(/verify-2fa$/);

    await page.goto("/account/change-password");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem")).toHaveText(["Home", "Your account", "Change Password"]);
    await page.getByRole("button", { name: "Change password" }).click();
    for (const label of ["Current password", "New password", "Repeat new password"]) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAccessibleDescription(/This field is required\./);
    }
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" }).getByRole("link")).toHaveText(
      ["Current password", "New password", "Repeat new password"].map((label) => `${label}: This field is required.`),
    );
    await expect(page).toHaveTitle("Error: Change password | Legal Self-Help");
    await axe();
    const attempt = async (current: string, next: string, repeat: string) => {
      await page.getByLabel("Current password").fill(current);
      await page.getByLabel("New password", { exact: true }).fill(next);
      await page.getByLabel("Repeat new password").fill(repeat);
      await page.getByRole("button", { name: "Change password" }).click();
    };
    await attempt("short", "abc", "abc");
    await expect(page.getByLabel("Current password")).toHaveAccessibleDescription("Your password must have 8 characters.");
    await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/Your password must have 8 characters\./);
    await attempt(PASSWORD, PASSWORD, PASSWORD);
    await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(
      /Your new password must be different than your current password\./,
    );
    await attempt(PASSWORD, "another pass 9", "another pass 8");
    await expect(page.getByLabel("Repeat new password")).toHaveAccessibleDescription("The Confirm Password does not match.");
    await attempt("wrong password 1", "another pass 9", "another pass 9");
    await expect(page.getByLabel("Current password")).toHaveAccessibleDescription("The current password is invalid.");
    await axe();
    await attempt(PASSWORD, "another pass 9", "another pass 9");
    await expect(page.getByRole("status")).toHaveText("Password updated");
    await axe();

    // This session goes on; the other device's half-finished sign-in is gone.
    await page.goto("/account/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome Ana Lim");
    await other.goto("/auth/sign-in/verify-2fa");
    await expect(other).toHaveURL(/\/auth\/sign-in$/);
    await device.close();

    await signOut(page);
    await signInWithPassword(page, email, "another pass 9");
    await expect(page).toHaveURL(/verify-2fa$/);
  });

  test("my interviews: empty state, newest first, Edit or Download by status, paging at 5, 10 and 25", async ({ page, axe }) => {
    const email = uniqueEmail("list");
    await plantSignedIn(page, email);
    await page.goto("/account/interview");
    await expect(page.getByText("You have no interviews yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Choose an issue to start an interview" })).toHaveAttribute("href", "/");
    await axe();

    const ids = plantInterviews(
      email,
      Array.from({ length: 27 }, (_, i) => ({ issueId: i % 2 ? 2 : 6, status: i % 3 === 0 ? "Completed" : "Draft", daysAgo: i })),
    );
    await page.goto("/account/interview");
    await expect(page.getByRole("columnheader")).toHaveText(["Date", "Issue", "Status", "Action"]);
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByText("1–5 of 27")).toBeVisible();
    // Newest first: the first row is the one saved today (i = 0: issue 6, Completed).
    const first = rows(page).first();
    await expect(first.getByRole("cell").nth(1)).toHaveText("Getting your rental bond back");
    await expect(first.locator(".status")).toHaveText("Completed");
    await expect(first.locator(".status")).toHaveCSS("color", "rgb(27, 94, 32)");
    await expect(first.getByRole("link", { name: /Download/ })).toHaveAttribute("href", `/account/interview/${ids[0]}/download`);
    const second = rows(page).nth(1);
    await expect(second.locator(".status")).toHaveText("Draft");
    await expect(second.getByRole("link", { name: /Edit/ })).toHaveAttribute("href", `/issues/2/interviews/${ids[1]}`);
    await axe();

    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/page=2&size=5$/);
    await expect(page.getByText("6–10 of 27")).toBeVisible();
    await page.getByRole("link", { name: "Page 6" }).click();
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);

    for (const [size, count, range] of [
      ["10", 10, "1–10 of 27"],
      ["25", 25, "1–25 of 27"],
    ] as const) {
      await page.getByLabel("Rows per page").selectOption(size);
      await page.getByRole("button", { name: "Show" }).click();
      await expect(rows(page)).toHaveCount(count);
      await expect(page.getByText(range)).toBeVisible();
    }
    await page.getByRole("link", { name: "Page 2" }).click();
    await expect(rows(page)).toHaveCount(2);
    await axe();
    // A page past the end shows the last page.
    await page.goto("/account/interview?page=99&size=10");
    await expect(page.getByText("21–27 of 27")).toBeVisible();
  });

  test("delete: kept, then confirmed; the confirmation page works too", async ({ page, axe }) => {
    const email = uniqueEmail("delete");
    await createAccount(page, email);
    const [newest, older] = plantInterviews(email, [
      { issueId: 2, status: "Draft", daysAgo: 0 },
      { issueId: 6, status: "Draft", daysAgo: 1 },
    ]);
    await page.goto("/account/interview");
    await rows(page).first().getByRole("button", { name: /Delete/ }).click();
    const dialog = page.getByRole("dialog", { name: "Are you sure you want to delete?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Deleted interviews cannot be retrieved again")).toBeVisible();
    await axe();
    await dialog.getByRole("button", { name: "No, keep" }).click();
    await expect(dialog).toBeHidden();
    await expect(rows(page)).toHaveCount(2);

    await rows(page).first().getByRole("button", { name: /Delete/ }).click();
    await dialog.getByRole("button", { name: "Yes, delete" }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByRole("status")).toHaveText("Interview deleted.");
    await expect(page.locator(`a[href$="${newest}"]`)).toHaveCount(0);

    // Without popover support the Delete link opens a confirmation page.
    await page.goto(`/account/interview/${older}/delete`);
    await expect(page.getByRole("heading", { name: "Are you sure you want to delete?" })).toBeVisible();
    await axe();
    await page.getByRole("link", { name: "No, keep" }).click();
    await expect(rows(page)).toHaveCount(1);
    await page.goto(`/account/interview/${older}/delete`);
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByText("You have no interviews yet.")).toBeVisible();
  });

  test("another user's interview is neither listed, nor deletable, nor downloadable, nor editable from the list", async ({ page, browser, javaScriptEnabled }) => {
    const owner = uniqueEmail("owner");
    const device = await browser.newContext({ javaScriptEnabled });
    await plantSignedIn(await device.newPage(), owner);
    await device.close();
    const [theirs] = plantInterviews(owner, [{ issueId: 2, status: "Completed", daysAgo: 0 }]);

    await plantSignedIn(page, uniqueEmail("intruder"));
    await page.goto("/account/interview");
    await expect(page.getByText("You have no interviews yet.")).toBeVisible();
    expect((await page.goto(`/account/interview/${theirs}/download`))?.status()).toBe(404);
    expect((await page.goto(`/account/interview/${theirs}/delete`))?.status()).toBe(404);
    const post = await page.request.post(`/account/interview/${theirs}/delete`, { form: { back: "/account/interview" } });
    expect(post.status()).toBe(404);
    // Still there for its owner.
    const { withE2eDatabase } = await import("./support");
    expect(withE2eDatabase((db) => db.prepare("select count(*) as n from interviews where id = ?").get(theirs))).toEqual({ n: 1 });
  });

  test("download gives the owner's completed interview's document as a PDF; a Draft is 404; no document is a message, never 500", async ({ page }) => {
    const email = uniqueEmail("download");
    await plantSignedIn(page, email);
    const [completed, draft, empty] = plantInterviews(email, [
      { issueId: 2, status: "Completed", daysAgo: 0 },
      { issueId: 2, status: "Draft", daysAgo: 1 },
      { issueId: 2, status: "Completed", daysAgo: 2 },
    ]);
    const answers = {
      "user name full te": { name: "User name full TE", type: "Text", repeating: false, values: [null, "Zoë Ångström"] },
      "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
      "company name te": { name: "Company name TE", type: "Text", repeating: false, values: [null, "ACME"] },
    };
    for (const id of [completed!, draft!]) setInterviewVars(id, answers);

    const download = await page.request.get(`/account/interview/${completed}/download`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");
    // Named from the issue, the document and the day it was completed (the UTF-8 name beside an ASCII one).
    expect(download.headers()["content-disposition"]).toMatch(
      /^attachment; filename="Criminal records and spent convictions - Employment Verification - \d{1,2} [A-Z][a-z]+ \d{4}\.pdf"; filename\*=UTF-8''Criminal%20records%20and%20spent%20convictions%20%E2%80%93%20Employment%20Verification%20%E2%80%93%20\d{1,2}%20[A-Z][a-z]+%20\d{4}\.pdf$/,
    );
    expect((await download.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The built server finds the document fonts: the employment letter comes in Tinos, as a tagged A4 PDF (decision 0024).
    const pdf = await PDFDocument.load(await download.body());
    expect(pdf.catalog.lookup(PDFName.of("StructTreeRoot"))).toBeTruthy();
    expect(pdf.getPages().some((p) => Math.round(p.getWidth()) === 595 && Math.round(p.getHeight()) === 842)).toBe(true);
    const fonts = pdf.getPages().flatMap((p) => {
      const dict = p.node.Resources()?.lookupMaybe(PDFName.of("Font"), PDFDict);
      return dict ? dict.values().map((ref) => String(pdf.context.lookup(ref, PDFDict).lookup(PDFName.of("BaseFont")))) : [];
    });
    expect(fonts.some((name) => /Tinos/.test(name))).toBe(true); // the letter is in Times New Roman

    expect((await page.goto(`/account/interview/${draft}/download`))?.status()).toBe(404);

    // A completed interview whose answers call for no document: back to the list with the reason.
    const response = await page.goto(`/account/interview/${empty}/download`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/account\/interview$/);
    await expect(page.getByRole("alert")).toHaveText("Your answers do not call for a document, so there is nothing to download.");
  });
});
