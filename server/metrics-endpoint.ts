// The Prometheus endpoint (README, "Logs, metrics and traces"; docs/decisions/0035): GET /metrics on a port of its
// own (METRICS_PORT, which the proxy in front never exposes), or on the main port behind a bearer token
// (METRICS_TOKEN); neither set, there is none. With worker processes (WEB_CONCURRENCY) the primary asks every
// worker for its metrics and adds them up (prom-client's AggregatorRegistry), so a scrape covers them all.
import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type express from "express";
import client from "prom-client";
import { config } from "~/config.server";
import { logger } from "~/observability/log.server";
import { collectProcessMetrics, processMetrics } from "~/observability/metrics.server";

const log = logger("metrics");

type Scrape = { contentType: string; body: string };
type Role = "single" | "primary" | "worker";

const ASK_PRIMARY = "lsh:metrics-request";
const PRIMARY_ANSWER = "lsh:metrics-answer";
const ASK_TIMEOUT_MS = 5_000;

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the Authorization header carries the token (compared in constant time); true when there is no token. */
export function authorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * The metrics of every process that answers requests: this one's (one process), the sum of the workers' (the
 * primary), or that sum asked of the primary (a worker; startMetrics sets which).
 */
let gather: () => Promise<Scrape> = processMetrics;

let asked = 0;
const waiting = new Map<number, (answer: Scrape | Error) => void>();

function askPrimary(): Promise<Scrape> {
  const id = ++asked;
  return new Promise<Scrape>((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error("the primary process did not send the metrics in time")), ASK_TIMEOUT_MS);
    function settle(answer: Scrape | Error) {
      clearTimeout(timer);
      waiting.delete(id);
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    }
    waiting.set(id, settle);
    process.send!({ type: ASK_PRIMARY, id });
  });
}

async function answer(authorization: string | undefined, send: (status: number, headers: Record<string, string>, body: string) => void) {
  if (!authorized(authorization, config().METRICS_TOKEN)) {
    return send(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' }, "A bearer token is needed.");
  }
  try {
    const { contentType, body } = await gather();
    send(200, { "Content-Type": contentType, "Cache-Control": "no-store" }, body);
  } catch (error) {
    log.error("the metrics could not be gathered", { err: error });
    send(503, { "Content-Type": "text/plain; charset=utf-8" }, "The metrics could not be gathered.");
  }
}

/** GET /metrics on the main port: only with METRICS_TOKEN and no METRICS_PORT (else it is not there: 404). */
export function metricsRoute(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const { METRICS_TOKEN, METRICS_PORT } = config();
  if (!METRICS_TOKEN || METRICS_PORT) return next();
  void answer(req.get("authorization"), (status, headers, body) => void res.status(status).set(headers).send(body));
}

/**
 * Sets up the metrics of this process by its role (server.js): `single` (one process), `primary` (which forks
 * the workers and adds up their metrics), `worker`. The process that owns METRICS_PORT listens on it. Returns
 * what stops the listener.
 */
export function startMetrics(role: Role): { close(): Promise<void> } {
  const { METRICS_PORT, METRICS_TOKEN, HOST } = config();
  const closed = { close: async () => undefined };
  if (!METRICS_PORT && !METRICS_TOKEN) return closed;
  if (role === "worker") {
    collectProcessMetrics();
    gather = askPrimary;
    // Registers the answer to the primary's requests for this worker's metrics.
    new client.AggregatorRegistry();
    process.on("message", (message: { type?: string; id?: number; scrape?: Scrape; error?: string }) => {
      if (message?.type !== PRIMARY_ANSWER || typeof message.id !== "number") return;
      waiting.get(message.id)?.(message.scrape ?? new Error(message.error ?? "no metrics"));
    });
    return closed;
  }
  if (role === "primary") {
    const aggregator = new client.AggregatorRegistry();
    gather = async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() });
    // A worker asked on the main port (METRICS_TOKEN): the sum is made here, where every worker is known.
    cluster.on("message", (worker, message: { type?: string; id?: number }) => {
      if (message?.type !== ASK_PRIMARY) return;
      gather().then(
        (scrape: Scrape) => worker.isConnected() && worker.send({ type: PRIMARY_ANSWER, id: message.id, scrape }),
        (error: Error) => worker.isConnected() && worker.send({ type: PRIMARY_ANSWER, id: message.id, error: error.message }),
      );
    });
  } else {
    collectProcessMetrics();
  }
  if (!METRICS_PORT) return closed;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: the metrics are at /metrics.");
      return;
    }
    void answer(req.headers.authorization, (status, headers, body) => void res.writeHead(status, headers).end(body));
  });
  server.on("error", (error) => {
    log.error(`cannot listen on ${HOST}:${METRICS_PORT} for the metrics`, { err: error });
    process.exit(1);
  });
  server.listen(METRICS_PORT, HOST, () => log.info(`metrics on http://${HOST}:${METRICS_PORT}/metrics`));
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
