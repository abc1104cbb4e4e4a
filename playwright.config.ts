import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
export const e2eDataDir = "./data/e2e";

// Debian's Chromium: Playwright downloads no browser here (README, "Tests").
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "./tests/e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
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
    { name: "no-js", use: { javaScriptEnabled: false }, grepInvert: /@script-only/ },
  ],
  // The production build, started the way the README starts it, on a database of its own.
  webServer: {
    command: `rm -rf ${e2eDataDir} && npm start`,
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: e2eDataDir,
      DATABASE_URL: `file:${e2eDataDir}/app.db`,
      SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
      SUPPORT_EMAIL: "support@e2e.test",
      RESEND_API_KEY: "",
      // Every test comes from one address: per-address limits would stop the suite, per-account ones still hold.
      RATE_LIMIT_ADDRESS_FACTOR: "100",
    },
  },
});
