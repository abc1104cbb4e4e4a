// Sealing help's own texts again under the current key (`cli db rotate-key`), beside the answers and files
// (app/interviews/sealing.server.ts): the people's messages and the helpers' replies. docs/decisions/0042-helpers.md.
import type { Db } from "../../db/database";
import { type DataKeyring, openText, sealText, TEXT_PREFIX } from "~/security/data-encryption.server";
import { aboutPlace, messagePlace, replyPlace } from "./shares.server";

const BATCH = 200;

/** Seals again every message and reply not under the current key; returns how many rows changed. Idempotent. */
export async function resealHelpTexts(db: Db, keys: DataKeyring, batchSize = BATCH): Promise<{ messages: number; replies: number }> {
  const current = `${TEXT_PREFIX}${keys.current.id}:`;
  const settled = `${current}%`;
  const again = (value: string, where: string) => sealText(openText(value, where, keys), where, keys);
  const counts = { messages: 0, replies: 0 };
  for (let after = ""; ; ) {
    const rows = await db
      .selectFrom("interview_shares")
      .select(["id", "message"])
      .where("id", ">", after)
      .where("message", "is not", null)
      .where("message", "not like", settled)
      .orderBy("id")
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      await db.updateTable("interview_shares").set({ message: again(row.message!, messagePlace(row.id)) }).where("id", "=", row.id).where("message", "=", row.message).execute();
      counts.messages += 1;
    }
    if (rows.length < batchSize) break;
    after = rows.at(-1)!.id;
  }
  for (let after = ""; ; ) {
    const rows = await db
      .selectFrom("share_replies")
      .select(["id", "body", "about"])
      .where("id", ">", after)
      .where((eb) => eb.or([eb("body", "not like", settled), eb.and([eb("about", "is not", null), eb("about", "not like", settled)])]))
      .orderBy("id")
      .limit(batchSize)
      .execute();
    for (const row of rows) {
      const body = row.body.startsWith(current) ? row.body : again(row.body, replyPlace(row.id));
      const about = row.about === null || row.about.startsWith(current) ? row.about : again(row.about, aboutPlace(row.id));
      await db.updateTable("share_replies").set({ body, about }).where("id", "=", row.id).where("body", "=", row.body).execute();
      counts.replies += 1;
    }
    if (rows.length < batchSize) break;
    after = rows.at(-1)!.id;
  }
  return counts;
}
