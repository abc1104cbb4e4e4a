import type { Locator, Page } from "@playwright/test";
import { createAccount, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { moveInterviewTo, plantAtFinish, plantInterviews } from "./support";
import { axeOnViewer, press, viewer, type ViewerScope } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 25, finding 7: on a 320 × 640 phone the question is on the first screen, in one card the screen's width,
// said once, at GOV.UK's sizes; the account menu opens inside the screen. Screenshots at 320 and 1280 px.

const PHONE = { width: 320, height: 640 };

/** Where an element's top is on the page (not in the window): "on the first screen" is above 640 px before any scrolling. */
async function topOnPage(page: Page, element: Locator) {
  const box = (await element.boundingBox())!;
  return box.y + (await page.evaluate(() => window.scrollY));
}

/** The question's heading and its first field (if any) are on the first screen, read at scroll 0. */
async function expectQuestionOnFirstScreen(page: Page, frame: ViewerScope, firstField?: Locator) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const heading = frame.locator("#viewer-heading");
  const top = await topOnPage(page, heading);
  expect(top, `the question's top is at ${top} px`).toBeLessThan(PHONE.height);
  const bottom = top + (await heading.boundingBox())!.height;
  expect(bottom, `the question's heading ends at ${bottom} px`).toBeLessThan(PHONE.height);
  if (firstField) expect(await topOnPage(page, firstField)).toBeLessThan(PHONE.height);
}

const pixels = (value: string) => Number.parseFloat(value);

test.describe("the interview on a phone", () => {
  test("at 320 × 640 the question is on the first screen, in one card, said once, at 19 px with 40 px checkboxes and radios", async ({ page, axe }) => {
    const email = uniqueEmail("phone");
    await plantSignedIn(page, email);
    const [draft] = plantInterviews(email, [{ issueId: 1, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(draft!, "01-Welcome");
    await page.setViewportSize(PHONE);
    await page.goto(`/issues/1/interviews/${draft}`);
    const frame = viewer(page);

    // The first page: its heading, then the text without the heading's sentence ("Welcome. This interview helps…").
    await expect(frame.locator("#viewer-heading")).toHaveText("Welcome.");
    const text = frame.locator(".viewer__question");
    await expect(text).toContainText("This interview helps you write a short, clear summary of your situation");
    expect((await text.textContent())!.trim()).not.toMatch(/^Welcome\./);
    await expectQuestionOnFirstScreen(page, frame);

    // One card the screen's width: the text has 288 of the 320 px (16 px each side), none is cut off.
    // The page shown in place on arrival (with script too, until the first step), or the frame that took over.
    const card = page.locator(".viewer-inline:visible, iframe.viewer-frame:visible");
    const cardBox = (await card.boundingBox())!;
    expect(cardBox.x).toBe(0);
    expect(cardBox.width).toBe(PHONE.width);
    expect(Math.round((await text.boundingBox())!.width)).toBe(288);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The way back is one line, and the guide's name leaves the first screen to the question.
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link")).toHaveText(["Divorce and separation"]);
    await expect(frame.locator("p.viewer__title")).toBeHidden();
    await expect(frame.locator(".viewer__step")).toHaveText("Step 1 of 6: Start");
    expect(pixels(await text.evaluate((el) => getComputedStyle(el).fontSize))).toBe(19);
    await page.screenshot({ path: test.info().outputPath("interview-320.png") });
    await axe();

    // A page of fields: the question and its first field on the first screen; labels at 19 px; a 40 px checkbox.
    await press(frame, "Start");
    await expectQuestionOnFirstScreen(page, frame, frame.getByLabel(/First name/));
    expect(pixels(await frame.locator("label[for]").first().evaluate((el) => getComputedStyle(el).fontSize))).toBe(19);
    moveInterviewTo(draft!, "03-Your situation");
    await page.goto(`/issues/1/interviews/${draft}`);
    const checkbox = frame.getByRole("checkbox");
    await expect(checkbox).toHaveCount(1);
    expect((await checkbox.boundingBox())!).toMatchObject({ width: 40, height: 40 });
    await expectQuestionOnFirstScreen(page, frame, frame.getByRole("textbox").first());
    await page.screenshot({ path: test.info().outputPath("interview-checkbox-320.png") });
    await axeOnViewer(page, axe);

    // Radios.
    moveInterviewTo(draft!, "04-Other party");
    await page.goto(`/issues/1/interviews/${draft}`);
    const radios = frame.getByRole("radio");
    await expect(radios).toHaveCount(2);
    for (const radio of await radios.all()) expect((await radio.boundingBox())!).toMatchObject({ width: 40, height: 40 });
    await expectQuestionOnFirstScreen(page, frame, radios.first());
    await page.screenshot({ path: test.info().outputPath("interview-radios-320.png"), fullPage: true });
    await axeOnViewer(page, axe);

    // Check your answers, at 320 and 1280 px.
    const review = plantAtFinish(email);
    await page.goto(`/issues/2/interviews/${review}`);
    await press(viewer(page), "Finish");
    await expect(viewer(page).locator("#viewer-heading")).toHaveText("Check your answers");
    await expectQuestionOnFirstScreen(page, viewer(page));
    await page.screenshot({ path: test.info().outputPath("review-320.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: test.info().outputPath("review-1280.png"), fullPage: true });

    // At 1280 px the card sits in the page's column with its border; the text keeps 19 px.
    await page.goto(`/issues/1/interviews/${draft}`);
    await expect(viewer(page).getByRole("radio")).toHaveCount(2);
    const wide = (await card.boundingBox())!;
    expect(wide.x).toBeGreaterThan(100);
    expect(await card.evaluate((el) => getComputedStyle(el).borderLeftWidth)).toBe("1px");
    await page.screenshot({ path: test.info().outputPath("interview-1280.png"), fullPage: true });
    await axe();
  });

  test("the account menu opens inside a 320 px screen; the spec's words keep their capitals, the rest is in sentence case", async ({ page, axe }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/auth/sign-in");
    await expect(page.locator("header").getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await expect(page.locator("main").getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    await expect(page.locator("footer").getByRole("link", { name: "Contact Us", exact: true })).toBeVisible();
    await page.goto("/auth/reset-password");
    await expect(page.getByRole("link", { name: "Back to sign in", exact: true })).toBeVisible();

    await createAccount(page, uniqueEmail("menu"));
    await page.goto("/account/dashboard");
    await page.locator(".site-header__menu summary").click();
    const panel = page.locator(".site-header__menu .site-header__menu-panel");
    for (const item of [panel.getByRole("link", { name: "Your account" }), panel.getByRole("button", { name: "Sign out" })]) {
      await expect(item).toBeVisible();
      const box = (await item.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    const panelBox = (await panel.boundingBox())!;
    expect(panelBox.x).toBeGreaterThanOrEqual(0);
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: test.info().outputPath("account-menu-320.png") });
    await axe();
  });
});
