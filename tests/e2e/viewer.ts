import type { FrameLocator, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** What the tests look into: the viewer's frame, or the page itself where the viewer is shown in place. */
export type ViewerScope = Pick<FrameLocator & Locator, "getByRole" | "getByLabel" | "getByText" | "locator">;

/** Where each page shows the viewer now: in place (the interview page's own copy) or in the frame. */
const shownIn = new WeakMap<Page, "page" | "frame">();
/** The pages the scopes below follow, with the scope each gave out. */
const scopes = new WeakMap<ViewerScope, Page>();

/**
 * The viewer as a person sees it. The interview page shows the viewer's page itself when it arrives; with
 * script the frame takes over at the first step (`press` notices, and the scope follows it; a new document
 * shows the page in place again). The preview keeps its frame.
 */
export function viewer(page: Page): ViewerScope {
  if (page.url().includes("/preview/")) return page.frameLocator("iframe.viewer-frame");
  if (!shownIn.has(page)) {
    shownIn.set(page, "page");
    page.on("domcontentloaded", () => shownIn.set(page, "page"));
  }
  const current = (): ViewerScope => (shownIn.get(page) === "frame" ? page.frameLocator("iframe.viewer-frame") : page.locator("body"));
  const scope: ViewerScope = {
    getByRole: (...args) => current().getByRole(...args),
    getByLabel: (...args) => current().getByLabel(...args),
    getByText: (...args) => current().getByText(...args),
    locator: (...args) => current().locator(...args),
  };
  scopes.set(scope, page);
  return scope;
}

/** Presses a viewer button and waits for the next page (or, with `stays`, for the page to come back with errors). */
export async function press(frame: ViewerScope, name: string | RegExp, { stays = false } = {}) {
  const before = await frame.locator("[data-viewer]").getAttribute("data-page");
  await frame.getByRole("button", { name, exact: typeof name === "string" }).click();
  await moved(frame, before!, { stays });
}

/**
 * Waits, after a step was sent from the page named `before` (by a button, or Enter in a field), for the next
 * page, or with `stays` for the page to come back with errors.
 */
export async function moved(frame: ViewerScope, before: string, { stays = false } = {}) {
  const page = scopes.get(frame);
  if (page && shownIn.get(page) === "page" && test.info().project.use.javaScriptEnabled !== false) {
    // With script the frame takes the step over from the page in place; sent before the interview page's
    // script ran, the page posts as it does without script and comes back in place.
    const inPlace = page.locator(".viewer-inline");
    const cameBack = async () =>
      (await inPlace.locator("[data-viewer]").getAttribute("data-page", { timeout: 100 }).catch(() => before)) !== before ||
      (stays && (await inPlace.getByRole("alert").isVisible()));
    await expect.poll(async () => (await inPlace.count()) === 0 || (await cameBack())).toBe(true);
    if ((await inPlace.count()) === 0) shownIn.set(page, "frame");
  }
  if (stays) await expect(frame.getByRole("alert")).toBeVisible();
  else await expect(frame.locator("[data-viewer]")).not.toHaveAttribute("data-page", before);
}

/**
 * axe on the viewer's page as it is shown: in place (the interview page, with its errors if it has them) or in
 * the frame (axe looks into frames).
 */
export async function axeOnViewer(_page: Page, axe: () => Promise<void>) {
  await axe();
}

/** Types a date into the Day, Month and Year boxes of the date question named `question`. */
export async function fillDate(frame: ViewerScope, question: string | RegExp, date: { day: string; month: string; year: string }) {
  const group = frame.getByRole("group", { name: question });
  await group.getByLabel("Day").fill(date.day);
  await group.getByLabel("Month").fill(date.month);
  await group.getByLabel("Year").fill(date.year);
}
