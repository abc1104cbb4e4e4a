import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Resend } from "resend";
import { type Config, config } from "~/config.server";
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { logger } from "~/observability/log.server";

const log = logger("mail");

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
  /**
   * Extra headers, such as a reminder's List-Unsubscribe (RFC 8058's one click). Sent through Resend; the outbox
   * keeps them in the message's file.
   */
  headers?: Record<string, string>;
}

export interface SentMail {
  id: string;
  via: "resend" | "outbox";
  /** For the outbox: the file that holds the message. */
  file?: string;
}

export class MailError extends Error {
  override name = "MailError";
}

/**
 * Sends an email: through Resend when RESEND_API_KEY is set (RESEND_BASE_URL is honoured by the SDK),
 * otherwise into the embedded outbox (a database row and a JSON file under DATA_DIR/outbox).
 */
export async function sendMail(message: MailMessage, settings: Config = config(), db: Db = database()): Promise<SentMail> {
  if (settings.RESEND_API_KEY) return sendWithResend(settings, settings.RESEND_API_KEY, message);
  return storeInOutbox(settings, message, db);
}

async function sendWithResend(settings: Config, apiKey: string, message: MailMessage): Promise<SentMail> {
  const resend = new Resend(apiKey, settings.RESEND_BASE_URL ? { baseUrl: settings.RESEND_BASE_URL } : undefined);
  const { data, error } = await resend.emails.send({
    from: settings.MAIL_FROM,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    ...(message.headers ? { headers: message.headers } : {}),
  });
  if (error || !data) throw new MailError(`Resend refused the message: ${error?.message ?? "no answer"}`);
  return { id: data.id, via: "resend" };
}

/** Where the outbox keeps a message's file, named from its row. */
function outboxFile(settings: Config, row: { id: string; created_at: string }): string {
  return path.join(path.resolve(settings.DATA_DIR, "outbox"), `${row.created_at.replace(/[:.]/g, "-")}-${row.id}.json`);
}

/**
 * After an account is deleted: every outbox message to the address, or sent from it through the contact form
 * (its reply-to), goes, rows and files; in their place one record that an account was deleted, which names
 * nobody. Returns how many messages went. Messages already handed to Resend are out of our reach.
 */
export async function eraseAddressFromOutbox(email: string, settings: Config = config(), db: Db = database()): Promise<number> {
  const key = email.trim().toLowerCase();
  const gone = await db
    .deleteFrom("outbox_messages")
    .where((eb) => eb.or([eb(eb.fn("lower", ["to_address"]), "=", key), eb(eb.fn("lower", ["reply_to"]), "=", key)]))
    .returning(["id", "created_at"])
    .execute();
  for (const row of gone) await rm(outboxFile(settings, row), { force: true });
  const text = `An account was deleted on ${new Date().toISOString()}. Its messages were removed from the outbox.`;
  await storeInOutbox(settings, { to: "", subject: ACCOUNT_DELETED_RECORD, html: `<p>${text}</p>`, text }, db);
  return gone.length;
}

/** The subject of the outbox's record of a deleted account. */
export const ACCOUNT_DELETED_RECORD = "Record: an account was deleted";

async function storeInOutbox(settings: Config, message: MailMessage, db: Db): Promise<SentMail> {
  const id = randomUUID();
  const createdAt = new Date().toISOString();
  const record = {
    id,
    created_at: createdAt,
    from_address: settings.MAIL_FROM,
    to_address: message.to,
    reply_to: message.replyTo ?? null,
    subject: message.subject,
    html: message.html,
    text: message.text,
  };
  await db.insertInto("outbox_messages").values(record).execute();
  const file = outboxFile(settings, record);
  await mkdir(path.dirname(file), { recursive: true });
  // Written whole, then renamed into place: whoever reads the folder never sees half a message.
  await writeFile(`${file}.partial`, JSON.stringify(message.headers ? { ...record, headers: message.headers } : record, null, 2) + "\n", "utf8");
  await rename(`${file}.partial`, file);
  // Never the recipient or the subject (a subject can name a person): the file holds them.
  log.info(`a message was stored in the outbox: ${file}`, { messageId: id });
  return { id, via: "outbox", file };
}
