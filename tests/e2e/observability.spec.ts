import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type AppProcess, startApp, TEST_DATA_KEY, TEST_SESSION_SECRET } from "../support/app-process";
import { startOtlpStandIn } from "../support/otlp-stand-in";
import { connectAdmin, databaseUrl, testPostgresUrl } from "../support/postgres";
import { STEP_ISSUE_ID, type StepPerson, stepForm } from "../support/viewer-people";

// Issue 24, part 3: what an operator watches the service with. Two production servers of the spec's own, each
// with two worker processes (WEB_CONCURRENCY): SQLite with the metrics behind METRICS_TOKEN on the main port (the
// worker asked asks the primary, which adds up both), and PostgreSQL with the metrics on METRICS_PORT and traces
// sent to a local OTLP/HTTP stand-in. (One process, and METRICS_PORT on one: server/request-observation.test.ts.)
// Raw HTTP, no browser: the js project only.

// Issue 24's ports for the metrics tests: E2E_PORT + 40 onwards (the specs' usual offsets are +0 … +9).
const basePort = Number(process.env.E2E_PORT ?? 3210) + 40;
const TOKEN = "e2e-metrics-token-0123456789abcdef";

/** People with a session and an interview of the two-page step guide, made on that database. */
function preparePeople(dataDir: string, url: string, people: number): StepPerson[] {
  const made = spawnSync("node_modules/.bin/tsx", ["tests/support/viewer-people.ts"], {
    env: { PATH: process.env.PATH, NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_URL: url, SESSION_SECRET: TEST_SESSION_SECRET, DATA_ENCRYPTION_KEY: TEST_DATA_KEY, PEOPLE: String(people), INTERVIEWS: "1" },
    encoding: "utf8",
  });
  expect(made.status, made.stderr).toBe(0);
  return JSON.parse(made.stdout) as StepPerson[];
}

const viewerPath = (person: StepPerson) => `/viewer?issueId=${STEP_ISSUE_ID}&interviewId=${person.interviewIds[0]}`;

/** One request on a connection of its own (so that, with workers, connections are dealt to each in turn). */
function request(port: number, pathname: string, { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const sent = http.request({ host: "127.0.0.1", port, path: pathname, method, agent: false, headers: { ...headers, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) } }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** A sample's value in Prometheus's text format (the first line with this name and these labels); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `) ? Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)) : false);
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

/** The server's JSON log lines. */
const logLines = (server: AppProcess) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Both workers listen (the first answered /healthz for startApp): connections are then dealt to each in turn. */
async function bothWorkersListen(server: AppProcess) {
  await expect.poll(() => logLines(server).filter((line) => String(line.msg).startsWith("listening on")).length, { timeout: 30_000 }).toBe(2);
}

test("logs, request ids and metrics behind a token: two workers on SQLite, one scrape adds them up", async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-observe-"));
  const url = `file:${path.join(dir, "app.db")}`;
  let server: AppProcess | null = null;
  try {
    const [person] = preparePeople(dir, url, 1) as [StepPerson];
    server = await startApp({ port: basePort, dataDir: dir, databaseUrl: url, env: { METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2" } });
    await bothWorkersListen(server);
    const port = server.port;
    const cookie = { cookie: person.cookie };

    // Three steps: A → B → A (saved, each answered by a redirect), then page A again without its required name.
    for (const [page, seed] of [["A", "1"], ["B", "2"]] as const) {
      expect((await request(port, viewerPath(person), { method: "POST", headers: cookie, body: stepForm(page, seed) })).status).toBe(302);
    }
    const invalid = await request(port, viewerPath(person), { method: "POST", headers: { ...cookie, "x-request-id": "edge-proxy-0001" }, body: new URLSearchParams({ _page: "A", _button: "0", "name te": "", "amount nu": "5" }).toString() });
    expect(invalid.status).toBe(400);
    expect(invalid.headers["x-request-id"]).toBe("edge-proxy-0001");
    // A request id from outside that is not a plain token is replaced by one of the server's own.
    const page = await request(port, "/issues/2?utm=x", { headers: { "x-request-id": "bad id <script>" } });
    expect(page.status).toBe(200);
    expect(page.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    // The metrics: 401 without the token (or with another), the numbers with it.
    for (const headers of [{}, { authorization: "Bearer not-the-token-0000000000" }] as Record<string, string>[]) {
      const refused = await request(port, "/metrics", { headers });
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain("interview_steps_total");
    }
    const scrape = await request(port, "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scrape.status).toBe(200);
    expect(sample(scrape.text, "interview_steps_total", { outcome: "next" })).toBe(2);
    expect(sample(scrape.text, "interview_steps_total", { outcome: "invalid" })).toBe(1);
    expect(sample(scrape.text, "http_request_duration_seconds_count", { method: "POST", route: "/viewer", status_class: "3xx" })).toBe(2);
    expect(sample(scrape.text, "http_request_duration_seconds_count", { method: "POST", route: "/viewer", status_class: "4xx" })).toBe(1);
    expect(sample(scrape.text, "http_request_duration_seconds_count", { method: "GET", route: "/issues/:issueId", status_class: "2xx" })).toBe(1);
    expect(scrape.text).toContain("nodejs_eventloop_lag_seconds");
    console.log(`metrics scrape (SQLite, two workers, behind the token), a few lines:\n${scrape.text.split("\n").filter((l) => /^(interview_steps_total|http_request_duration_seconds_count|nodejs_eventloop_lag_seconds) ?/.test(l)).join("\n")}`);

    // The log: one JSON line per request, by route pattern, with the request id, never the query string.
    await expect.poll(() => logLines(server!).filter((line) => line.msg === "request").length).toBeGreaterThanOrEqual(7);
    const requests = logLines(server).filter((line) => line.msg === "request");
    // Both workers answered some (each line names its process): the scrape's exact counts above are their sum.
    expect(new Set(requests.map((line) => line.pid)).size).toBe(2);
    expect(requests.find((line) => line.requestId === "edge-proxy-0001")).toMatchObject({ level: "info", method: "POST", route: "/viewer", status: 400 });
    expect(requests.find((line) => line.requestId === page.headers["x-request-id"])).toMatchObject({ method: "GET", route: "/issues/:issueId", status: 200 });
    const output = server.output();
    expect(output).not.toContain("interviewId=");
    expect(output).not.toContain("utm=");
    expect(output).not.toContain("Ana Lim");
    expect(output).not.toContain("@example.org");
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two workers on PostgreSQL: one scrape of METRICS_PORT adds up both, and traces reach the OTLP endpoint", async () => {
  test.setTimeout(150_000);
  const name = `lsh_e2e_${randomBytes(6).toString("hex")}`;
  const adminUrl = testPostgresUrl();
  const admin = await connectAdmin(adminUrl);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = databaseUrl(adminUrl, name);
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-observe-pg-"));
  const collector = await startOtlpStandIn();
  const metricsPort = basePort + 2;
  let server: AppProcess | null = null;
  try {
    const people = preparePeople(dir, url, 4);
    server = await startApp({
      port: basePort + 1,
      dataDir: dir,
      databaseUrl: url,
      env: { WEB_CONCURRENCY: "2", METRICS_PORT: String(metricsPort), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "200" },
    });
    const port = server.port;
    await bothWorkersListen(server);
    // Each on a connection of its own: the cluster deals connections to the workers in turn.
    let posted = 0;
    for (const person of people) {
      for (const [page, seed] of [["A", "1"], ["B", "2"]] as const) {
        expect((await request(port, viewerPath(person), { method: "POST", headers: { cookie: person.cookie }, body: stepForm(page, seed) })).status).toBe(302);
        posted++;
      }
    }
    expect((await request(port, "/issues/2")).status).toBe(200);
    // Both workers answered some of them (their log lines carry their process ids)…
    await expect.poll(() => new Set(logLines(server!).filter((line) => line.route === "/viewer").map((line) => line.pid)).size).toBe(2);

    // …and the one scrape counts every step: the primary adds up the workers' metrics.
    expect((await request(port, "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const scrape = await request(metricsPort, "/metrics");
    expect(scrape.status).toBe(200);
    expect(sample(scrape.text, "interview_steps_total", { outcome: "next" })).toBe(posted);
    expect(sample(scrape.text, "http_request_duration_seconds_count", { method: "POST", route: "/viewer", status_class: "3xx" })).toBe(posted);
    expect(sample(scrape.text, "db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(2);
    expect(scrape.text).toMatch(/^db_pool_waiting_clients \d+$/m);
    console.log(`metrics scrape (PostgreSQL, two workers), a few lines:\n${scrape.text.split("\n").filter((l) => /^(interview_steps_total|db_pool_|http_request_duration_seconds_count\{method="POST")/.test(l)).join("\n")}`);

    // Traces: the HTTP server's spans named by route pattern (Express's own, and the router's), PostgreSQL's
    // statements inside them, and no query string or client address in any of them.
    await expect.poll(() => collector.spans.filter((span) => span.scope.includes("instrumentation-pg")).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => collector.spans.some((span) => span.name === "GET /issues/:issueId"), { timeout: 15_000 }).toBe(true);
    expect(collector.contentTypes.every((type) => type === "application/x-protobuf")).toBe(true);
    const serverSpans = collector.spans.filter((span) => span.kind === 2);
    const viewerSpan = serverSpans.find((span) => span.name === "POST /viewer");
    expect(viewerSpan).toMatchObject({ resource: { "service.name": "legal-self-help" }, attributes: { "http.route": "/viewer", "http.response.status_code": 302 } });
    expect(collector.spans.some((span) => span.traceId === viewerSpan!.traceId && span.scope.includes("instrumentation-pg"))).toBe(true);
    for (const span of serverSpans) {
      expect(span.attributes).not.toHaveProperty("url.query");
      expect(span.attributes).not.toHaveProperty("client.address");
    }
    // A request's log lines carry its trace's id.
    const traced = logLines(server).find((line) => line.msg === "request" && line.route === "/issues/:issueId");
    expect(collector.spans.some((span) => span.traceId === traced?.traceId)).toBe(true);
  } finally {
    await server?.stop();
    await collector.close();
    rmSync(dir, { recursive: true, force: true });
    const cleanup = await connectAdmin(adminUrl);
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
});
