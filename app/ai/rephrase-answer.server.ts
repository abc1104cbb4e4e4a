import { type Guide, getRaw, renderMacros } from "~/a2j";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import type { SessionUser } from "~/auth/session.server";
import { getIssue, type Issue } from "~/content/content.server";
import { getGuideVersion, interviewGuidePin } from "~/guides/guides.server";
import { loadInterview, mergeInterviewVariables, today } from "~/interviews/interviews.server";
import { sanitizeHtml } from "~/ui/sanitize-html.server";
import { recordAiCall } from "./call-log.server";
import { offersRephrase, type RephraseTarget } from "./rephrase";
import { type RephraseResult, rephraseText } from "./rephrase.server";

export interface OpenRephrase {
  target: RephraseTarget;
  issue: Issue;
  guide: Guide;
  /** The question's label, the guide author's HTML made safe. */
  question: string;
  /** The person's answer as saved. */
  text: string;
  /** The interview page to go back to. */
  interviewHref: string;
}

/** The label of the question on `variable` that offers "Rephrase with AI" in this issue, or null. */
function rephrasableLabel(guide: Guide, offered: string[], variable: string): string | null {
  for (const page of Object.values(guide.pages)) {
    const field = page.fields.find((f) => f.name.toLowerCase() === variable && offersRephrase(offered, f));
    if (field) return field.label;
  }
  return null;
}

/**
 * The person's own Draft interview with a rephrasable long-text answer at the target, or null (someone else's
 * interview, a Completed one, a variable the issue does not offer, or one the guide has no such question for).
 */
export async function openRephrase(user: SessionUser, target: RephraseTarget): Promise<OpenRephrase | null> {
  const interview = await loadInterview(user.id, target.interviewId);
  if (!interview || interview.status !== "Draft") return null;
  const issue = await getIssue(interview.issueId);
  if (!issue?.guideId || !issue.rephraseVariables.includes(target.variable)) return null;
  // The guide version the interview runs (the one it started on).
  const pin = await interviewGuidePin(interview.guide, issue.guideId);
  const guide = pin ? await getGuideVersion(pin) : null;
  const label = guide ? rephrasableLabel(guide, issue.rephraseVariables, target.variable) : null;
  if (!guide || label === null) return null;
  const saved = getRaw(interview.state.answers, target.variable, target.index);
  return {
    target,
    issue,
    guide,
    question: sanitizeHtml(renderMacros(label, interview.state.answers, today(), issue.country.dates)),
    text: typeof saved === "string" ? saved : saved === null ? "" : String(saved),
    interviewHref: `/issues/${issue.id}/interviews/${interview.id}`,
  };
}

/** Asks the AI for a clearer version of the text, within the person's and the address's limits. Never throws. */
export async function askForRephrasing(
  user: SessionUser,
  address: string,
  open: OpenRephrase,
  text: string,
): Promise<RephraseResult | { ok: false; reason: "limited"; message: string }> {
  const refused = await refuseCostlyUse("ai-rephrase", user.id, address);
  if (refused) return { ok: false, reason: "limited", message: refused.message };
  const result = await rephraseText(text, open.issue);
  if (result.call) await recordAiCall({ ...result.call, purpose: "rephrase", issueId: open.issue.id });
  return result;
}

/** Saves the chosen text into the interview, through the variables merge, at the target's loop answer. */
export async function saveRephrasedAnswer(user: SessionUser, open: OpenRephrase, text: string): Promise<boolean> {
  return mergeInterviewVariables(user.id, open.target.interviewId, { [open.target.variable]: text }, open.guide, undefined, open.target.index);
}
