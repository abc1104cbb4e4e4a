// Who administers the service. The first administrator is made on the server (`cli admin grant`); after that
// administrators make others. Every change is recorded (audit.server.ts).
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { emailKey } from "~/auth/accounts.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";

export const roleMessages = {
  noAccount: "No account uses this email address.",
  alreadyAdministrator: "This account is already an administrator.",
  notAdministrator: "This account is not an administrator.",
  lastAdministrator: "The last administrator cannot be removed: make another account an administrator first.",
} as const;

export type RoleChange = { ok: true; email: string } | { ok: false; message: string };

export interface Administrator {
  id: string;
  name: string;
  email: string;
}

export async function listAdministrators(db: Db = database()): Promise<Administrator[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "email"])
    .where("role", "=", "administrator")
    .orderBy("email_key")
    .execute();
  return rows.map((row) => ({ id: row.id, name: `${row.first_name} ${row.last_name}`.trim(), email: row.email }));
}

export async function isAdministrator(userId: string, db: Db = database()): Promise<boolean> {
  const row = await db.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst();
  return row?.role === "administrator";
}

/**
 * The service keeps at least one administrator: this account may not stop being one (revoked, or deleted)
 * while it is the only one. Without one, only the server's command line could administer the service.
 */
export async function isOnlyAdministrator(userId: string, db: Db = database()): Promise<boolean> {
  const administrators = await db.selectFrom("users").select("id").where("role", "=", "administrator").limit(2).execute();
  return administrators.length === 1 && administrators[0]!.id === userId;
}

/** Makes the account with this email an administrator. */
export async function grantAdministrator(email: string, actor: Actor, db: Db = database()): Promise<RoleChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("email_key", "=", emailKey(email)).executeTakeFirst();
    if (!user) return { ok: false, message: roleMessages.noAccount };
    if (user.role === "administrator") return { ok: false, message: roleMessages.alreadyAdministrator };
    await trx.updateTable("users").set({ role: "administrator", updated_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    await recordAuditEvent(actor, { action: "role.granted", subject: user.email, details: { role: "administrator" } }, trx);
    return { ok: true, email: user.email };
  });
}

/** Makes an administrator an ordinary account again; never the only one (isOnlyAdministrator). */
export async function revokeAdministrator(email: string, actor: Actor, db: Db = database()): Promise<RoleChange> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "email", "role"]).where("email_key", "=", emailKey(email)).executeTakeFirst();
    if (!user) return { ok: false, message: roleMessages.noAccount };
    if (user.role !== "administrator") return { ok: false, message: roleMessages.notAdministrator };
    if (await isOnlyAdministrator(user.id, trx)) return { ok: false, message: roleMessages.lastAdministrator };
    await trx.updateTable("users").set({ role: "person", updated_at: new Date().toISOString() }).where("id", "=", user.id).execute();
    await recordAuditEvent(actor, { action: "role.revoked", subject: user.email, details: { role: "administrator" } }, trx);
    return { ok: true, email: user.email };
  });
}
