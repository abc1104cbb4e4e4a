import type { Page } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { moveInterviewTo, plantInterviews } from "./support";
import { axeOnViewer, press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 25, finding 6: a sensitive issue (the seed's family-violence issue, 3) is protected on every one of its
// pages: "Leave this page" held on screen, Shift three times, and no issue name in a title or a breadcrumb.

const ISSUE = 3;
const NAME = /family violence/i;
const NEUTRAL_SITE = "https://www.google.com/";

/** The neutral site the way out goes to, served here: the tests reach no other site. */
async function standInForNeutralSite(page: Page) {
  await page.context().route(`${NEUTRAL_SITE}**`, (route) =>
    route.fulfill({ contentType: "text/html; charset=utf-8", body: "<!doctype html><html lang=en><title>Search</title><p>Search</p></html>" }),
  );
}

/** "Leave this page" is there, goes to the neutral site, and stays on the screen when the page is scrolled to its end. */
async function expectWayOutHeld(page: Page) {
  const leave = page.getByRole("link", { name: "Leave this page" });
  await expect(leave).toHaveAttribute("href", NEUTRAL_SITE);
  await expect(leave).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(leave).toBeInViewport({ ratio: 1 });
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Neither the tab's title nor the breadcrumb names the issue. */
async function expectNoIssueName(page: Page) {
  expect(await page.title()).not.toMatch(NAME);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).not.toContainText(NAME);
}

test.describe("a sensitive issue", () => {
  test("every page of the issue holds \"Leave this page\" on screen and names the issue in no title or breadcrumb", async ({ page, axe }) => {
    const email = uniqueEmail("sensitive");
    await plantSignedIn(page, email);
    const [draft, completed] = plantInterviews(email, [
      { issueId: ISSUE, status: "Completed", daysAgo: 1 },
      { issueId: ISSUE, status: "Draft", daysAgo: 0 },
    ]);
    await page.setViewportSize({ width: 320, height: 640 });

    // The issue's own page: its heading names it; the tab and the breadcrumb do not.
    await page.goto(`/issues/${ISSUE}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(NAME);
    await expect(page).toHaveTitle("Legal Self-Help");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem")).toHaveText(["Home", "Australia", "Your issue"]);
    await expect(page.getByRole("complementary", { name: "Your safety" })).toContainText("opens a different site");
    await expectWayOutHeld(page);
    await axe();

    // The interview, its frame and the page after a step.
    moveInterviewTo(draft!, "01-Welcome");
    await page.goto(`/issues/${ISSUE}/interviews/${draft}`);
    await expect(page).toHaveTitle("Step 1 of 6 – Interview | Legal Self-Help");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your interview");
    await expectNoIssueName(page);
    await expect(page.locator("iframe.viewer-frame")).toHaveAttribute("title", "Interview");
    await expectWayOutHeld(page);
    await axe();
    await press(viewer(page), "Start");
    await expect(page).toHaveTitle("Step 2 of 6 – Interview | Legal Self-Help");
    await expectWayOutHeld(page);
    await axeOnViewer(page, axe);

    // Check your answers.
    moveInterviewTo(draft!, "13-Review");
    await page.goto(`/issues/${ISSUE}/interviews/${draft}`);
    await press(viewer(page), "Create my summary");
    await expect(viewer(page).locator("#viewer-heading")).toHaveText("Check your answers");
    await expect(page).toHaveTitle("Check your answers – Interview | Legal Self-Help");
    await expectWayOutHeld(page);

    // Understand my situation, Rephrase with AI, Use a document I have, and a completed interview's answers.
    for (const path of [
      `/issues/${ISSUE}/understand?interview=${draft}`,
      `/ai/rephrase/${draft}?variable=event+description+te&index=1`,
      `/ai/document/${draft}`,
      `/account/interview/${completed}/answers`,
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoIssueName(page);
      await expectWayOutHeld(page);
      await axe();
    }
    await expect(page).toHaveTitle("Your answers | Legal Self-Help");

    // An issue that is not sensitive has no way out, and its pages name it.
    await page.goto("/issues/1/interviews");
    await expect(page.getByRole("link", { name: "Leave this page" })).toHaveCount(0);
    await expect(page).toHaveTitle(/Divorce and separation \| Legal Self-Help$/);
  });

  test("\"Leave this page\" goes to the neutral site: a plain link without script, offering the shortcut only with it", async ({ page, javaScriptEnabled }) => {
    await standInForNeutralSite(page);
    await page.goto(`/issues/${ISSUE}`);
    await expect(page.getByText("or press Shift 3 times")).toBeVisible({ visible: javaScriptEnabled });
    await expect(page.getByText("On a computer, pressing Shift 3 times does the same.")).toBeVisible({ visible: javaScriptEnabled });
    await page.getByRole("link", { name: "Leave this page" }).click();
    await expect(page).toHaveURL(NEUTRAL_SITE);
    await expect(page).toHaveTitle("Search");
  });

  test("Shift pressed three times, or the link, replaces the page and its history entry with the neutral site @script-only", async ({ page }) => {
    const email = uniqueEmail("shift");
    await plantSignedIn(page, email);
    const [draft] = plantInterviews(email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(draft!, "02-About you");
    await standInForNeutralSite(page);

    await page.goto("/about");
    await page.goto(`/issues/${ISSUE}`);
    await expect(page.getByText("or press Shift 3 times")).toBeVisible();
    const entries = await page.evaluate(() => history.length);
    // Another key between the presses starts the count again, and says so to a screen reader.
    await page.keyboard.press("Shift");
    await expect(page.getByRole("status").filter({ hasText: "Shift, press 2 more times to leave this page." })).toBeAttached();
    await page.keyboard.press("Shift");
    await page.keyboard.press("a");
    await page.keyboard.press("Shift");
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(new RegExp(`/issues/${ISSUE}$`));
    await page.keyboard.press("Shift");
    await page.keyboard.press("Shift");
    await expect(page).toHaveURL(NEUTRAL_SITE);
    // The page's history entry was replaced: Back leads to the page before it.
    expect(await page.evaluate(() => history.length)).toBe(entries);
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);

    // Typing in the interview's frame: the shortcut moves the whole window.
    await page.goto(`/issues/${ISSUE}/interviews/${draft}`);
    const frame = viewer(page);
    await frame.getByLabel(/First name/).fill("Ana");
    await frame.getByLabel(/First name/).press("Shift");
    await frame.getByLabel(/First name/).press("Shift");
    await frame.getByLabel(/First name/).press("Shift");
    await expect(page).toHaveURL(NEUTRAL_SITE);
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);

    // The link does the same with a click.
    await page.goto(`/issues/${ISSUE}/understand`);
    await page.getByRole("link", { name: "Leave this page" }).click();
    await expect(page).toHaveURL(NEUTRAL_SITE);
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);
  });
});
