import { randomUUID } from "node:crypto";
import type express from "express";
import { inRequestScope, logRequestLine, type RequestScope } from "~/observability/log.server";
import { observeRequest } from "~/observability/metrics.server";

/** An X-Request-Id from a proxy in front is kept when it is a plain token of up to 128 characters. */
const WELL_FORMED_REQUEST_ID = /^[\w.:+/=-]{1,128}$/;

export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The route pattern of an answered request: the one the router named (app/root.tsx) or Express's own route
 * (the viewer, /metrics); else what answered at the edge, never the path, which can hold ids.
 */
export function routeOf(req: express.Request, scope: RequestScope): string {
  if (scope.route) return scope.route;
  if (req.route?.path && typeof req.route.path === "string") return req.baseUrl + req.route.path;
  if (req.path.startsWith("/assets/")) return "/assets/*";
  return /\.[a-z0-9]+$/i.test(req.path) ? "(static file)" : "(edge)";
}

/**
 * First of all middleware: gives the request its id (sent back as X-Request-Id, carried by every log line
 * written while it is answered), and once it is answered writes its request line (method, route pattern,
 * status, duration; never the query string) and observes its duration for the metrics.
 */
export function observeRequests(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const started = performance.now();
  const scope: RequestScope = { requestId: requestId(req.headers["x-request-id"]), route: null };
  res.setHeader("X-Request-Id", scope.requestId);
  let done = false;
  const answered = () => {
    if (done) return;
    done = true;
    const ms = performance.now() - started;
    const route = routeOf(req, scope);
    const aborted = !res.writableFinished;
    observeRequest(req.method, route, res.statusCode, ms / 1000);
    const bytes = Number(res.getHeader("content-length"));
    logRequestLine({
      requestId: scope.requestId,
      method: req.method,
      route,
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      ...(Number.isFinite(bytes) ? { bytes } : {}),
      ...(aborted ? { aborted } : {}),
    });
  };
  res.once("finish", answered);
  res.once("close", answered);
  inRequestScope(scope, next);
}
