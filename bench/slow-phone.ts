// The interview on a slow phone, in Debian's Chromium with a slow 3G profile (CDP
// Network.emulateNetworkConditions: 400 kbit/s down and up, 400 ms round trip), signed in, scripts on and off:
//   opening: "Start now" on the issue page pressed → the first question shown (CSS, fonts and scripts already
//            cached: the person has opened an interview before);
//   a step:  Continue (or Start) pressed → the next question shown, and the bytes it moved (request headers and
//            bodies sent; response headers and bodies received, as Chromium counts them on the wire).
// Both ends are taken in the browser, not from here (a click from here, with its checks, and polling cost tens
// to hundreds of milliseconds on a busy machine). Pressed: the click event in the page (the new document's
// navigation start where the step loads one, and for the opening). Shown: with script, the first animation frame
// in which the page's [data-viewer] is visible with its new page name (in the interview page or in a visible
// frame); without script, where no script of ours runs, the new document's first contentful paint or the end of
// its parsing, whichever is later.
// Each run is a fresh browser context; a run opens the interview once to fill the cache, opens it again
// (measured), and answers the first pages of the Small claims guide (issue 9). The table shows medians of
// BENCH_RUNS (5) runs, the steps' median over every step of every run.
// Usage: npm run bench:slow-phone   (BENCH_PORT 3292, BENCH_RUNS 5, SLOW_LATENCY_MS 400, SLOW_KBITS 400)
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { type BrowserContext, chromium, type Frame, type Page } from "@playwright/test";
import { preparePeople } from "../tests/support/viewer-people";

const port = Number(process.env.BENCH_PORT ?? 3292);
const origin = `http://127.0.0.1:${port}`;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const latency = Number(process.env.SLOW_LATENCY_MS ?? 400);
// CDP takes bytes per second.
const throughput = (Number(process.env.SLOW_KBITS ?? 400) * 1000) / 8;
const dataDir = "./data/bench-slow-phone";
const ISSUE = 9;

/** A page of the guide as the bench answers it: what to fill in first, then the button to press. */
interface Answer {
  fill?: (scope: Scope) => Promise<void>;
  button: string;
}
type Scope = Page | Frame;
const answers: Answer[] = [
  { button: "Start" },
  {
    fill: async (scope) => {
      await scope.getByLabel(/^Your full name/).fill("Ana Lim");
      await scope.getByLabel(/^Your postal address/).fill("1 Main Street");
    },
    button: "Continue",
  },
  { fill: (scope) => scope.getByLabel(/^A person/).check(), button: "Continue" },
  { fill: (scope) => scope.getByLabel(/^Name/).fill("Ben Tan"), button: "Continue" },
];

/**
 * Runs in every document (the interview page and its frame) before the page's own scripts: notes the wall-clock
 * time of the first animation frame in which a viewer page is visible, by its name, and of the last click. A string: a function would
 * be sent as tsx compiled it, with helpers the page does not have.
 */
const recordShownPages = `(() => {
  addEventListener("click", () => (window.__pressedAt = Date.now()), true);
  const shown = (window.__shownPages = []);
  let last = null;
  const visible = (element) => {
    if (element.getClientRects().length === 0) return false;
    const owner = window.frameElement;
    return !owner || (getComputedStyle(owner).visibility !== "hidden" && owner.getClientRects().length > 0);
  };
  const tick = () => {
    const page = document.querySelector("[data-viewer]");
    const name = page ? page.getAttribute("data-page") : null;
    if (page && name !== last && visible(page)) {
      last = name;
      shown.push({ page: name, at: Date.now() });
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

interface Measured {
  openMs: number;
  steps: { ms: number; sent: number; received: number; requests: number }[];
}

rmSync(dataDir, { recursive: true, force: true });
Object.assign(process.env, {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  DATABASE_URL: `file:${dataDir}/app.db`,
  SESSION_SECRET: "bench-slow-phone-secret-bench-slow-phone-0000",
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 0x5b).toString("base64"),
  PUBLIC_ORIGIN: origin,
  PORT: String(port),
  RESEND_API_KEY: "",
  AI_BASE_URL: "",
  WEB_CONCURRENCY: "1",
});
// People signed in already (a session each), made with the application's own modules; one per run and mode.
const people = await preparePeople({ people: runs * 2, interviewsPerPerson: 0 });

if (await fetch(`${origin}/healthz`).then(() => true, () => false)) throw new Error(`port ${port} is in use: is another bench running?`);
const server = spawn("node", ["server.js"], { env: process.env, stdio: "ignore" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  for (let i = 0; ; i++) {
    if (await fetch(`${origin}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 150) throw new Error(`the server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const results: Record<"js" | "no-js", Measured[]> = { js: [], "no-js": [] };
  for (let run = 0; run < runs; run++) {
    for (const mode of ["js", "no-js"] as const) {
      const person = people[run * 2 + (mode === "js" ? 0 : 1)]!;
      results[mode].push(await measureRun(mode === "js", person.cookie));
    }
    console.log(`run ${run + 1} of ${runs} done`);
  }
  report(results);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}

async function measureRun(javaScriptEnabled: boolean, cookie: string): Promise<Measured> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 360, height: 740 } });
  if (javaScriptEnabled) await context.addInitScript({ content: recordShownPages });
  const [name, ...value] = cookie.split("=");
  await context.addCookies([{ name: name!, value: value.join("="), url: origin }]);
  try {
    const page = await context.newPage();
    const wire = await slowNetwork(context, page);
    // Fill the cache (CSS, fonts, the scripts), as a person who has opened an interview before.
    await page.goto(`${origin}/issues/${ISSUE}`);
    await openInterview(page);
    await page.goto(`${origin}/issues/${ISSUE}`);
    const started = Date.now();
    await openInterview(page);
    // From the interview page's navigation start: the click was on the issue page, which is gone.
    const openMs = (await shownAt(page, null, started, javaScriptEnabled)) - (await page.evaluate(() => performance.timeOrigin));
    // The person reads the first question before answering: what the page still loads meanwhile is done.
    await page.waitForLoadState("networkidle");

    const steps: Measured["steps"] = [];
    for (const answer of answers) {
      const shown = await shownViewer(page);
      await answer.fill?.(shown.scope);
      const before = shown.pageName;
      wire.reset();
      const t0 = Date.now();
      await shown.scope.getByRole("button", { name: answer.button, exact: true }).click();
      await nextPageShown(page, before);
      const ms = (await shownAt(page, before, t0, javaScriptEnabled)) - (await pressedAt(page, t0));
      // Wait for the requests of the step to finish so their bytes are counted (the page is shown already).
      await page.waitForLoadState("load");
      steps.push({ ms, ...(await wire.total()) });
    }
    return { openMs, steps };
  } finally {
    await context.close();
  }
}

/** The slow network on the page (its frames share its session), and the bytes moved since the last reset. */
async function slowNetwork(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency, downloadThroughput: throughput, uploadThroughput: throughput });
  let sent = new Map<string, number>();
  let received = new Map<string, number>();
  let pending = new Set<string>();
  let redirects = 0;
  let requests = 0;
  cdp.on("Network.requestWillBeSent", (event) => {
    if (process.env.BENCH_DEBUG) console.log(event.request.method, event.request.url.slice(0, 80), event.redirectResponse?.status ?? "");
    pending.add(event.requestId);
    // A redirect's answer is reported with the request that follows it, under the same id.
    if (event.redirectResponse) redirects += event.redirectResponse.encodedDataLength;
  });
  // The headers as sent on the wire (cookies included) and the body.
  cdp.on("Network.requestWillBeSentExtraInfo", (event) => {
    const headers = Object.entries(event.headers as Record<string, string>).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0);
    sent.set(event.requestId, (sent.get(event.requestId) ?? 0) + headers + 20);
    requests++;
  });
  cdp.on("Network.requestWillBeSent", (event) => {
    const body = event.request.postDataEntries?.reduce((sum: number, e: { bytes?: string }) => sum + (e.bytes ? Buffer.from(e.bytes, "base64").length : 0), 0) ?? 0;
    if (body) sent.set(event.requestId, (sent.get(event.requestId) ?? 0) + body);
  });
  // Answers from the browser's cache move no bytes.
  cdp.on("Network.loadingFinished", (event) => {
    if (event.encodedDataLength > 0) received.set(event.requestId, event.encodedDataLength);
    pending.delete(event.requestId);
  });
  cdp.on("Network.loadingFailed", (event) => pending.delete(event.requestId));
  return {
    reset() {
      sent = new Map();
      received = new Map();
      pending = new Set();
      redirects = 0;
      requests = 0;
    },
    async total() {
      for (let i = 0; pending.size && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
      const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      return { sent: sum(sent), received: sum(received) + redirects, requests };
    },
  };
}

async function openInterview(page: Page) {
  await page.locator("main").getByRole("link", { name: "Start now" }).click();
  await nextPageShown(page, null);
}

/**
 * Where the person sees the interview's page now: the host page's own copy (without script, or before the frame
 * takes over) or the frame, whichever is shown; and the page's name.
 */
async function shownViewer(page: Page): Promise<{ scope: Scope; pageName: string | null }> {
  const inline = page.locator("main [data-viewer]");
  if (await inline.isVisible()) return { scope: page, pageName: await inline.getAttribute("data-page") };
  const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes("/viewer?"));
  if (frame && (await page.locator("iframe.viewer-frame").isVisible())) {
    return { scope: frame, pageName: await frame.locator("[data-viewer]").getAttribute("data-page") };
  }
  return { scope: page, pageName: null };
}

/** Waits until a page other than `before` is shown, its heading visible, in the host page or in a visible frame. */
async function nextPageShown(page: Page, before: string | null) {
  const other = before === null ? "[data-viewer]" : `[data-viewer]:not([data-page="${before.replace(/"/g, '\\"')}"])`;
  for (;;) {
    if (await page.locator(`main ${other} #viewer-heading`).isVisible()) return;
    const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes("/viewer?"));
    if (frame && (await page.locator("iframe.viewer-frame").isVisible()) && (await frame.locator(`${other} #viewer-heading`).isVisible().catch(() => false))) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * When the button was pressed, as the browser saw it: the click noted in the page that has it, or where the
 * step loaded a new document (without script; the frame's own post before 0036), that document's navigation
 * start, which the form's post began.
 */
async function pressedAt(page: Page, since: number): Promise<number> {
  const clicks: number[] = [];
  const navigations: number[] = [];
  for (const frame of page.frames()) {
    const noted = await frame
      .evaluate(() => ({ click: (window as unknown as { __pressedAt?: number }).__pressedAt ?? null, start: performance.timeOrigin }))
      .catch(() => null);
    if (noted?.click && noted.click >= since) clicks.push(noted.click);
    if (noted && noted.start >= since) navigations.push(noted.start);
  }
  if (clicks.length) return Math.max(...clicks);
  if (navigations.length) return Math.min(...navigations);
  throw new Error("the press was never seen in the browser");
}

/** When a page other than `before` was first shown after `since` (wall clock, as the browser saw it). */
async function shownAt(page: Page, before: string | null, since: number, javaScriptEnabled: boolean): Promise<number> {
  if (!javaScriptEnabled) {
    // No script of ours runs: the page is a new document, shown at its first contentful paint once parsed.
    return page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
      return performance.timeOrigin + Math.max(paint, navigation.domContentLoadedEventStart);
    });
  }
  for (let i = 0; i < 500; i++) {
    const times: number[] = [];
    for (const frame of page.frames()) {
      const noted = await frame.evaluate(() => (window as unknown as { __shownPages?: { page: string; at: number }[] }).__shownPages ?? null).catch(() => null);
      if (noted) times.push(...noted.filter((n) => n.page !== before && n.at >= since).map((n) => n.at));
    }
    if (times.length) return Math.min(...times);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the next page was never seen in the browser");
}

function report(results: Record<"js" | "no-js", Measured[]>) {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(`\nSlow 3G (${latency} ms round trip, ${(throughput * 8) / 1000} kbit/s down and up), signed in, median of ${runs} runs (steps: of every step of every run)`);
  console.log("| | opening | step | step range | bytes per step (sent + received) | requests per step |");
  console.log("|---|---|---|---|---|---|");
  for (const mode of ["js", "no-js"] as const) {
    const own = results[mode];
    const steps = own.flatMap((r) => r.steps);
    const ms = steps.map((x) => x.ms);
    const sent = median(steps.map((x) => x.sent));
    const received = median(steps.map((x) => x.received));
    console.log(
      `| ${mode === "js" ? "with JavaScript" : "without JavaScript"} | ${s(median(own.map((r) => r.openMs)))} | ${s(median(ms))} | ${s(Math.min(...ms))}–${s(Math.max(...ms))} | ` +
        `${kb(sent + received)} (${kb(sent)} + ${kb(received)}) | ${median(steps.map((x) => x.requests))} |`,
    );
  }
}
