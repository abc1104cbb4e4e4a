import type { Locator, Page } from "@playwright/test";
import { createAccount, signUpToRecoveryCodes, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { moveInterviewTo, plantAtFinish, plantInterviews, withE2eDatabase } from "./support";
import { axeOnViewer, press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 15, part 6: My interviews on a phone, 44 px main controls (axe's target-size, 24 px, runs in every axe
// call: tests/e2e/fixtures.ts), and the print stylesheet.

const rows = (page: Page) => page.locator("table.interviews tbody tr");

/** The control's box lies wholly inside the viewport's width: seen without scrolling sideways. */
async function expectInsideWidth(control: Locator, width: number) {
  await expect(control).toBeVisible();
  const box = (await control.boundingBox())!;
  expect(box.x, await control.textContent() ?? "").toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, await control.textContent() ?? "").toBeLessThanOrEqual(width);
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  expect(await page.locator(".table-scroll").evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
}

async function expectMainControl(control: Locator) {
  await expect(control).toBeVisible();
  const box = (await control.boundingBox())!;
  expect(box.height, `${await control.textContent()} is ${box.height} px tall`).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeGreaterThanOrEqual(24);
}

/** The Delete control the browser shows: the popover's button, or the link to the confirmation page. */
const visibleDelete = (row: Locator) => row.locator(".delete-button, .delete-link").filter({ visible: true });

test.describe("My interviews on a phone", () => {
  test("at 320 px each interview is a card with Download, Answers or Edit, and Delete inside the screen; a table at 1280 px", async ({ page, axe }) => {
    const email = uniqueEmail("phone-list");
    await plantSignedIn(page, email);
    const [completed, draft] = plantInterviews(email, [
      { issueId: 6, status: "Completed", daysAgo: 0 },
      { issueId: 2, status: "Draft", daysAgo: 1 },
    ]);
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto("/account/interview");
    await expect(rows(page)).toHaveCount(2);
    await expectNoSidewaysScroll(page);
    // The card keeps the table's semantics: four column headers (for screen readers only) and labelled cells.
    await expect(page.getByRole("columnheader")).toHaveText(["Date", "Issue", "Status", "Action"]);
    await expect(page.getByRole("columnheader").first()).not.toBeInViewport();
    const first = rows(page).first();
    await expect(first.getByRole("cell").nth(1)).toHaveText("Getting your rental bond back");
    const firstBox = (await first.boundingBox())!;
    expect(firstBox.width).toBeLessThanOrEqual(320);
    // One card above the other, not side by side.
    expect((await rows(page).nth(1).boundingBox())!.y).toBeGreaterThanOrEqual(firstBox.y + firstBox.height);

    const download = first.getByRole("link", { name: /^Download/ });
    await expect(download).toHaveAttribute("href", `/account/interview/${completed}/download`);
    for (const control of [download, first.getByRole("link", { name: /^Answers/ }), visibleDelete(first)]) {
      await expectInsideWidth(control, 320);
      await expectMainControl(control);
    }
    const second = rows(page).nth(1);
    await expect(second.getByRole("link", { name: /^Edit/ })).toHaveAttribute("href", `/issues/2/interviews/${draft}`);
    for (const control of [second.getByRole("link", { name: /^Edit/ }), visibleDelete(second)]) {
      await expectInsideWidth(control, 320);
      await expectMainControl(control);
    }
    // Each cell shows its column's name beside the value.
    expect(await first.getByRole("cell").first().evaluate((cell) => getComputedStyle(cell, "::before").content)).toContain("Date");
    await page.screenshot({ path: test.info().outputPath("my-interviews-320.png"), fullPage: true });
    await axe();

    // The confirmation opens from the card and fits the screen too.
    await visibleDelete(first).click();
    const confirm = page.getByRole("dialog", { name: "Are you sure you want to delete?" });
    await expect(confirm).toBeVisible();
    await expectInsideWidth(confirm.getByRole("button", { name: "Yes, delete" }), 320);
    await expectInsideWidth(confirm.getByRole("button", { name: "No, keep" }), 320);
    await axe();

    // From 600 px the table itself fits, with no sideways scroller either.
    await page.setViewportSize({ width: 600, height: 800 });
    await page.goto("/account/interview");
    await expect(page.getByRole("columnheader").first()).toBeInViewport();
    await expectNoSidewaysScroll(page);
    await expectInsideWidth(visibleDelete(rows(page).first()), 600);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/account/interview");
    await expect(page.getByRole("columnheader").first()).toBeInViewport();
    const headers = await page.getByRole("columnheader").evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().y)));
    expect(new Set(headers).size).toBe(1);
    await expectMainControl(rows(page).first().getByRole("link", { name: /^Download/ }));
    await page.screenshot({ path: test.info().outputPath("my-interviews-1280.png"), fullPage: true });
    await axe();
  });
});

test.describe("targets", () => {
  test("the main controls are 44 px tall: Back to sign in, the error summary's links, the Home breadcrumb, Back to the question, Change", async ({ page, axe }) => {
    await page.goto("/auth/reset-password");
    await expectMainControl(page.getByRole("link", { name: "Back to sign in" }));
    await axe();

    await page.goto("/auth/sign-in");
    await page.getByRole("button", { name: "Sign In" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary.getByRole("link")).toHaveCount(2);
    for (const link of await summary.getByRole("link").all()) await expectMainControl(link);
    await expectMainControl(page.getByRole("button", { name: "Sign In" }).last());
    await axe();

    await page.goto("/issues/2");
    await expectMainControl(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Home" }));

    const email = uniqueEmail("targets");
    await createAccount(page, email);
    await page.goto("/account/interview");
    await expectMainControl(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Home" }));
    await expectMainControl(page.getByRole("link", { name: "Return to your account overview" }));

    // A viewer page with a "more information" popup, on a phone and on a desktop.
    const [id] = plantInterviews(email, [{ issueId: 2, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "2-Housing (Released already)");
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/issues/2/interviews/${id}`);
      const frame = viewer(page);
      await expectMainControl(frame.getByRole("link", { name: "Back to the question" }).first());
      for (const button of await frame.getByRole("button").all()) await expectMainControl(button);
      await page.screenshot({ path: test.info().outputPath(`viewer-${width}.png`), fullPage: true });
      await axeOnViewer(page, axe);
    }

    // Check your answers: each answer's Change button, Back, and Confirm and finish.
    const review = plantAtFinish(email);
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto(`/issues/2/interviews/${review}`);
    const frame = viewer(page);
    await press(frame, "Finish");
    // One per answer on the planted path: the name page's four, the two choices, the four conditions.
    await expect(frame.getByRole("button", { name: /^Change/ })).toHaveCount(10);
    for (const button of await frame.getByRole("button").all()) await expectMainControl(button);
  });
});

/** Printed, the page shows none of the site's chrome, navigation or controls, and no dark background. */
async function expectPrintedWithoutChrome(page: Page, name: string) {
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header, .site-footer, nav, .skip-link").filter({ visible: true })).toHaveCount(0);
  await expect(page.locator("button, .button, .action-link").filter({ visible: true })).toHaveCount(0);
  const backgrounds = await page.evaluate(() =>
    [...document.querySelectorAll("body, body *")]
      .map((el) => getComputedStyle(el).backgroundColor)
      .filter((colour) => colour !== "rgba(0, 0, 0, 0)" && colour !== "rgb(255, 255, 255)"),
  );
  expect(backgrounds).toEqual([]);
  await expect(page.locator("main")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath(`print-${name}.png`), fullPage: true });
}

test.describe("print", () => {
  test.afterEach(async ({ page }) => page.emulateMedia({ media: null }));

  test("an issue page, the recovery codes, Check your answers and the answers summary print without chrome", async ({ page, javaScriptEnabled }) => {
    await page.goto("/issues/2");
    await expect(page.getByRole("banner")).toBeVisible();
    await expectPrintedWithoutChrome(page, "issue");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Criminal records and spent convictions");
    await page.emulateMedia({ media: null });

    const email = uniqueEmail("print");
    await signUpToRecoveryCodes(page, email);
    await expect(page.getByRole("button", { name: "I have saved them" })).toBeVisible();
    await expectPrintedWithoutChrome(page, "recovery-codes");
    await expect(page.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await expect(page.getByRole("list", { name: "Your recovery codes" })).toBeVisible();
    await page.emulateMedia({ media: null });
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page).toHaveURL(/\/$/);

    // Check your answers: the viewer's own document (what the frame shows; without script, the page itself).
    const id = plantAtFinish(email);
    await page.goto(`/issues/2/interviews/${id}`);
    const frame = viewer(page);
    await press(frame, "Finish");
    await expect(frame.locator("#viewer-heading")).toHaveText("Check your answers");
    if (javaScriptEnabled) await page.goto(page.frames().find((f) => f.url().includes("/viewer?"))!.url());
    await expectPrintedWithoutChrome(page, "check-your-answers");
    await expect(page.locator(".answer-summary__row", { hasText: "First:" })).toBeVisible();
    await page.emulateMedia({ media: null });

    withE2eDatabase((db) => db.prepare("update interviews set status = 'Completed' where id = ?").run(id));
    await page.goto(`/account/interview/${id}/answers`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your answers");
    await expectPrintedWithoutChrome(page, "answers");
    await expect(page.locator(".answer-summary__row", { hasText: "First:" }).locator("dd")).toHaveText("Ann");
  });
});
