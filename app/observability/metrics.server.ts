// What the application counts for Prometheus (prom-client's global registry; docs/decisions/0035): requests by
// route pattern, interview steps, documents, AI calls, abuse-limit refusals, PostgreSQL's pool. Labels are closed
// sets (a route pattern, an outcome, a limit's name), never an id, an address or a person's text. The endpoint
// that serves them is server/metrics-endpoint.ts.
import client from "prom-client";

/** One registration per name: the development server reloads modules, and a second registration throws. */
function once<T extends client.Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

const requestDuration = once(
  "http_request_duration_seconds",
  () =>
    new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer a request, by method, route pattern and status class (2xx, 3xx, 4xx, 5xx).",
      labelNames: ["method", "route", "status_class"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

const interviewSteps = once(
  "interview_steps_total",
  () =>
    new client.Counter({
      name: "interview_steps_total",
      help: "Buttons pressed in the interview viewer, by outcome: next (a page saved, the next shown), invalid (the page's errors shown), finish (the interview ended: completed, documents, or not eligible), exit (saved and signed out), detour (off to an AI page: rephrase, Understand my situation, Use a document I have), error (the guide failed).",
      labelNames: ["outcome"] as const,
    }),
);

const documentsMade = once(
  "documents_made_total",
  () => new client.Counter({ name: "documents_made_total", help: "Documents made for a download or POST /assemble, by the kind of file: pdf, docx, zip.", labelNames: ["kind"] as const }),
);

const documentsFailed = once(
  "documents_failed_total",
  () =>
    new client.Counter({
      name: "documents_failed_total",
      help: "Documents that could not be made, by reason: error (a template or guide failed), empty (the answers call for no document).",
      labelNames: ["reason"] as const,
    }),
);

const aiCallDuration = once(
  "ai_call_duration_seconds",
  () =>
    new client.Histogram({
      name: "ai_call_duration_seconds",
      help: "Calls to the AI endpoint, by purpose (rephrase, understand, document) and outcome (ok, timeout, error, refused: the endpoint answered 4xx); _count is the number of calls.",
      labelNames: ["purpose", "outcome"] as const,
      buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    }),
);

const rateLimitRefusals = once(
  "rate_limit_refusals_total",
  () =>
    new client.Counter({
      name: "rate_limit_refusals_total",
      help: "Attempts refused by an abuse limit, by limit (what is counted and per what: sign-in:address, documents:user…).",
      labelNames: ["limit"] as const,
    }),
);

const webhookAttempts = once(
  "webhook_attempts_total",
  () =>
    new client.Counter({
      name: "webhook_attempts_total",
      help: "Webhook delivery attempts, by outcome: delivered (a 2xx answer), failed (another status), error (no answer: timeout, connection refused, TLS), refused (the address is not public).",
      labelNames: ["outcome"] as const,
    }),
);

export type WebhookAttemptOutcome = "delivered" | "failed" | "error" | "refused";

export function countWebhookAttempt(outcome: WebhookAttemptOutcome): void {
  webhookAttempts.inc({ outcome });
}

const statusClass = (status: number) => (status >= 500 ? "5xx" : status >= 400 ? "4xx" : status >= 300 ? "3xx" : status >= 200 ? "2xx" : "1xx");

export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  requestDuration.observe({ method, route, status_class: statusClass(status) }, seconds);
}

export type InterviewStepOutcome = "next" | "invalid" | "finish" | "exit" | "detour" | "error";

export function countInterviewStep(outcome: InterviewStepOutcome): void {
  interviewSteps.inc({ outcome });
}

export function countDocumentMade(kind: "pdf" | "docx" | "zip"): void {
  documentsMade.inc({ kind });
}

export function countDocumentFailed(reason: "error" | "empty"): void {
  documentsFailed.inc({ reason });
}

export type AiCallOutcome = "ok" | "timeout" | "error" | "refused";

export function observeAiCall(purpose: string, outcome: AiCallOutcome, seconds: number): void {
  aiCallDuration.observe({ purpose, outcome }, seconds);
}

/** `bucket` is the limit's counter key (`sign-in:address:…`): only its first two parts name the limit. */
export function countRateLimitRefusal(bucket: string): void {
  const [what = "", per = ""] = bucket.split(":", 2);
  rateLimitRefusals.inc({ limit: `${what}:${per}` });
}

/** A PostgreSQL pool's connections, read at each scrape. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

let watchedPool: PoolCounts | null = null;

once(
  "db_pool_connections",
  () =>
    new client.Gauge({
      name: "db_pool_connections",
      help: "PostgreSQL connections of the pool, by state (total, idle). SQLite has none: its statements run in the process, and a slow one shows as event loop lag.",
      labelNames: ["state"] as const,
      collect() {
        if (!watchedPool) return;
        this.set({ state: "total" }, watchedPool.totalCount);
        this.set({ state: "idle" }, watchedPool.idleCount);
      },
    }),
);
once(
  "db_pool_waiting_clients",
  () =>
    new client.Gauge({
      name: "db_pool_waiting_clients",
      help: "Queries waiting for a free PostgreSQL connection of the pool.",
      collect() {
        if (watchedPool) this.set(watchedPool.waitingCount);
      },
    }),
);

/** The pool whose connections the gauges report (app/db.server.ts). */
export function watchPool(pool: PoolCounts | null): void {
  watchedPool = pool;
}

/** Node's own metrics (event loop lag, heap, garbage collection, handles…), once an endpoint can serve them. */
export function collectProcessMetrics(): void {
  if (client.register.getSingleMetric("nodejs_eventloop_lag_seconds")) return;
  client.collectDefaultMetrics();
}

/** This process's metrics, in Prometheus's text format. */
export async function processMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: client.register.contentType, body: await client.register.metrics() };
}
