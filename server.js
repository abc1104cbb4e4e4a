// Starts the HTTP server: the production build by default, Vite's dev server with NODE_ENV=development.
// `--local` (what `npm start` uses) lets a machine run the production build without configuring a session
// secret: a random one is kept in DATA_DIR. Deployments (the container) start without it and must set one.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const development = process.env.NODE_ENV === "development";

if (process.argv.includes("--local") && !process.env.SESSION_SECRET) {
  const dataDir = process.env.DATA_DIR || "./data";
  const file = path.join(dataDir, "session-secret");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
  }
  process.env.SESSION_SECRET = readFileSync(file, "utf8").trim();
  console.log(`Local start: using the generated session secret in ${file} (set SESSION_SECRET for a deployment).`);
}

async function loadServer() {
  if (!development) return import("./build/server/index.js");
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
    console.error("No production build found: run `npm run build` first (or `npm start`, which builds).");
  } else {
    console.error(error?.name === "ConfigError" ? error.message : error);
  }
  process.exit(1);
}

const { app, config, prepareDatabase, closeDatabase } = server;
let settings;
try {
  settings = config();
  await prepareDatabase();
} catch (error) {
  console.error(error?.name === "ConfigError" ? error.message : `Start-up failed: ${error?.message ?? error}`);
  process.exit(1);
}

const listener = app.listen(settings.PORT, settings.HOST, () => {
  console.log(`Listening on ${settings.PUBLIC_ORIGIN} (${settings.NODE_ENV})`);
});

function shutdown(signal) {
  console.log(`${signal} received: closing`);
  listener.close(() => closeDatabase().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
