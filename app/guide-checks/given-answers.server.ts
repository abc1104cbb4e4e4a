import { createHash } from "node:crypto";
import type { Db } from "../../db/database";
import { answersToJSON, replayAnswers, type Answers, type AnswerVar } from "~/a2j";
import { recordAuditEvent, type Actor } from "~/audit/audit.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { getGuide, getGuideVersion } from "~/guides/guides.server";
import { loadInterview, today } from "~/interviews/interviews.server";
import { addScenario } from "./checks.server";

/**
 * Who added a scenario made from a person's answers, in the scenario and in the audit record: never the person
 * (the copy is made by their choice, without who they are).
 */
export const givenAnswersActor: Actor = { id: null, email: "a person's choice", address: "the account area" };

/**
 * A copy of an interview's answers without who gave them: every answer typed in words (Text, and the types a
 * guide leaves open) becomes "Answer 1", "Answer 2"… (the same words the same placeholder, so answers that must
 * match still match, and a required field is still answered); files are dropped. Choices, true/false, numbers
 * and dates are kept: they steer the path and the documents, and say nothing of who the person is on their
 * own; so is A2J's own bookkeeping (`A2J …` variables: the pages visited, which the replay follows).
 */
export function withoutIdentity(answers: Answers): Answers {
  const placeholders = new Map<string, string>();
  const placeholder = (text: string) => {
    if (!placeholders.has(text)) placeholders.set(text, `Answer ${placeholders.size + 1}`);
    return placeholders.get(text)!;
  };
  const copy: Answers = {};
  for (const [key, variable] of Object.entries(answers)) {
    if (variable.type === "Attachment") continue;
    const words = !key.startsWith("a2j ") && (variable.type === "Text" || variable.type === "Other" || variable.type === "Unknown");
    const values = variable.values.map((value) => (words && typeof value === "string" && value.trim() !== "" ? placeholder(value) : value));
    copy[key] = { ...variable, values } satisfies AnswerVar;
  }
  return copy;
}

export type GiveAnswersResult = "given" | "already-given" | null;

/**
 * "Help check this interview": a person gives a copy of a completed interview's answers, without who they are,
 * to the organisation, as one of its guide's test scenarios (docs/decisions/0039-guide-health-and-scenarios.md).
 * What must hold is where those answers end on the version the person used, so a new version that ends them
 * elsewhere, or makes different documents, shows on its publish page. Null when the person has no such
 * completed interview; once per interview (its name carries a digest of the interview's id, so that it is given
 * once and removed with the interview: forgetGivenAnswers).
 */
export async function giveAnswersForTesting(userId: string, interviewId: string, db: Db = database()): Promise<GiveAnswersResult> {
  const interview = await loadInterview(userId, interviewId, db);
  if (!interview || interview.status !== "Completed") return null;
  const issue = await db.selectFrom("issues").select("guide_id").where("id", "=", interview.issueId).executeTakeFirst();
  const guideId = interview.guide?.guideId ?? issue?.guide_id ?? null;
  if (!guideId) return null;
  const guide = interview.guide ? await getGuideVersion(interview.guide, db) : await getGuide(guideId, db);
  if (!guide) return null;

  const answers = withoutIdentity(interview.state.answers);
  const replay = replayAnswers(guide, answers, today());
  const expectation = replay.outcome ? `outcome: ${replay.outcome}` : `page: ${replay.visited.at(-1) ?? guide.firstPage}`;
  const digest = givenDigest(interviewId);
  const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: config().TIME_ZONE }).format(new Date());
  const added = await addScenario(givenAnswersActor, guideId, { name: `Answers a person gave on ${day} (${digest})`, answersText: JSON.stringify(answersToJSON(answers)), expectations: expectation }, db);
  if (added.ok) return "given";
  return (await db.selectFrom("guide_scenarios").select("id").where("guide_id", "=", guideId).where("name", "like", `% (${digest})`).executeTakeFirst()) ? "already-given" : null;
}

/**
 * The copies given from these interviews are removed with them: when a person deletes the interview or their
 * account, what they gave goes too (found by the digest in its name, as nothing else links it to them).
 */
export async function forgetGivenAnswers(interviewIds: readonly string[], db: Db = database()): Promise<number> {
  let removed = 0;
  for (const interviewId of interviewIds) {
    const rows = await db.selectFrom("guide_scenarios").select(["id", "guide_id", "name"]).where("name", "like", `% (${givenDigest(interviewId)})`).execute();
    for (const row of rows) {
      await db.deleteFrom("guide_scenario_runs").where("scenario_id", "=", row.id).execute();
      await db.deleteFrom("guide_scenarios").where("id", "=", row.id).execute();
      await recordAuditEvent(givenAnswersActor, { action: "guide.scenario-deleted", subject: row.guide_id, details: { scenario: row.name } }, db);
      removed += 1;
    }
  }
  return removed;
}

function givenDigest(interviewId: string): string {
  return createHash("sha256").update(`given answers ${interviewId}`).digest("hex").slice(0, 8);
}
