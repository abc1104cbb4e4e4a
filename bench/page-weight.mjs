// Page weight of the production build, as a browser receives it: each page loaded in Debian's Chromium, adding up
// the encoded (wire) body bytes of every response it loads (HTML, CSS, fonts, scripts, images), gzip/br as sent.
//   first visit: the page in a fresh browser context (empty cache);
//   later visit: the page after the landing page in the same context (CSS and fonts cached; for "/", after /about).
// Usage: npm run build && node bench/page-weight.mjs [path …]   (starts its own server on a scratch database)
// BENCH_RUNS (default 3) runs: the table shows the median of each number. BENCH_VIEWPORT (default 360x740, a phone).
// BENCH_PORT (default 3290). A signed-in page (/account/dashboard) is measured too unless paths are given.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import * as OTPAuth from "otpauth";

const port = Number(process.env.BENCH_PORT ?? 3290);
const origin = `http://127.0.0.1:${port}`;
const dataDir = "./data/bench";
const runs = Number(process.env.BENCH_RUNS ?? 3);
const [width, height] = (process.env.BENCH_VIEWPORT ?? "360x740").split("x").map(Number);
const givenPages = process.argv.slice(2);
const publicPages = givenPages.length
  ? givenPages
  : ["/", "/issues/2", "/about", "/legal/terms-and-conditions", "/legal/privacy-policies", "/support/contact-us", "/auth/sign-in"];
const signedInPages = givenPages.length ? [] : ["/account/dashboard"];
const kinds = ["html", "css", "fonts", "js", "other"];
const encodings = new Set();

function kindOf(resourceType) {
  return { document: "html", stylesheet: "css", font: "fonts", script: "js" }[resourceType] ?? "other";
}

/** Loads `url` in `page` and returns the wire bytes of every response it received, by kind, with the font files. */
async function measure(page, url) {
  const bytes = Object.fromEntries(kinds.map((k) => [k, 0]));
  const files = [];
  const pending = [];
  const onFinished = (request) =>
    pending.push(
      request.sizes().then(async (sizes) => {
        // A response served from the cache reports a negative size (no body came over the wire).
        const responseBodySize = Math.max(0, sizes.responseBodySize);
        const kind = kindOf(request.resourceType());
        bytes[kind] += responseBodySize;
        if (kind === "html") encodings.add((await request.response())?.headers()["content-encoding"] ?? "identity");
        if (kind === "fonts" && responseBodySize > 0) files.push(`${path.basename(new URL(request.url()).pathname)} ${responseBodySize}`);
      }),
    );
  page.on("requestfinished", onFinished);
  await page.goto(origin + url, { waitUntil: "networkidle" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForLoadState("networkidle");
  page.off("requestfinished", onFinished);
  await Promise.all(pending);
  return { ...bytes, total: kinds.reduce((sum, k) => sum + bytes[k], 0), files };
}

async function firstVisit(browser, url, storageState) {
  const context = await browser.newContext({ viewport: { width, height }, storageState });
  try {
    return await measure(await context.newPage(), url);
  } finally {
    await context.close();
  }
}

async function laterVisit(browser, url, storageState) {
  const context = await browser.newContext({ viewport: { width, height }, storageState });
  try {
    const page = await context.newPage();
    await measure(page, url === "/" ? "/about" : "/");
    return await measure(page, url);
  } finally {
    await context.close();
  }
}

function newestLink(email, pathPrefix) {
  const dir = path.join(dataDir, "outbox");
  const texts = readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), "utf8")))
    .filter((m) => m.to === email || m.to_address === email || JSON.stringify(m.to ?? "").includes(email))
    .map((m) => m.text);
  for (const text of texts.reverse()) {
    const url = text.match(/https?:\/\/\S+/)?.[0];
    if (url && new URL(url).pathname.startsWith(pathPrefix)) return new URL(url).pathname + new URL(url).search;
  }
  throw new Error(`No email to ${email} with a link to ${pathPrefix}`);
}

/** Signs up through the forms (email link from the outbox, password, two-factor) and returns the signed-in state. */
async function signedInState(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `bench-${Date.now()}@example.org`;
  const password = "correct horse 42";
  await page.goto(`${origin}/auth/sign-up`);
  await page.getByLabel("First name").fill("Zoë");
  await page.getByLabel("Last name").fill("Ng");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("91234567");
  await page.getByRole("button", { name: "Create an account" }).click();
  await page.waitForURL(/\/auth\/sign-up\/email-sent$/);
  await page.goto(origin + newestLink(email, "/auth/sign-up/password"));
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await page.getByRole("button", { name: "Save password" }).click();
  await page.waitForURL(/\/auth\/setup-2fa$/);
  const secret = (await page.locator("#secret-key").textContent()).trim();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  await page.getByLabel("Verification code").fill(totp.generate());
  await page.getByRole("button", { name: "Verify and finish" }).click();
  await page.waitForURL(`${origin}/`);
  const state = await context.storageState();
  await context.close();
  return state;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

rmSync(dataDir, { recursive: true, force: true });
const server = spawn("node", ["server.js"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${dataDir}/app.db`,
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0000",
    DATA_ENCRYPTION_KEY: Buffer.alloc(32, 0xbe).toString("base64"),
    PUBLIC_ORIGIN: origin,
    RESEND_API_KEY: "",
    WEB_CONCURRENCY: "1",
  },
  stdio: "ignore",
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {}
    if (i > 100) throw new Error(`The server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const signedIn = signedInPages.length ? await signedInState(browser) : undefined;
  const targets = [...publicPages.map((url) => ({ url, state: undefined })), ...signedInPages.map((url) => ({ url: `${url} (signed in)`, path: url, state: signedIn }))];
  const results = new Map(targets.map((t) => [t.url, { first: [], later: [] }]));
  for (let run = 0; run < runs; run++) {
    for (const t of targets) {
      results.get(t.url).first.push(await firstVisit(browser, t.path ?? t.url, t.state));
      results.get(t.url).later.push(await laterVisit(browser, t.path ?? t.url, t.state));
    }
  }
  console.log(`Wire bytes (encoded bodies; HTML sent as ${[...encodings].join(", ")}), median of ${runs} run(s), viewport ${width}x${height}.`);
  console.log("First visit: fresh context. Later visit: same context after / (after /about for /).");
  const header = ["page", ...kinds.slice(0, 4).map((k) => `${k}`), "total first", "total later"];
  const rows = [header];
  for (const t of targets) {
    const { first, later } = results.get(t.url);
    rows.push([t.url, ...kinds.slice(0, 4).map((k) => String(median(first.map((r) => r[k])))), String(median(first.map((r) => r.total))), String(median(later.map((r) => r.total)))]);
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
  console.log("\nFont files on a first visit (bytes):");
  for (const t of targets) console.log(`${t.url}: ${results.get(t.url).first[0].files.join(", ") || "none"}`);
  const otherFirst = targets.map((t) => median(results.get(t.url).first.map((r) => r.other)));
  if (otherFirst.some((n) => n > 0)) console.log(`\nOther responses (images, favicon) are in the totals: ${otherFirst.join(", ")} bytes.`);
} finally {
  await browser.close();
  server.kill("SIGTERM");
}
