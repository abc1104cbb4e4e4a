import { defineConfig } from "@playwright/test";
import { E2E_LOG_DIR } from "./tests/support/log-scan";

const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eDataDir = "./data/e2e";
// A local stand-in for the AI's chat-completions endpoint, and a second app server with no AI configured.
export const aiStandInUrl = `http://127.0.0.1:${port + 1}`;
export const noAiPort = port + 2;
export const noAiDataDir = "./data/e2e-no-ai";

// The key the e2e servers seal answers and files with; tests that read their database open values with it.
export const e2eDataKey = Buffer.alloc(32, 0xe2).toString("base64");

// The secret the e2e servers sign cookies with; tests that plant a signed-in session sign its cookie with it.
export const e2eSessionSecret = "e2e-session-secret-that-is-long-enough-0123456789";

const appEnvironment = {
  NODE_ENV: "production",
  SESSION_SECRET: e2eSessionSecret,
  DATA_ENCRYPTION_KEY: e2eDataKey,
  SUPPORT_EMAIL: "support@e2e.test",
  RESEND_API_KEY: "",
  // Every test comes from one address: per-address limits would stop the suite, per-account ones still hold.
  RATE_LIMIT_ADDRESS_FACTOR: "100",
  // ?lang=en-XA answers in the pseudo-language: tests/e2e/languages.spec.ts finds words not in a catalogue with it.
  PSEUDO_LANGUAGE: "true",
  // Webhooks go to local receivers (tests/e2e/admin-webhooks.spec.ts, tests/e2e/api.spec.ts), are looked for often
  // and retried within seconds.
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_POLL_MS: "200",
  WEBHOOK_RETRY_SCALE: "0.0005",
};

// Debian's Chromium: Playwright downloads no browser here (README, "Tests").
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "./tests/e2e",
  // The servers' logs must hold no personal data: checked after every run (issue 24).
  globalTeardown: "./tests/e2e/global-teardown.ts",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two workers on the 2-core machine CI runs on, whether or not CI is set (Playwright's default would be one):
  // the browsers and the app server wait on each other more than they compute. E2E_WORKERS to change.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // Generous: a full journey (sign-up, email, two-factor, interview) runs ~25 s on a loaded 2-core machine.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // Specs that speak raw HTTP (no browser) run once, in the js project.
    { name: "no-js", use: { javaScriptEnabled: false }, grepInvert: /@script-only/, testIgnore: /[\\/](fuzz|request-limits|crash|client-address|secret-rotation|observability|webhook-instances|api|api-authorization)\.spec\.ts$/ },
  ],
  webServer: [
    {
      command: `npx tsx tests/support/ai-stand-in.ts ${port + 1}`,
      url: `${aiStandInUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    // The production build, started the way the README starts it, on a database of its own. What the server
    // prints (its JSON log) goes to a file of E2E_LOG_DIR, scanned after the run (tests/e2e/global-teardown.ts).
    {
      command: `rm -rf ${e2eDataDir} ${E2E_LOG_DIR} && mkdir -p ${E2E_LOG_DIR} && npm run build && NODE_ENV=production node server.js --local > ${E2E_LOG_DIR}/app.log 2>&1`,
      url: `http://localhost:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      env: {
        ...appEnvironment,
        PORT: String(port),
        DATA_DIR: e2eDataDir,
        DATABASE_URL: `file:${e2eDataDir}/app.db`,
        AI_BASE_URL: `${aiStandInUrl}/v1`,
        AI_API_KEY: "e2e-ai-key",
        AI_MODEL: "",
        AI_TIMEOUT_MS: "2000",
        AI_REDACT_PERSONAL_DATA: "true",
      },
    },
    // The same build (the servers start in this order) with no AI endpoint at all, run as two worker
    // processes (WEB_CONCURRENCY) so that mode is exercised by a whole journey too.
    {
      command: `rm -rf ${noAiDataDir} && mkdir -p ${E2E_LOG_DIR} && node server.js > ${E2E_LOG_DIR}/no-ai.log 2>&1`,
      url: `http://localhost:${noAiPort}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...appEnvironment, PORT: String(noAiPort), DATA_DIR: noAiDataDir, DATABASE_URL: `file:${noAiDataDir}/app.db`, AI_BASE_URL: "", WEB_CONCURRENCY: "2" },
    },
  ],
});
