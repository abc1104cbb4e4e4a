import type { FrameLocator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The viewer in the interview page's frame. */
export const viewer = (page: Page): FrameLocator => page.frameLocator("iframe.viewer-frame");

/** Presses a viewer button and waits for the next page (or, with `stays`, for the page to come back with errors). */
export async function press(frame: FrameLocator, name: string | RegExp, { stays = false } = {}) {
  const root = frame.locator("[data-viewer]");
  const before = await root.getAttribute("data-page");
  await frame.getByRole("button", { name, exact: typeof name === "string" }).click();
  if (stays) await expect(frame.getByRole("alert")).toBeVisible();
  else await expect(root).not.toHaveAttribute("data-page", before!);
}

/** axe on the viewer's own page (the frame's document), opened directly; then back to the same interview. */
export async function axeOnViewer(page: Page, axe: () => Promise<void>) {
  const frame = page.frames().find((f) => f.url().includes("/viewer?"))!;
  const url = frame.url();
  const interviewId = await frame.locator("[data-viewer]").getAttribute("data-interview-id");
  const host = page.url().replace(/\/interviews(\/.*)?$/, `/interviews${interviewId ? `/${interviewId}` : ""}`);
  await page.goto(url);
  await axe();
  await page.goto(host);
}

/** Types a date into the Day, Month and Year boxes of the date question named `question`. */
export async function fillDate(frame: FrameLocator, question: string | RegExp, date: { day: string; month: string; year: string }) {
  const group = frame.getByRole("group", { name: question });
  await group.getByLabel("Day").fill(date.day);
  await group.getByLabel("Month").fill(date.month);
  await group.getByLabel("Year").fill(date.year);
}
