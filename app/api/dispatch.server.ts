// Every request under /api/v1 (routes/api.v1.$.ts hands it here): the endpoint for its path and method, the
// bearer token and its scope, the token's rate limit, then the schemas of the path, the query and the body,
// and the handler. Whatever goes wrong is answered as problem details, and bad input is never a 500.
import { createHash } from "node:crypto";
import type { z } from "zod";
import { countAttempt, limits, RateLimitError } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { translator } from "~/i18n/translator";
import { logger } from "~/observability/log.server";
import { ApiProblem, type Endpoint, type FieldProblem } from "./endpoint.server";
import { endpoints } from "./endpoints.server";
import { openApiDocument } from "./openapi.server";
import { API_HEADERS, jsonResponse, problemResponse } from "./problem.server";
import { authenticate, type Authentication } from "./tokens.server";

export const API_BASE = "/api/v1";
const log = logger("api");

interface Route {
  endpoint: Endpoint;
  pattern: RegExp;
  names: string[];
}

/** The endpoints' paths as patterns: /issues/{issueId} → ^/issues/([^/]+)$. */
export function routesOf(table: readonly Endpoint[]): Route[] {
  return table.map((endpoint) => {
    const names: string[] = [];
    const segments = endpoint.path.split("/").map((segment) => {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (!name) return segment.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
      names.push(name);
      return "([^/]+)";
    });
    return { endpoint, pattern: new RegExp(`^${segments.join("/")}$`), names };
  });
}

const table = routesOf(endpoints);

const english = translator("en");
const problemsOf = (error: z.ZodError, where: "body" | "query"): FieldProblem[] =>
  error.issues.map((issue) => {
    const detail = english.message(issue.message);
    if (where === "query") return { parameter: String(issue.path[0] ?? ""), detail };
    return { pointer: `/${issue.path.map((part) => String(part).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`, detail };
  });

function unauthorised(reason: Exclude<Authentication, { ok: true }>["reason"]): ApiProblem {
  const detail =
    reason === "missing"
      ? "Send an API token as `Authorization: Bearer lsh_…`. Administrators make tokens at /admin/api."
      : reason === "expired"
        ? "This token has expired. An administrator can make a new one at /admin/api."
        : reason === "revoked"
          ? "This token was revoked."
          : "This token is not known.";
  const challenge = reason === "missing" ? `Bearer realm="api"` : `Bearer realm="api", error="invalid_token"`;
  return new ApiProblem(401, "Unauthorized", detail, undefined, { "WWW-Authenticate": challenge });
}

/** Answers one request to the API. `address` is the client's (for the audit and per-address limits). */
export async function answerApi(request: Request, address: string): Promise<Response> {
  try {
    return await dispatch(request, address);
  } catch (error) {
    if (error instanceof ApiProblem) return problemResponse(error);
    if (error instanceof RateLimitError) return tooManyRequests(error);
    log.error("an API request failed", { err: error });
    return problemResponse({ status: 500, title: "Internal Server Error", detail: "Something went wrong. Try again later.", headers: {} });
  }
}

function tooManyRequests(error: RateLimitError): Response {
  return problemResponse({
    status: 429,
    title: "Too Many Requests",
    detail: `This token has made too many requests. Wait ${error.retryAfterMinutes} ${error.retryAfterMinutes === 1 ? "minute" : "minutes"} and try again.`,
    headers: { "Retry-After": String(error.retryAfterMinutes * 60) },
  });
}

async function dispatch(request: Request, address: string): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(API_BASE.length) || "/";
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (path === "/openapi.json") {
    if (method !== "GET") throw new ApiProblem(405, "Method Not Allowed", undefined, undefined, { Allow: "GET, HEAD" });
    const { text, etag } = openApiDocumentText();
    const headers = { ...API_HEADERS, "Cache-Control": "public, max-age=300", ETag: etag };
    if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
    return new Response(text, { headers: { "Content-Type": "application/json; charset=utf-8", ...headers } });
  }
  const matching = table.map((route) => ({ route, match: route.pattern.exec(path) })).filter((found) => found.match);
  if (!matching.length) throw new ApiProblem(404, "Not Found", "There is no such address in this API: its description is at /api/v1/openapi.json.");
  const found = matching.find((candidate) => candidate.route.endpoint.method === method);
  if (!found) {
    const allow: string[] = [...new Set(matching.map((candidate) => candidate.route.endpoint.method))];
    if (allow.includes("GET")) allow.push("HEAD");
    throw new ApiProblem(405, "Method Not Allowed", `This address takes ${allow.join(", ")}.`, undefined, { Allow: allow.join(", ") });
  }
  const { endpoint, names } = found.route;

  const authentication = await authenticate(request.headers.get("Authorization"));
  if (!authentication.ok) throw unauthorised(authentication.reason);
  const holder = authentication.holder;
  await countAttempt([[`api:token:${holder.id}`, limits.apiPerToken]]);
  if (!holder.scopes.includes(endpoint.scope)) {
    throw new ApiProblem(403, "Forbidden", `This token does not have the scope ${endpoint.scope}.`, undefined, {
      "WWW-Authenticate": `Bearer realm="api", error="insufficient_scope", scope="${endpoint.scope}"`,
    });
  }

  const rawParams = Object.fromEntries(names.map((name, index) => [name, safeDecode(found.match![index + 1]!)]));
  const params = endpoint.params ? endpoint.params.safeParse(rawParams) : { success: true as const, data: rawParams };
  // A path that names nothing that could exist is as absent as one that names nothing that does.
  if (!params.success) throw new ApiProblem(404, "Not Found", "There is nothing here.");
  const query = endpoint.query ? endpoint.query.safeParse(Object.fromEntries(url.searchParams)) : { success: true as const, data: {} };
  if (!query.success) throw new ApiProblem(400, "Bad Request", "A query parameter is not right.", problemsOf(query.error, "query"));
  let body: unknown = undefined;
  if (endpoint.body) {
    if (!/^application\/json\s*(;|$)/i.test(request.headers.get("Content-Type") ?? "")) {
      throw new ApiProblem(415, "Unsupported Media Type", "Send the body as JSON (Content-Type: application/json).");
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await request.text());
    } catch {
      throw new ApiProblem(400, "Bad Request", "The body is not valid JSON.");
    }
    const parsed = endpoint.body.safeParse(raw);
    if (!parsed.success) throw new ApiProblem(422, "Unprocessable Content", "Some fields are not right.", problemsOf(parsed.error, "body"));
    body = parsed.data;
  }

  const result = await endpoint.handle({ params: params.data, query: query.data, body, holder, address, base: `${config().PUBLIC_ORIGIN}${API_BASE}` });
  if (result instanceof Response) return result;
  return jsonResponse(result.json, result.status ?? 200, result.headers);
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "\u0000";
  }
}

let documentText: { text: string; etag: string } | null = null;
/** The OpenAPI document, made once per process (the table does not change while it runs), with its ETag. */
export function openApiDocumentText(): { text: string; etag: string } {
  if (!documentText) {
    const text = JSON.stringify(openApiDocument(endpoints, config().PUBLIC_ORIGIN));
    documentText = { text, etag: `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"` };
  }
  return documentText;
}

export const openApiJson = (): string => openApiDocumentText().text;
