import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { E2E_LOG_DIR } from "./log-scan";

// A production server started the way `npm run serve` starts it (node server.js on the build), on a database
// and data folder of the test's own: for tests that run several instances or kill one.

export interface AppProcess {
  url: string;
  port: number;
  process: ChildProcess;
  /** What the server printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Ends it with SIGKILL, as a crash would, and waits until it is gone. */
  kill(): Promise<void>;
  /** Ends it with SIGTERM (a graceful stop) and waits until it is gone. */
  stop(): Promise<void>;
}

/** A port nobody listens on now, for a server of a test's own (the ports offset from E2E_PORT are all taken). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

export const TEST_SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
/** The key the test servers seal answers and files with (a production start needs one). */
export const TEST_DATA_KEY = Buffer.alloc(32, 0x7e).toString("base64");

export async function startApp({ port, dataDir, databaseUrl, env = {} }: { port: number; dataDir: string; databaseUrl: string; env?: Record<string, string> }): Promise<AppProcess> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      SESSION_SECRET: TEST_SESSION_SECRET,
      DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
      RESEND_API_KEY: "",
      AI_BASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  // Kept in E2E_LOG_DIR too, where the check after the e2e run looks for personal data (tests/support/log-scan.ts).
  mkdirSync(E2E_LOG_DIR, { recursive: true });
  const logFile = createWriteStream(path.join(E2E_LOG_DIR, `app-${port}-${child.pid}.log`));
  child.stdout!.setEncoding("utf8").on("data", (text: string) => void ((printed += text), logFile.write(text)));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => void ((printed += text), logFile.write(text)));
  child.once("exit", () => logFile.end());
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const app: AppProcess = { url: `http://localhost:${port}`, port, process: child, output: () => printed, kill: () => end("SIGKILL"), stop: () => end("SIGTERM") };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} stopped at start:\n${printed}`);
    if (await fetch(`${app.url}/healthz`).then((r) => r.ok, () => false)) return app;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await app.kill();
  throw new Error(`the server on port ${port} did not answer /healthz within 30 s:\n${printed}`);
}
