import AxeBuilder from "@axe-core/playwright";
import { test as base, type Browser, type BrowserContext, expect, type Page } from "@playwright/test";

/**
 * axe with WCAG 2.2's target-size (2.5.8, 24 × 24 px) switched on: axe ships it off, and every page must pass it
 * (issue 15). The 44 px of the main controls is checked by tests/e2e/phones-and-print.spec.ts, axe has no rule for it.
 */
function axeBuilder(page: Page) {
  return new AxeBuilder({ page }).options({ rules: { "target-size": { enabled: true } } });
}

/**
 * Runs axe on the page as it is now and fails on any violation. axe needs JavaScript, so on the no-js
 * project the page's HTML is replayed in a scripted context with the application's own scripts blocked.
 */
export async function expectNoAxeViolations(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    const results = await axeBuilder(page).analyze();
    expect(results.violations, formatViolations(results.violations)).toEqual([]);
    return;
  }
  const html = await page.content();
  const url = page.url();
  const replay = await (await replayContext(page.context().browser()!)).newPage();
  try {
    await replay.route("**/*", (route) => {
      const request = route.request();
      if (request.isNavigationRequest() && request.url() === url) {
        return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      }
      if (request.resourceType() === "script") return route.abort();
      return route.continue();
    });
    await replay.goto(url);
    const results = await axeBuilder(replay).analyze();
    expect(results.violations, formatViolations(results.violations)).toEqual([]);
  } finally {
    await replay.close();
  }
}

/**
 * One scripted context per browser (a worker's) for the no-js replays: a page of it per check, with no cookies
 * (the replay is given its HTML), and its cache keeps the styles and fonts between checks.
 */
const replayContexts = new WeakMap<Browser, Promise<BrowserContext>>();
function replayContext(browser: Browser): Promise<BrowserContext> {
  let context = replayContexts.get(browser);
  if (!context) {
    context = browser.newContext({ javaScriptEnabled: true });
    replayContexts.set(browser, context);
  }
  return context;
}

function formatViolations(violations: { id: string; help: string; nodes: { target: unknown }[] }[]) {
  return violations.map((v) => `${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`).join("\n");
}

export const test = base.extend<{ axe: () => Promise<void>; scriptRequests: string[] }>({
  axe: async ({ page, javaScriptEnabled }, use) => {
    await use(() => expectNoAxeViolations(page, javaScriptEnabled));
  },
  // Every script the page asked for: the public pages must ask for none.
  scriptRequests: async ({ page }, use) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await use(scripts);
  },
});

export { expect };
