// The organisation's API tokens (issue 31, docs/decisions/0056-the-api.md): made by an administrator at /admin/api,
// shown once, kept only as their SHA-256, revocable, every use counted on the row and every change audited. A token
// acts for the administrator who made it, and only while that account is an administrator.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../db/database";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { hashToken, randomToken } from "~/auth/crypto.server";
import { database } from "~/db.server";
import { SCOPES, type Scope, TOKEN_PREFIX } from "./scopes";

export { SCOPES, type Scope, TOKEN_PREFIX };

const DAY_MS = 86_400_000;

export type TokenStatus = "active" | "expired" | "revoked";

export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdByEmail: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  useCount: number;
  status: TokenStatus;
}

const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
const scopesOf = (text: string): Scope[] => text.split(" ").filter(isScope);

function statusOf(row: { revoked_at: string | null; expires_at: string }, now: Date): TokenStatus {
  if (row.revoked_at) return "revoked";
  return row.expires_at <= now.toISOString() ? "expired" : "active";
}

/**
 * Makes a token for an administrator; returns it whole, the only time it is seen (the row keeps its hash and its
 * first eight characters).
 */
export async function createToken(
  administrator: { id: string },
  token: { name: string; scopes: readonly Scope[]; days: number },
  actor: Actor,
  db: Db = database(),
  now = new Date(),
): Promise<{ id: string; token: string }> {
  const secret = `${TOKEN_PREFIX}${randomToken(32)}`;
  const id = randomUUID();
  const scopes = SCOPES.filter((scope) => token.scopes.includes(scope));
  const expiresAt = new Date(now.getTime() + token.days * DAY_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("api_tokens")
      .values({
        id,
        name: token.name,
        prefix: secret.slice(0, 8),
        token_hash: hashToken(secret),
        scopes: scopes.join(" "),
        created_by: administrator.id,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .execute();
    await recordAuditEvent(actor, { action: "api-token.created", subject: token.name, details: { token: secret.slice(0, 8), scopes, expiresAt } }, trx);
  });
  return { id, token: secret };
}

/** Every token, the active ones first, then newest first. */
export async function listTokens(db: Db = database(), now = new Date()): Promise<ApiToken[]> {
  const rows = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.created_by")
    .selectAll("api_tokens")
    .select("users.email")
    .orderBy("api_tokens.created_at", "desc")
    .orderBy("api_tokens.id")
    .limit(500)
    .execute();
  const tokens = rows.map<ApiToken>((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: scopesOf(row.scopes),
    createdByEmail: row.email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    useCount: Number(row.use_count),
    status: statusOf(row, now),
  }));
  return [...tokens.filter((token) => token.status === "active"), ...tokens.filter((token) => token.status !== "active")];
}

/** Revokes a token at once, on every instance (the next request reads the row); false when it was revoked already or is none. */
export async function revokeToken(id: string, actor: Actor, db: Db = database(), now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("api_tokens")
      .set({ revoked_at: now.toISOString() })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .returning(["name", "prefix"])
      .executeTakeFirst();
    if (!row) return false;
    await recordAuditEvent(actor, { action: "api-token.revoked", subject: row.name, details: { token: row.prefix } }, trx);
    return true;
  });
}

/** The token behind a request, and the administrator it acts for. */
export interface TokenHolder {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  administrator: { id: string; email: string; firstName: string; lastName: string };
}

export type Authentication = { ok: true; holder: TokenHolder } | { ok: false; reason: "missing" | "unknown" | "expired" | "revoked" };

/** The token of an `Authorization: Bearer lsh_…` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match?.[1]?.startsWith(TOKEN_PREFIX) && match[1].length <= 200 ? match[1] : null;
}

/**
 * Who a request's bearer token acts for, counting the use (last used, count) when it is good. A token whose
 * administrator is no longer one is refused as revoked.
 */
export async function authenticate(authorization: string | null, db: Db = database(), now = new Date()): Promise<Authentication> {
  const secret = bearerToken(authorization);
  if (!secret) return { ok: false, reason: authorization ? "unknown" : "missing" };
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.created_by")
    .select([
      "api_tokens.id",
      "api_tokens.name",
      "api_tokens.prefix",
      "api_tokens.scopes",
      "api_tokens.expires_at",
      "api_tokens.revoked_at",
      "users.id as user_id",
      "users.email",
      "users.first_name",
      "users.last_name",
      "users.role",
    ])
    .where("api_tokens.token_hash", "=", hashToken(secret))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: "unknown" };
  const status = statusOf(row, now);
  if (status !== "active") return { ok: false, reason: status };
  if (row.role !== "administrator") return { ok: false, reason: "revoked" };
  await db
    .updateTable("api_tokens")
    .set({ last_used_at: now.toISOString(), use_count: sql<number>`use_count + 1` })
    .where("id", "=", row.id)
    .execute();
  return {
    ok: true,
    holder: {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      scopes: scopesOf(row.scopes),
      administrator: { id: row.user_id, email: row.email, firstName: row.first_name, lastName: row.last_name },
    },
  };
}

/** The audit's actor for what a token does: its administrator, named with the token. */
export function tokenActor(holder: TokenHolder, address: string): Actor {
  return { id: holder.administrator.id, email: `${holder.administrator.email} (API token "${holder.name}")`, address };
}
