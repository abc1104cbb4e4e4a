import type { Db } from "../../db/database";
import { answersFromJSON, answersToJSON, reopenCompleted } from "~/a2j";
import { database } from "~/db.server";
import { getGuide, getGuideVersion } from "~/guides/guides.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { copyAttachments } from "./attachments.server";
import { loadInterview, saveInterview } from "./interviews.server";

/** The attachment ids an interview's answers name (`attachments/<id>.<ext>`, the Attachment type's value). */
const ATTACHMENT_PATH = /attachments\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[a-z]{2,5}/g;

/**
 * Correcting a completed interview: a new Draft copied from it, its answers and its files (copied, not shared),
 * on the same guide version, opened on "Check your answers" so that its Change links correct it; the completed
 * interview and its document stay as they were. Null when the person has no such completed interview.
 */
export async function draftFromCompleted(
  userId: string,
  id: string,
  db: Db = database(),
  storage: AttachmentStorage = attachmentStorage(),
): Promise<{ id: string; issueId: number } | null> {
  const completed = await loadInterview(userId, id, db);
  if (!completed || completed.status !== "Completed") return null;
  const guide = completed.guide ? await getGuideVersion(completed.guide, db) : await issueGuide(completed.issueId, db);
  if (!guide) return null;
  const state = reopenCompleted(guide, completed.state);
  const draftId = await saveInterview({ id: null, userId, issueId: completed.issueId, status: "Draft", state, guide: completed.guide, language: completed.language }, db);
  const json = JSON.stringify(answersToJSON(state.answers));
  const named = [...new Set([...json.matchAll(ATTACHMENT_PATH)].map((m) => m[1]!))];
  const copies = await copyAttachments(userId, named, draftId, storage, db);
  if (copies.size) {
    const answers = answersFromJSON(json.replace(ATTACHMENT_PATH, (path, old: string) => (copies.has(old) ? path.replace(old, copies.get(old)!) : path)));
    if (answers.ok) await saveInterview({ id: draftId, userId, issueId: completed.issueId, status: "Draft", state: { ...state, answers: answers.value }, guide: completed.guide }, db);
  }
  return { id: draftId, issueId: completed.issueId };
}

async function issueGuide(issueId: number, db: Db) {
  const issue = await db.selectFrom("issues").select("guide_id").where("id", "=", issueId).executeTakeFirst();
  return issue?.guide_id ? getGuide(issue.guide_id, db) : null;
}
