// Errors as RFC 9457 problem details: `application/problem+json`, a title (the status's own phrase), a detail
// written for the developer, and for bad input the fields at fault as JSON Pointers.
import type { ApiProblem } from "./endpoint.server";

export const PROBLEM_TYPE = "application/problem+json";

/** Headers every answer of the API carries: never cached by a shared cache, never sniffed. */
export const API_HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } as const;

export function problemResponse(problem: Pick<ApiProblem, "status" | "title" | "detail" | "errors" | "headers">): Response {
  const body = {
    type: "about:blank",
    title: problem.title,
    status: problem.status,
    ...(problem.detail ? { detail: problem.detail } : {}),
    ...(problem.errors?.length ? { errors: problem.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { "Content-Type": PROBLEM_TYPE, ...API_HEADERS, ...problem.headers },
  });
}

export function jsonResponse(json: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(json), { status, headers: { "Content-Type": "application/json; charset=utf-8", ...API_HEADERS, ...headers } });
}
