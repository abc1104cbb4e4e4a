// Starts the HTTP server: the production build by default, Vite's dev server with NODE_ENV=development.
// `--local` (what `npm start` and `npm run dev` use) lets a machine run without configuring a session secret or
// a data encryption key: random ones are kept in DATA_DIR, so both commands read the same data. Deployments
// (the container) start without it and must set both.
// WEB_CONCURRENCY=N (production build only) runs N worker processes on the one port (docs/decisions/0010).
// Logs are JSON lines on standard output (docs/decisions/0035); with OTEL_EXPORTER_OTLP_ENDPOINT set, traces are
// sent there, and the tracing code is loaded before the server's modules (it patches http, express and pg).
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const development = process.env.NODE_ENV === "development";
/** What is said at start-up before the logger is loaded (with the server's modules). */
const startNotes = [];

if (process.argv.includes("--local")) {
  keepLocalSecret("SESSION_SECRET", "session-secret", "session secret", "base64url");
  // The same file name as app/security/data-encryption.server.ts's LOCAL_KEY_FILE, which the CLI reads.
  keepLocalSecret("DATA_ENCRYPTION_KEY", "data-encryption-key", "data encryption key", "base64");
}

/** A secret generated once and kept in DATA_DIR, unless the environment sets one. */
function keepLocalSecret(variable, fileName, what, encoding) {
  if (process.env[variable]) return;
  const dataDir = process.env.DATA_DIR || "./data";
  const file = path.join(dataDir, fileName);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString(encoding) + "\n", { mode: 0o600 });
  }
  process.env[variable] = readFileSync(file, "utf8").trim();
  startNotes.push(`local start: using the generated ${what} in ${file} (set ${variable} for a deployment)`);
}

/** A start that fails before the logger could be loaded (no build): one line in the logger's own shape. */
function failBeforeLogging(message) {
  if (development) process.stderr.write(`${message}\n`);
  else process.stdout.write(`${JSON.stringify({ level: "fatal", time: new Date().toISOString(), pid: process.pid, component: "server", msg: message })}\n`);
  process.exit(1);
}

/** The tracing module, when OTEL_EXPORTER_OTLP_ENDPOINT is set: its last spans are sent before the process exits. */
let tracing = null;

async function loadServer() {
  if (!development) {
    // Off by default, and then not even loaded (docs/decisions/0035).
    if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) tracing = await import("./build/server/tracing.js");
    return import("./build/server/index.js");
  }
  const vite = await import("vite");
  const viteServer = await vite.createServer({ server: { middlewareMode: true } });
  const { default: express } = await import("express");
  const server = await viteServer.ssrLoadModule("./server/app.ts");
  const app = express();
  app.use(viteServer.middlewares);
  app.use(async (req, res, next) => {
    try {
      const fresh = await viteServer.ssrLoadModule("./server/app.ts");
      return fresh.app(req, res, next);
    } catch (error) {
      if (error instanceof Error) viteServer.ssrFixStacktrace(error);
      next(error);
    }
  });
  return { ...server, app };
}

let server;
try {
  server = await loadServer();
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("build/server")) {
    failBeforeLogging("No production build found: run `npm run build` first (or `npm start`, which builds).");
  }
  failBeforeLogging(error?.name === "ConfigError" ? error.message : `Start-up failed: ${error?.stack ?? error}`);
}

const { app, config, prepareDatabase, closeDatabase, startHousekeeping, startWebhookDelivery, startMetrics, logger } = server;
const log = logger("server");
if (cluster.isPrimary) for (const note of startNotes) log.info(note);
let settings;
try {
  settings = config();
  // With several workers the primary prepares the database once (migrations, seed) before forking them.
  if (cluster.isPrimary) await prepareDatabase();
} catch (error) {
  if (error?.name === "ConfigError") log.error(error.message);
  else log.error("start-up failed", { err: error });
  process.exit(1);
}

const workers = development ? 1 : settings.WEB_CONCURRENCY;
if (cluster.isPrimary && workers > 1) {
  // The primary forks and watches the workers (they share the listening socket) and runs housekeeping.
  await closeDatabase();
  runPrimary(workers);
} else {
  serve();
}

function serve() {
  let housekeeping;
  let webhooks;
  const metrics = startMetrics(cluster.isWorker ? "worker" : "single");
  const listener = app.listen(settings.PORT, settings.HOST, (error) => {
    // Express calls this on a failed listen too (the port is taken, say).
    if (error) {
      log.error(`cannot listen on ${settings.HOST}:${settings.PORT}: ${error.message}`);
      process.exit(1);
    }
    log.info(`listening on ${settings.PUBLIC_ORIGIN} (${settings.NODE_ENV}${cluster.isWorker ? `, worker ${cluster.worker.id}` : ""})`);
    // Purging expired data (server/housekeeping.ts): the single process; with workers, the primary does it.
    if (cluster.isPrimary) housekeeping = startHousekeeping();
    // Sending webhooks (app/webhooks/delivery.server.ts): every serving process, each claiming deliveries with a lease.
    webhooks = startWebhookDelivery();
  });
  let closing = false;
  function shutdown(signal) {
    if (closing) return;
    closing = true;
    if (cluster.isPrimary) log.info(`${signal} received: closing`);
    const housekeepingStopped = housekeeping?.stop();
    const webhooksStopped = webhooks?.stop();
    listener.close(() =>
      Promise.all([housekeepingStopped, webhooksStopped, metrics.close()])
        .then(closeDatabase)
        .then(() => tracing?.shutdownTracing())
        .finally(() => process.exit(0)),
    );
    setTimeout(() => process.exit(0), 10_000).unref();
  }
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

function runPrimary(count) {
  log.info(`starting ${count} workers (WEB_CONCURRENCY)`);
  const housekeeping = startHousekeeping();
  // The metrics of every worker, added up here (and METRICS_PORT's listener, if set).
  startMetrics("primary");
  let stopping = false;
  let exitCode = 0;
  const listening = new Set();
  cluster.on("listening", (worker) => listening.add(worker.id));
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    // A worker that never started (a bad build, a port in use) would fail again: stop instead of looping.
    if (!listening.has(worker.id)) {
      log.error(`worker ${worker.id} stopped before it listened (${signal ?? `exit code ${code}`}): stopping`);
      stop(1);
      return;
    }
    log.error(`worker ${worker.id} died (${signal ?? `exit code ${code}`}): starting another`);
    cluster.fork();
  });
  function stop(code) {
    stopping = true;
    exitCode = code;
    housekeeping.stop();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
    setTimeout(() => process.exit(exitCode), 11_000).unref();
  }
  function shutdown(signal) {
    if (stopping) return;
    log.info(`${signal} received: closing`);
    stop(0);
  }
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  for (let i = 0; i < count; i++) cluster.fork();
}
