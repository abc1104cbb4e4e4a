// The record of what administrators did. Append-only: nothing here updates or deletes, and the database refuses
// to (migration 0010). docs/decisions/0021-administration-roles-and-audit.md.
import type { Db } from "../../db/database";
import { database } from "~/db.server";

/** Who did it, from where: an administrator's session, or the command line on the server. */
export interface Actor {
  id: string | null;
  email: string;
  address: string;
}

export const commandLineActor: Actor = { id: null, email: "command line", address: "the server" };

export interface AuditEvent {
  seq: number;
  happenedAt: string;
  actorEmail: string;
  address: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
}

export const AUDIT_PAGE_SIZE = 50;

export async function recordAuditEvent(
  actor: Actor,
  event: { action: string; subject: string; details?: Record<string, unknown> },
  db: Db = database(),
): Promise<void> {
  await db
    .insertInto("audit_events")
    .values({
      happened_at: new Date().toISOString(),
      actor_id: actor.id,
      actor_email: actor.email,
      address: actor.address,
      action: event.action,
      subject: event.subject,
      details: JSON.stringify(event.details ?? {}),
    })
    .execute();
}

/** One page of the record, newest first; a page past the end shows the last page. */
export async function listAuditEvents(requestedPage: number, db: Db = database()) {
  const { count } = await db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const rows = await db
    .selectFrom("audit_events")
    .selectAll()
    .orderBy("seq", "desc")
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .execute();
  const events: AuditEvent[] = rows.map((row) => ({
    seq: Number(row.seq),
    happenedAt: row.happened_at,
    actorEmail: row.actor_email,
    address: row.address,
    action: row.action,
    subject: row.subject,
    details: JSON.parse(row.details) as Record<string, unknown>,
  }));
  return { events, total, page, pageCount };
}
