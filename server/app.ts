import "react-router";
import { createRequestHandler } from "@react-router/express";
import * as build from "virtual:react-router/server-build";
import compression from "compression";
import express from "express";
import { RouterContextProvider } from "react-router";
import { config } from "~/config.server";
import { closeDatabase, databaseHandle } from "~/db.server";
import { clientAddressContext, nonceContext } from "~/request-context";
import { createNonce, securityHeaders } from "~/security/headers.server";
import { refusal } from "~/security/request-guard.server";
import { type Log, prepareDatabase as prepare } from "./database-setup";
import { viewer } from "./viewer";

export { config, closeDatabase };
export { startHousekeeping } from "./housekeeping";

/** Run by server.js before it listens (by the primary alone when there are worker processes). */
export function prepareDatabase(log: Log = console.log): Promise<void> {
  return prepare(databaseHandle(), config().SEED_DIR, log);
}

export const app = express();
app.disable("x-powered-by");
app.set("trust proxy", 1);

app.use((_req, res, next) => {
  const nonce = createNonce();
  res.locals.cspNonce = nonce;
  const { isProduction, isHttps, NODE_ENV } = config();
  res.set(securityHeaders({ nonce, production: isProduction, https: isHttps, development: NODE_ENV === "development" }));
  next();
});
app.use((req, res, next) => {
  const refused = refusal({
    method: req.method,
    host: req.get("host"),
    protocol: req.protocol,
    origin: req.get("origin"),
    contentLength: req.get("content-length"),
    publicOrigin: config().PUBLIC_ORIGIN,
  });
  if (!refused) return next();
  res.status(refused.status).type("text/plain; charset=utf-8").send(refused.message);
});
// The viewer answers before the compression middleware: it compresses its own pages (server/viewer.ts).
app.use(viewer);
app.use(compression());

if (config().NODE_ENV !== "development") {
  // Hashed file names never change, so they can be cached for good.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
  // Only paths that look like files are looked for on disk; pages go straight to the router.
  const files = express.static("build/client", { maxAge: "1h", index: false });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? files(req, res, next) : next()));
}

app.use(
  createRequestHandler({
    // The build itself, not a function: a function makes the router rebuild its route table on every request.
    build,
    mode: config().NODE_ENV,
    getLoadContext(req, res) {
      const context = new RouterContextProvider();
      context.set(nonceContext, String(res.locals.cspNonce ?? ""));
      context.set(clientAddressContext, req.ip ?? "unknown");
      return context;
    },
  }),
);
