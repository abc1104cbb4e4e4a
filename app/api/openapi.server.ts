// The OpenAPI 3.1 document of the API, made from the endpoint table and its zod schemas (z.toJSONSchema): what
// validates a request is what the document says it takes.
import { z } from "zod";
import type { Endpoint } from "./endpoint.server";
import { problem } from "./schemas";
import { SCOPE_DESCRIPTIONS, SCOPES } from "./scopes";

type JsonSchema = Record<string, unknown>;

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema: what a client sends (`input`) or receives. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const problemContent = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };

/** The problems any endpoint may answer with, besides its own answers. */
function commonProblems(endpoint: Endpoint): Record<string, unknown> {
  const answers: Record<string, unknown> = {
    "401": { description: "No token, or one that is unknown, expired or revoked.", content: problemContent },
    "403": { description: `The token does not have the scope ${endpoint.scope}.`, content: problemContent },
    "429": { description: "Too many requests from this token (600 a minute); `Retry-After` says how many seconds to wait.", content: problemContent },
  };
  if (endpoint.query) answers["400"] = { description: "A query parameter is not right: `errors` names it.", content: problemContent };
  if (endpoint.body) {
    answers["400"] = { description: "The body is not JSON, or a query parameter is not right.", content: problemContent };
    answers["415"] = { description: "The body is not sent as application/json.", content: problemContent };
    answers["422"] = { description: "Some fields are not right: `errors` points at each.", content: problemContent };
  }
  if (endpoint.params) answers["404"] ??= { description: "There is nothing at this address (or it is no longer shared).", content: problemContent };
  return answers;
}

function parameters(endpoint: Endpoint): unknown[] {
  const list: unknown[] = [];
  const add = (schema: z.ZodType | undefined, where: "path" | "query") => {
    if (!schema) return;
    const json = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      list.push({ name, in: where, required: where === "path" || (json.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  };
  add(endpoint.params, "path");
  add(endpoint.query, "query");
  return list;
}

function operation(endpoint: Endpoint): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    const content = spec.schema
      ? { "application/json": { schema: jsonSchema(spec.schema, "output") } }
      : spec.contentType
        ? { [spec.contentType]: { schema: spec.contentType.startsWith("application/xml") ? { type: "string" } : { type: "string", contentMediaType: spec.contentType } } }
        : undefined;
    responses[status] = { description: spec.description, ...(content ? { content } : {}) };
  }
  Object.assign(responses, Object.fromEntries(Object.entries(commonProblems(endpoint)).filter(([status]) => !(status in responses))));
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    security: [{ bearer: [endpoint.scope] }],
    "x-scope": endpoint.scope,
    parameters: parameters(endpoint),
    ...(endpoint.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(endpoint.body, "input") } } } } : {}),
    responses,
  };
}

export function openApiDocument(table: readonly Endpoint[], origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of table) (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint);
  return {
    openapi: "3.1.0",
    info: {
      title: "Legal Self-Help API",
      version: "1.0.0",
      description: [
        "The organisation's API: issues and guides, interviews prepared for people, and what people share with the organisation, only while they share it.",
        "Authenticate with a token an administrator makes at /admin/api: `Authorization: Bearer lsh_…`. Each endpoint needs one scope:",
        ...SCOPES.map((scope) => `- \`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}`),
        "Errors are RFC 9457 problem details. Lists are paged with cursors: pass `nextCursor` back as `cursor`.",
      ].join("\n"),
    },
    servers: [{ url: `${origin}/api/v1` }],
    tags: [...new Set(table.map((endpoint) => endpoint.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Problem: jsonSchema(problem, "output") },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token (lsh_…) made by an administrator at /admin/api." },
      },
    },
  };
}
