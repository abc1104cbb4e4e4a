import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { plantAtFinish, plantInterviews, withE2eDatabase } from "./support";
import { axeOnViewer, press, viewer } from "./viewer";
import type { Page } from "@playwright/test";
import { plantSignedIn } from "./people";

/**
 * The viewer's document title and the accessible name of what has focus in it (a screen reader's view): the
 * frame's with script; without it the viewer's page is the whole window (shown in the interview page).
 */
async function frameState(page: Page) {
  const frame = page.frames().find((f) => f.url().includes("/viewer?") && f !== page.mainFrame()) ?? page.mainFrame();
  return frame.evaluate(() => {
    const target = document.activeElement as HTMLElement | null;
    const labelledBy = target?.getAttribute("aria-labelledby");
    const name = labelledBy ? document.getElementById(labelledBy)?.textContent : target?.textContent;
    return { title: document.title, focused: !target || target.tagName === "BODY" ? "" : (name ?? "").trim() };
  });
}

const SMALL_CLAIMS = "Small claims for money or goods";

test.describe("every step announces itself", () => {
  test("headings, titles with the step, focus on the new heading or the error summary", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("steps"));
    await page.goto("/issues/9/interviews");
    const welcome = `Welcome. – Step 1 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect(page).toHaveTitle(welcome);
    const frame = viewer(page);
    await expect(frame.locator("#viewer-heading")).toHaveText("Welcome.");
    await expect.poll(async () => (await frameState(page)).title).toBe(welcome);

    await press(frame, "Start");
    const details = `First, tell us about you. – Step 2 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect(frame.locator("#viewer-heading")).toHaveText("First, tell us about you.");
    // Several fields answering one question: one group named by the question.
    await expect(frame.getByRole("group", { name: "First, tell us about you." })).toBeVisible();
    await expect.poll(() => frameState(page)).toEqual({ title: details, focused: "First, tell us about you." });
    await expect(page).toHaveTitle(details);

    // Errors: the title says so and focus is on the error summary.
    await press(frame, "Continue", { stays: true });
    await expect.poll(() => frameState(page)).toEqual({ title: `Error: ${details}`, focused: "There is a problem" });
    await expect(page).toHaveTitle(`Error: ${details}`);
    await axeOnViewer(page, axe);

    await frame.getByLabel(/^Your full name/).fill("Ana Lim");
    await frame.getByLabel(/^Your postal address/).fill("1 Main Street");
    await press(frame, "Continue");
    const who = `Who owes you the money? – Step 3 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect.poll(() => frameState(page)).toEqual({ title: who, focused: "Who owes you the money?" });
    await expect(page).toHaveTitle(who);
    // The choices of one radio group are the page's one question.
    await expect(frame.getByRole("group", { name: "Who owes you the money?" })).toBeVisible();

    // Back is a step too.
    await press(frame, "Back");
    await expect.poll(() => frameState(page)).toEqual({ title: details, focused: "First, tell us about you." });
    // A full load of the host page (as without script after the end of a frame's journey) names the step.
    await page.reload();
    await expect(page).toHaveTitle(details);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SMALL_CLAIMS);
    await axe();
  });
});

test.describe("Check your answers", () => {
  test("Finish opens the review; Change → Continue returns to it with the new answer; Confirm and finish completes; the summary stays readable", async ({ page, axe }) => {
    const email = uniqueEmail("review");
    await plantSignedIn(page, email);
    const id = plantAtFinish(email);
    await page.goto(`/issues/2/interviews/${id}`);
    const frame = viewer(page);
    await press(frame, "Finish");
    await expect(frame.locator("#viewer-heading")).toHaveText("Check your answers");
    await expect.poll(() => frameState(page)).toEqual({ title: "Check your answers – Criminal records and spent convictions | Legal Self-Help", focused: "Check your answers" });
    await expect(frame.getByRole("heading", { level: 2, name: "Basic Information" })).toBeVisible();
    const first = frame.locator(".answer-summary__row", { hasText: "First:" });
    await expect(first.locator("dd").first()).toHaveText("Ann");
    await axeOnViewer(page, axe);

    await press(frame, "Change First:");
    await expect(frame.locator("#viewer-heading")).toHaveText("Enter your name and select an avatar to represent you.");
    await expect(frame.getByLabel(/^First/)).toHaveValue("Ann");
    await frame.getByLabel(/^First/).fill("Annie");
    await press(frame, "Continue");
    await expect(frame.locator("#viewer-heading")).toHaveText("Check your answers");
    await expect(frame.locator(".answer-summary__row", { hasText: "First:" }).locator("dd").first()).toHaveText("Annie");
    // Still a draft until confirmed.
    expect(withE2eDatabase((db) => db.prepare("select status from interviews where id = ?").get(id) as { status: string }).status).toBe("Draft");

    await frame.getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/2/interviews/${id}$`));
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Get My Document" })).toHaveAttribute("href", `/account/interview/${id}/download`);

    await page.goto("/account/interview");
    await expect(page.locator(".status")).toHaveText("Completed");
    await page.getByRole("link", { name: /^Answers/ }).click();
    await expect(page).toHaveURL(`/account/interview/${id}/answers`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your answers");
    await expect(page.locator(".answer-summary__row", { hasText: "First:" }).locator("dd")).toHaveText("Annie");
    await expect(page.getByRole("button", { name: /Change/ })).toHaveCount(0);
    await axe();
    // Another person's interview, or a draft, has no summary.
    const [draft] = plantInterviews(email, [{ issueId: 2, status: "Draft", daysAgo: 0 }]);
    expect((await page.goto(`/account/interview/${draft}/answers`))?.status()).toBe(404);
  });
});

test.describe("no box in a box", () => {
  for (const width of [320, 1280]) {
    test(`at ${width} px every field and button is reached by scrolling the page, not a frame`, async ({ page, javaScriptEnabled }) => {
      await page.setViewportSize({ width, height: width === 320 ? 640 : 800 });
      await plantSignedIn(page, uniqueEmail(`layout-${width}`));
      await page.goto("/issues/9/interviews");
      await press(viewer(page), "Start");
      const frame = viewer(page);
      const buttons = [frame.getByRole("button", { name: "Back" }), frame.getByRole("button", { name: "Continue", exact: true })];
      if (javaScriptEnabled) {
        // The frame grows to its page (the message layer's height): nothing scrolls inside it.
        const content = page.frames().find((f) => f.url().includes("/viewer?"))!;
        await expect
          .poll(() => content.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight))
          .toBeLessThanOrEqual(0);
      } else {
        await expect(page.locator("iframe.viewer-frame")).toBeHidden();
        await expect(page.locator("main [data-viewer]")).toBeVisible();
      }
      for (const button of buttons) {
        await button.scrollIntoViewIfNeeded();
        await expect(button).toBeInViewport();
      }
      await page.screenshot({ path: `/tmp/review-${javaScriptEnabled ? "js" : "no-js"}-${width}.png`, fullPage: true });
    });
  }
});
