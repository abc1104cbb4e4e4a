// "Use a document I have": a person's letter or form, read for the questions of the interview page they are on. The
// file is checked like an upload and its text extracted (app/sources/extract.server.ts), and it is not kept; the model's proposals are checked (app/ai/document-answers.ts)
// and nothing is saved until the person accepts a proposal.
import { answerIndex, currentEntry, type Guide, type Page, plainText, renderMacros, validatePage } from "~/a2j";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import type { SessionUser } from "~/auth/session.server";
import { getIssue, type Issue } from "~/content/content.server";
import { getGuideVersion, interviewGuidePin } from "~/guides/guides.server";
import { detectDocumentType, MAX_ATTACHMENT_BYTES } from "~/interviews/attachments.server";
import { loadInterview, mergeInterviewVariables, today } from "~/interviews/interviews.server";
import { extractDocumentText, type ExtractionFailure, extractionMessages } from "~/sources/extract.server";
import { messageRef } from "~/i18n/translator";
import { config } from "~/config.server";
import { recordAiCall } from "./call-log.server";
import { type AiSettings, chatCompletion } from "./chat.server";
import { checkProposals, documentMessages, type Proposal, type ProposableField, proposableFields } from "./document-answers";
import { redactPersonalData, restorePersonalData } from "./redact";
import { logger } from "~/observability/log.server";

const log = logger("ai");

const MAX_TOKENS = 1500;

/** References (ai.document.*), put into words by the page. */
export const documentMessagesForPeople = {
  noFile: messageRef("ai.document.noFile"),
  tooLarge: messageRef("ai.document.tooLarge"),
  wrongType: messageRef("ai.document.wrongType"),
  oldWord: messageRef("ai.document.oldWord"),
  unavailable: messageRef("ai.document.unavailable"),
  failed: messageRef("ai.document.failed"),
  timeout: messageRef("ai.document.timeout"),
  malformed: messageRef("ai.document.malformed"),
  none: messageRef("ai.document.none"),
  notOnPage: messageRef("ai.document.notOnPage"),
  cannotSave: messageRef("ai.document.cannotSave"),
  interviewNotFound: messageRef("ai.document.interviewNotFound"),
};

/** Why a letter could not be read, in the person's language where it is one of extraction's own messages. */
const extractionRefs: Partial<Record<ExtractionFailure, string>> = {
  "no-text": messageRef("ai.document.extract.noText"),
  unreadable: messageRef("ai.document.extract.unreadable"),
  protected: messageRef("ai.document.extract.protected"),
  "too-complex": messageRef("ai.document.extract.tooComplex"),
};

function extractionMessage(failure: { reason: ExtractionFailure; message: string }): string {
  const ref = extractionRefs[failure.reason];
  return ref && failure.message === extractionMessages[failure.reason] ? ref : failure.message;
}

export interface OpenDocumentPage {
  interviewId: string;
  issue: Issue;
  guide: Guide;
  page: Page;
  /** The page's questions the document may answer. */
  fields: ProposableField[];
  /** The loop entry the page's answers go to. */
  index: number;
  /** The page's text, plain. */
  pageText: string;
  interviewHref: string;
}

/** The person's own Draft interview and the page it is on (whose questions a document may answer: maybe none); else null. */
export async function openDocumentPage(user: SessionUser, interviewId: string): Promise<OpenDocumentPage | null> {
  if (!/^[0-9a-f-]{36}$/.test(interviewId)) return null;
  const interview = await loadInterview(user.id, interviewId);
  if (!interview || interview.status !== "Draft") return null;
  const issue = await getIssue(interview.issueId);
  // The guide version the interview runs (the one it started on).
  const pin = issue ? await interviewGuidePin(interview.guide, issue.guideId) : null;
  const guide = pin ? await getGuideVersion(pin) : null;
  const entry = currentEntry(interview.state);
  const page = entry ? guide?.pages[entry.interviewPage] : undefined;
  if (!issue || !guide || !page) return null;
  const answers = interview.state.answers;
  const render = (html: string) => plainText(renderMacros(html, answers, today(), issue.country.dates));
  const fields = proposableFields(page, (field) => render(field.label));
  return {
    interviewId,
    issue,
    guide,
    page,
    fields,
    index: answerIndex(entry),
    pageText: render(page.text),
    interviewHref: `/issues/${issue.id}/interviews/${interviewId}`,
  };
}

export type ProposalsResult =
  | { ok: true; proposals: Proposal[] }
  | { ok: false; field: "file" | null; message: string; status: number };

/**
 * Reads a document and asks the model for answers to the page's questions, within the person's limits. The
 * document's text is redacted before it leaves (the person's name too) and restored in the proposals. Never throws.
 */
export async function proposeFromDocument(
  user: SessionUser,
  address: string,
  open: OpenDocumentPage,
  file: File | null,
  settings: AiSettings = config(),
): Promise<ProposalsResult> {
  const refuse = (message: string, status = 400, field: "file" | null = "file"): ProposalsResult => ({ ok: false, field, message, status });
  if (!settings.AI_BASE_URL) return refuse(documentMessagesForPeople.unavailable, 200, null);
  if (!file || file.size === 0) return refuse(documentMessagesForPeople.noFile);
  if (file.size > MAX_ATTACHMENT_BYTES) return refuse(documentMessagesForPeople.tooLarge, 413);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = detectDocumentType(bytes);
  if (kind?.ext === "doc") return refuse(documentMessagesForPeople.oldWord);
  if (!kind) return refuse(documentMessagesForPeople.wrongType);
  const refused = await refuseCostlyUse("ai-document", user.id, address);
  if (refused) return refuse(refused.message, 429, null);
  // Read whole first, as every upload is (decision 0025), then its text, both in a time-limited worker.
  const extracted = await extractDocumentText(bytes, kind.contentType);
  if (!extracted.ok) return refuse(extractionMessage(extracted));

  const names = [user.firstName, user.lastName];
  const redaction = settings.AI_REDACT_PERSONAL_DATA ? redactPersonalData(extracted.text, names) : { text: extracted.text, replaced: new Map<string, string>() };
  const sent = documentMessages(redaction.text, open.pageText, open.fields, settings.AI_REDACT_PERSONAL_DATA);
  const result = await chatCompletion({ purpose: "document", messages: sent, model: open.issue.modelAI, maxTokens: MAX_TOKENS, temperature: 0 }, settings);
  const record = { purpose: "document" as const, issueId: open.issue.id, model: result.model };
  if (!result.ok) {
    log.warn(`document: ${result.reason}: ${result.detail}`);
    await recordAiCall({ ...record, promptTokens: 0, completionTokens: 0, outcome: result.reason, transcript: { sent, answer: "" } });
    return refuse(documentMessagesForPeople[result.reason], 200, null);
  }
  const proposals = checkProposals(result.content, open.fields, extracted.text, (text) => restorePersonalData(text, redaction.replaced));
  await recordAiCall({
    ...record,
    promptTokens: result.promptTokens,
    completionTokens: result.completionTokens,
    outcome: proposals.ok ? `proposed ${proposals.proposals.length}${proposals.dropped ? `, ${proposals.dropped} dropped` : ""}` : proposals.reason,
    transcript: { sent, answer: result.content },
  });
  if (!proposals.ok) return refuse(documentMessagesForPeople[proposals.reason], 200, null);
  return { ok: true, proposals: proposals.proposals };
}

/**
 * Saves one answer the person accepted (as proposed or as they edited it) into the interview, checked as the
 * interview page checks it. Returns the page's message when it does not fit.
 */
export async function acceptProposal(user: SessionUser, open: OpenDocumentPage, name: string, value: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const field = open.fields.find((f) => f.name === name);
  if (!field) return { ok: false, message: documentMessagesForPeople.notOnPage };
  // The page's own check, on the question's fields alone (a radio group is several fields).
  const own = open.page.fields.filter((f) => f.name.trim().toLowerCase() === name);
  const posted = field.kind === "yes-no" ? (value === "true" ? "on" : "") : value;
  const checked = validatePage({ ...open.page, fields: own }, { [name]: posted }, today(), open.issue.country.dates);
  const error = checked.errors[0];
  if (error) return { ok: false, message: error.message };
  const assignment = checked.assignments.find((a) => a.name.trim().toLowerCase() === name);
  if (!assignment) return { ok: false, message: documentMessagesForPeople.cannotSave };
  const saved = await mergeInterviewVariables(user.id, open.interviewId, { [field.variable]: assignment.value }, open.guide, undefined, open.index);
  return saved ? { ok: true } : { ok: false, message: documentMessagesForPeople.interviewNotFound };
}
