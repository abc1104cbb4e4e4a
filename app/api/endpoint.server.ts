// What an endpoint of the API is: its method and path, the scope it needs, the schemas of what it takes and
// answers, and its handler. The dispatcher (dispatch.server.ts) and the OpenAPI document (openapi.server.ts) both
// read the one table of them (endpoints.server.ts), so an endpoint cannot be served undescribed or unguarded.
import type { z } from "zod";
import type { Scope, TokenHolder } from "./tokens.server";

export type Method = "GET" | "POST" | "DELETE";

export interface ApiCall<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  holder: TokenHolder;
  /** The client's address (for the audit and the per-address limits). */
  address: string;
  /** Where this API lives, e.g. https://help.example.org/api/v1: links in answers are absolute. */
  base: string;
}

/** What a handler returns: JSON (200 unless said), or a response of its own (a document, XML, a problem). */
export type ApiResult = { status?: number; json: unknown; headers?: Record<string, string> } | Response;

export interface ResponseSpec {
  description: string;
  /** A JSON answer's schema; or, for another kind, its content type (the body is then described as bytes or text). */
  schema?: z.ZodType;
  contentType?: string;
}

export interface Endpoint<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  operationId: string;
  method: Method;
  /** The path under /api/v1, OpenAPI's way: /issues/{issueId}. */
  path: string;
  scope: Scope;
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The answers besides the problems every endpoint may give (401, 403, 404, 429, …), by status. */
  responses: Record<number, ResponseSpec>;
  handle(call: ApiCall<z.output<P>, z.output<Q>, z.output<B>>): Promise<ApiResult>;
}

/** Declares an endpoint with its handler's input typed from its schemas. */
export function endpoint<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  definition: Endpoint<P, Q, B>,
): Endpoint {
  return definition as unknown as Endpoint;
}

/** A field at fault: in the body (a JSON Pointer) or the query (the parameter's name). */
export type FieldProblem = { pointer: string; detail: string } | { parameter: string; detail: string };

/** An error an endpoint answers with, as RFC 9457 problem details. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
  }
}

export const notFoundProblem = () => new ApiProblem(404, "Not Found", "There is nothing here, or it is no longer shared.");
