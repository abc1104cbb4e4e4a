import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { metricValue } from "../tests/support/metrics";
import { captureLogs, logger, setRequestRoute } from "~/observability/log.server";
import { metricsRoute } from "./metrics-endpoint";
import { observeRequests, requestId } from "./request-observation";

// The request line, the request id and the metrics endpoint, on a small Express app built the way server/app.ts
// builds the real one (observeRequests first, GET /metrics after it).

const TOKEN = "metrics-token-for-the-unit-test-0001";
// Issue 24's numbers: the metrics tests use ports from 4250.
const METRICS_PORT = 4251;
const log = logger("test");
let server: Server;
let base: string;
let capture: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  vi.stubEnv("METRICS_TOKEN", TOKEN);
  capture = captureLogs("info");
  const app = express();
  app.use(observeRequests);
  app.get("/metrics", metricsRoute);
  app.get("/things/:thingId", (req, res) => {
    log.info("looking at a thing", { thing: req.params.thingId });
    res.set("Content-Length", "2").send("ok");
  });
  // What the router does (app/root.tsx): it names the pattern it matched.
  app.use("/issues", (_req, res) => {
    setTimeout(() => {
      setRequestRoute("/issues/:issueId/interviews/:interviewId?");
      res.status(201).send("made");
    }, 5);
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  capture.restore();
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
});

/** The request lines written so far, newest last. */
const requestLines = () => capture.lines().filter((line) => line.msg === "request");

describe("the request id", () => {
  it("keeps a well-formed X-Request-Id from the proxy in front, and makes one otherwise", () => {
    expect(requestId("0f2c6a6e2b7d4e5f9a1b3c4d5e6f7a8b")).toBe("0f2c6a6e2b7d4e5f9a1b3c4d5e6f7a8b");
    expect(requestId("Root=1-67891233-abcdef012345678912345678")).toBe("Root=1-67891233-abcdef012345678912345678");
    for (const bad of ["", "two words", "ana@example.org", "<script>", "x".repeat(129), ["a", "b"], undefined]) {
      expect(requestId(bad as string | undefined)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it("is sent back, and carried by every line of the request, its request line included", async () => {
    const response = await fetch(`${base}/things/7?token=secret-link-token`, { headers: { "X-Request-Id": "edge-1234" } });
    expect(response.headers.get("x-request-id")).toBe("edge-1234");
    const made = await fetch(`${base}/things/8`, { headers: { "X-Request-Id": "not ok" } });
    const madeId = made.headers.get("x-request-id")!;
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    const lines = capture.lines();
    expect(lines.find((line) => line.thing === "7")).toMatchObject({ msg: "looking at a thing", requestId: "edge-1234" });
    expect(lines.find((line) => line.thing === "8")).toMatchObject({ requestId: madeId });
    expect(requestLines().find((line) => line.requestId === "edge-1234")).toEqual({
      level: "info",
      time: expect.any(String),
      pid: process.pid,
      requestId: "edge-1234",
      method: "GET",
      route: "/things/:thingId",
      status: 200,
      ms: expect.any(Number),
      bytes: 2,
      msg: "request",
    });
    expect(capture.text()).not.toContain("secret-link-token");
  });
});

describe("the request line", () => {
  it("names the route pattern the router matched, never the path, and the edge when nothing routed the request", async () => {
    await fetch(`${base}/issues/3/interviews/5b1f3e0c-6a8e-4f55-9d7b-2f1c0e9a4d11?step=2`, { method: "POST" });
    await fetch(`${base}/nowhere/ana@example.org/page`);
    await fetch(`${base}/assets/app-1234.css`);
    const [issues, nowhere, asset] = requestLines().slice(-3);
    expect(issues).toMatchObject({ method: "POST", route: "/issues/:issueId/interviews/:interviewId?", status: 201 });
    expect(nowhere).toMatchObject({ method: "GET", route: "(edge)", status: 404 });
    expect(asset).toMatchObject({ route: "/assets/*", status: 404 });
    expect(capture.text()).not.toContain("5b1f3e0c");
    expect(capture.text()).not.toContain("example.org");
    expect(Number(issues!.ms)).toBeGreaterThanOrEqual(4);
  });

  it("is observed in the request durations by route pattern and status class", async () => {
    const before = await metricValue("http_request_duration_seconds", { route: "/things/:thingId", status_class: "2xx" });
    await fetch(`${base}/things/1`);
    await fetch(`${base}/things/2`);
    expect(await metricValue("http_request_duration_seconds", { route: "/things/:thingId", status_class: "2xx", method: "GET" })).toBe(before + 2);
  });
});

describe("GET /metrics behind METRICS_TOKEN", () => {
  it("answers 401 without the token or with another, and the metrics with it", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-wrong-token-00", `Basic ${TOKEN}`, TOKEN]) {
      const response = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain("http_request_duration_seconds");
    }
    const scraped = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scraped.text();
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/things/:thingId",status_class="2xx"}');
    expect(text).toContain("# TYPE interview_steps_total counter");
  });
});

describe("METRICS_PORT", () => {
  it("serves the metrics on a port of their own (with the token when one is set), and none on the main port", async () => {
    vi.stubEnv("METRICS_PORT", String(METRICS_PORT));
    vi.resetModules();
    const fresh = await import("./metrics-endpoint");
    const { config } = await import("~/config.server");
    expect(config().METRICS_PORT).toBe(METRICS_PORT);
    const listener = fresh.startMetrics("single");
    try {
      const own = `http://127.0.0.1:${METRICS_PORT}`;
      for (let i = 0; i < 50 && !(await fetch(`${own}/metrics`).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 20));
      expect((await fetch(`${own}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${own}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("nodejs_eventloop_lag_seconds");
      expect((await fetch(`${own}/other`)).status).toBe(404);
      // The main port's /metrics goes on to the router (its not-found page) when the metrics have their own port.
      const app = express();
      app.get("/metrics", fresh.metricsRoute);
      app.use((_req, res) => void res.status(404).send("not found"));
      const main = app.listen(0);
      await new Promise((resolve) => main.once("listening", resolve));
      try {
        const response = await fetch(`http://127.0.0.1:${(main.address() as AddressInfo).port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(response.status).toBe(404);
      } finally {
        main.close();
      }
    } finally {
      await listener.close();
      vi.stubEnv("METRICS_PORT", "");
    }
  });

  it("is off with neither METRICS_PORT nor METRICS_TOKEN", async () => {
    vi.stubEnv("METRICS_TOKEN", "");
    vi.resetModules();
    const fresh = await import("./metrics-endpoint");
    const listener = fresh.startMetrics("single");
    await listener.close();
    expect(await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`).then(() => "answered", () => "refused")).toBe("refused");
    vi.stubEnv("METRICS_TOKEN", TOKEN);
  });
});
