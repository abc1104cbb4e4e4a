import type { FrameLocator, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** What the tests look into: the viewer's frame, or the page itself where the viewer is shown in place. */
export type ViewerScope = Pick<FrameLocator & Locator, "getByRole" | "getByLabel" | "getByText" | "locator">;

/**
 * The viewer: in the interview page's frame with script; without script the interview page shows the viewer's
 * page itself (no frame, nothing to scroll inside), and the preview keeps its frame.
 */
export function viewer(page: Page): ViewerScope {
  const inPlace = test.info().project.use.javaScriptEnabled === false && !page.url().includes("/preview/");
  return inPlace ? page.locator("body") : page.frameLocator("iframe.viewer-frame");
}

/** Presses a viewer button and waits for the next page (or, with `stays`, for the page to come back with errors). */
export async function press(frame: ViewerScope, name: string | RegExp, { stays = false } = {}) {
  const root = frame.locator("[data-viewer]");
  const before = await root.getAttribute("data-page");
  await frame.getByRole("button", { name, exact: typeof name === "string" }).click();
  if (stays) await expect(frame.getByRole("alert")).toBeVisible();
  else await expect(root).not.toHaveAttribute("data-page", before!);
}

/**
 * axe on the viewer's own page (the frame's document, or the page shown in place), opened directly; then back
 * to the same interview. A viewer page that already is the whole window (an error state without script) is
 * checked as it is.
 */
export async function axeOnViewer(page: Page, axe: () => Promise<void>) {
  const frame = page.frames().find((f) => f.url().includes("/viewer?"));
  if (!frame && page.url().includes("/viewer?")) return axe();
  const root = (frame ?? page.mainFrame()).locator("[data-viewer]");
  const url = frame ? frame.url() : new URL((await root.locator("form").first().getAttribute("action"))!, page.url()).href;
  const interviewId = await root.getAttribute("data-interview-id");
  const host = page.url().replace(/\/interviews(\/.*)?$/, `/interviews${interviewId ? `/${interviewId}` : ""}`);
  await page.goto(url);
  await axe();
  await page.goto(host);
}

/** Types a date into the Day, Month and Year boxes of the date question named `question`. */
export async function fillDate(frame: ViewerScope, question: string | RegExp, date: { day: string; month: string; year: string }) {
  const group = frame.getByRole("group", { name: question });
  await group.getByLabel("Day").fill(date.day);
  await group.getByLabel("Month").fill(date.month);
  await group.getByLabel("Year").fill(date.year);
}
