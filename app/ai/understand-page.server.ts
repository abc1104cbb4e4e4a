// "Understand my situation" for one person and issue: the question (typed, or the interview's answers with their
// consent), the passages found in the organisation's sources, and the checked explanation. Never throws for a
// person's input; every AI call is recorded.
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import type { SessionUser } from "~/auth/session.server";
import type { Issue } from "~/content/content.server";
import { findInterview, latestInterviewOnIssue, loadInterview } from "~/interviews/interviews.server";
import { searchPassages } from "~/sources/sources.server";
import { recordAiCall } from "./call-log.server";
import { answersAsQuestion, type GroundingPassage, MAX_PASSAGES, understandFormMessages } from "./understand";
import { type Explanation, explainSituation } from "./understand.server";

export interface ShownPassage extends GroundingPassage {
  /** Its number in the explanation's citations (from 1). */
  number: number;
}

export type UnderstandOutcome =
  | { ok: true; explanation: Explanation; passages: ShownPassage[]; usedAnswers: boolean }
  | { ok: false; reason: "limited" | "nothing-to-ask"; message: string };

/** The interview whose answers the person may choose to use: the one named (if it is theirs and on this issue), else their latest on the issue. */
export async function interviewToOffer(user: SessionUser, issue: Pick<Issue, "id">, named: string | null): Promise<string | null> {
  if (named && /^[0-9a-f-]{36}$/.test(named)) {
    // Its row only: the answers are opened when the person asks to use them, not to show the page.
    const interview = await findInterview(user.id, named);
    if (interview?.issueId === issue.id) return interview.id;
  }
  return latestInterviewOnIssue(user.id, issue.id);
}

export async function understandSituation(
  user: SessionUser,
  address: string,
  issue: Issue,
  request: { question: string; interviewId: string | null; language?: string },
): Promise<UnderstandOutcome> {
  const interview = request.interviewId ? await loadInterview(user.id, request.interviewId) : null;
  const answers = interview && interview.issueId === issue.id ? answersAsQuestion(interview.state.answers) : "";
  const question = [request.question.trim(), answers].filter(Boolean).join("\n\n");
  if (!question) return { ok: false, reason: "nothing-to-ask", message: understandFormMessages.nothingToAsk };
  const refused = await refuseCostlyUse("ai-understand", user.id, address);
  if (refused) return { ok: false, reason: "limited", message: refused.message };

  const found = await searchPassages({ countryId: issue.country.id, issueId: issue.id, query: question, limit: MAX_PASSAGES, language: request.language });
  const passages = found.map((passage, index) => ({ ...passage, number: index + 1 }));
  const { explanation, calls } = await explainSituation({
    question,
    passages,
    issue: { id: issue.id, name: issue.name, modelAI: issue.modelAI, countryName: issue.country.name },
    personalNames: [user.firstName, user.lastName],
    language: request.language,
  });
  for (const call of calls) await recordAiCall({ ...call, purpose: "understand", issueId: issue.id });
  return { ok: true, explanation, passages, usedAnswers: Boolean(answers) };
}
