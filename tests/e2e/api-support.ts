import { createHash, randomBytes, randomUUID } from "node:crypto";
import { uniqueEmail } from "./accounts";
import { withE2eDatabase } from "./support";

// What the API's specs share: administrators and tokens planted in the e2e server's database (the page that
// makes tokens is the subject of admin-api.spec.ts only), and calls made from the OpenAPI document alone.

/** An administrator's account (no session: a token acts for it). */
export function plantAdministrator(label: string): { id: string; email: string } {
  const id = randomUUID();
  const email = uniqueEmail(label);
  const now = new Date().toISOString();
  withE2eDatabase((db) =>
    db
      .prepare(
        "insert into users (id, first_name, last_name, email, email_key, phone_country, phone_code, phone_number, password_hash, email_verified_at, totp_secret, two_factor_enabled, totp_last_step, role, created_at, updated_at) values (?, 'Ada', 'Admin', ?, ?, 'SG', '+65', '91234567', null, ?, null, 1, null, 'administrator', ?, ?)",
      )
      .run(id, email, email.toLowerCase(), now, now, now),
  );
  return { id, email };
}

/** A token as /admin/api makes one (only its SHA-256 kept), for an administrator; expired or revoked if asked. */
export function plantToken(administratorId: string, name: string, scopes: string[], state: "active" | "expired" | "revoked" = "active"): string {
  const token = `lsh_${randomBytes(32).toString("base64url")}`;
  const now = Date.now();
  withE2eDatabase((db) =>
    db
      .prepare("insert into api_tokens (id, name, prefix, token_hash, scopes, created_by, created_at, expires_at, revoked_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run(
        randomUUID(),
        name,
        token.slice(0, 8),
        createHash("sha256").update(token).digest("base64url"),
        scopes.join(" "),
        administratorId,
        new Date(now - 86_400_000).toISOString(),
        new Date(state === "expired" ? now - 1000 : now + 30 * 86_400_000).toISOString(),
        state === "revoked" ? new Date(now).toISOString() : null,
      ),
  );
  return token;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  scope: string;
  hasBody: boolean;
}

export interface OpenApi {
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; "x-scope": string; requestBody?: unknown }>>;
}

/** Every operation of the document, with the scope it needs. */
export function operations(document: OpenApi): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      scope: operation["x-scope"],
      hasBody: operation.requestBody !== undefined,
    })),
  );
}

/** The address of an operation of the document, with its path parameters filled in. */
export function addressOf(document: OpenApi, operationId: string, params: Record<string, string | number> = {}): { method: string; url: string } {
  const operation = operations(document).find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`the OpenAPI document has no operation ${operationId}`);
  const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (params[name] === undefined) throw new Error(`${operationId} needs ${name}`);
    return encodeURIComponent(String(params[name]));
  });
  return { method: operation.method, url: `${document.servers[0]!.url}${path}` };
}

/** Calls an operation with plain fetch, a bearer token and (for a write) a JSON body. */
export async function callOperation(document: OpenApi, token: string | null, operationId: string, params: Record<string, string | number> = {}, body?: unknown) {
  const { method, url } = addressOf(document, operationId, params);
  return fetch(url, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}
