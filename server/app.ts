import "react-router";
import * as build from "virtual:react-router/server-build";
import compression from "compression";
import express from "express";
import { RouterContextProvider } from "react-router";
import { earlierSecrets } from "~/auth/earlier-secrets.server";
import { config, readDataConfig } from "~/config.server";
import { closeDatabase, databaseHandle } from "~/db.server";
import { clientAddressContext, nonceContext } from "~/request-context";
import { configuredKeyring } from "~/security/data-encryption.server";
import { prepareSigningCertificate } from "~/signing/certificate.server";
import { createNonce, securityHeaders } from "~/security/headers.server";
import { logger } from "~/observability/log.server";
import { refusal, refusalLine } from "~/security/request-guard.server";
import { storedFiles } from "~/storage/configured-storage.server";
import { bodyPolicy, refuse } from "./body-policy";
import { type Log, prepareDatabase as prepare } from "./database-setup";
import { metricsRoute } from "./metrics-endpoint";
import { observeRequests } from "./request-observation";
import { routerHandler } from "./router-handler";
import { viewer } from "./viewer";
import { sessionStatus } from "./session-status";

export { config, closeDatabase };
export { startHousekeeping } from "./housekeeping";
export { startWebhookDelivery } from "~/webhooks/delivery.server";
export { startMetrics } from "./metrics-endpoint";
export { logger } from "~/observability/log.server";

const log = logger("server");

/** Run by server.js before it listens (by the primary alone when there are worker processes). */
export async function prepareDatabase(say: Log = (line) => logger("database").info(line)): Promise<void> {
  const keys = configuredKeyring();
  const settings = readDataConfig();
  const handle = databaseHandle();
  await prepare(handle, config().SEED_DIR, { keys, storage: storedFiles(), dataDir: config().DATA_DIR, earlier: earlierSecrets(settings, keys) }, say);
  // The certificate that seals signed documents: a configured one that cannot be read stops the start here.
  const seal = await prepareSigningCertificate(handle.db, keys);
  say(`documents are sealed with "${seal.subject}"${seal.selfSigned ? " (self-signed: set SIGNING_CERTIFICATE to use the organisation's)" : ""}`);
  if (settings.TOTP_ENCRYPTION_KEY) say("TOTP_ENCRYPTION_KEY is no longer used (two-factor secrets are sealed with DATA_ENCRYPTION_KEY): remove it.");
}

export const app = express();
app.disable("x-powered-by");
// Whose X-Forwarded-* headers to believe: none unless TRUST_PROXY names the proxies (docs/decisions/0034), so a
// client that writes its own X-Forwarded-For gets no fresh address for the per-address limits.
app.set("trust proxy", config().TRUST_PROXY);
app.use(warnOfUntrustedProxy);

// First: the request id, and the request line once answered (server/request-observation.ts).
app.use(observeRequests);

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
    path: req.path,
    host: req.get("host"),
    urlHost: req.host,
    protocol: req.protocol,
    origin: req.get("origin"),
    contentLength: req.get("content-length"),
    publicOrigin: config().PUBLIC_ORIGIN,
  });
  if (!refused) return next();
  refuse(req, res, refused, true);
});
app.get("/metrics", metricsRoute);
// Every POST body is read here once, within the limits, for the viewer and the router alike (docs/decisions/0014).
app.use(bodyPolicy);
// The viewer answers before the compression middleware: it compresses its own pages (server/viewer.ts).
app.use(viewer);
// How long the session has left, asked without counting as a request (server/session-status.ts).
app.use(sessionStatus);
app.use(compression());
// The organisation's API authenticates with bearer tokens only: it never sees a cookie, so no session can act
// through it and a page elsewhere cannot make a browser's request count as the person's (app/api/).
app.use("/api/", (req, res, next) => {
  delete req.headers.cookie;
  // The router's own data requests (`.data`, for a page's script) have no place here: the API answers JSON itself.
  if (req.path.endsWith(".data")) {
    res.status(404).set("Cache-Control", "no-store").type("application/problem+json").send(JSON.stringify({ type: "about:blank", title: "Not Found", status: 404 }));
    return;
  }
  next();
});

if (config().NODE_ENV !== "development") {
  // Hashed file names never change, so they can be cached for good.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
  // Only paths that look like files are looked for on disk; pages go straight to the router.
  const files = express.static("build/client", { maxAge: "1h", index: false });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? files(req, res, next) : next()));
}

app.use(
  routerHandler({
    // The build itself, not a function: a function makes the router rebuild its route table on every request.
    build,
    mode: config().NODE_ENV,
    publicOrigin: config().PUBLIC_ORIGIN,
    getLoadContext(req, res) {
      const context = new RouterContextProvider();
      context.set(nonceContext, String(res.locals.cspNonce ?? ""));
      context.set(clientAddressContext, req.ip ?? "unknown");
      return context;
    },
  }),
);

/**
 * Behind a proxy that TRUST_PROXY does not name, every person shares the proxy's address, and the per-address
 * limits soon refuse them all: said once per process, at the first request that carries X-Forwarded-For.
 */
let warnedOfUntrustedProxy = false;
function warnOfUntrustedProxy(req: express.Request, _res: express.Response, next: express.NextFunction) {
  if (!warnedOfUntrustedProxy && req.headers["x-forwarded-for"] !== undefined && req.ip === req.socket.remoteAddress) {
    warnedOfUntrustedProxy = true;
    log.warn(
      config().TRUST_PROXY === false
        ? "A request came with X-Forwarded-For and TRUST_PROXY is unset: the connection's address is used as the client's. Behind a reverse proxy, set TRUST_PROXY (README, \"Behind a reverse proxy\")."
        : "A request came with X-Forwarded-For from an address TRUST_PROXY does not name: the connection's address is used as the client's. If that was your proxy, add its address to TRUST_PROXY.",
    );
  }
  next();
}

// Errors passed on by Express itself or a static file (a 404 under /assets, a malformed address): a 4xx is
// expected and logged in one line; anything else is logged whole and answered with a plain 500.
app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
  const status = Number((error as { status?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode);
  const expected = Number.isInteger(status) && status >= 400 && status < 500;
  if (expected) log.warn(refusalLine({ method: req.method, path: req.originalUrl }, status, error instanceof Error ? error.message : "refused"));
  else log.error("a request failed", { err: error });
  if (res.headersSent) return void res.destroy();
  res.status(expected ? status : 500).type("text/plain; charset=utf-8").send(!expected ? "Something went wrong." : status === 404 ? "Not found." : "The request could not be answered.");
});
