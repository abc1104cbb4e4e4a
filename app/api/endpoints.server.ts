// The table of the API's endpoints (docs/decisions/0056-the-api.md). Each names its scope and schemas; the
// dispatcher serves exactly these, the OpenAPI document describes exactly these, and the authorisation tests are
// generated from them. Handlers are thin: the capabilities below (help, interviews, documents, reuse) do the work,
// with the token acting for its administrator and named as the token where people see who did something.
import { answersFromJSON, answersToJSON, type Answers, type AnswerProblem, checkAnswers, type FittingAnswer, type Guide } from "~/a2j";
import type { HelperLimits } from "~/administration/roles.server";
import { recordAuditEvent } from "~/audit/audit.server";
import { countAttempt, limits, refuseCostlyUse } from "~/auth/rate-limit.server";
import { downloadResponse, interviewDocument } from "~/documents/documents.server";
import { getGuide } from "~/guides/guides.server";
import { findPrepared, type PreparedInterview, prepareInterview, sendInvitation } from "~/help/prepared.server";
import {
  type HelperName,
  liveRequestsPage,
  openRequest,
  type OpenRequest,
  recordView,
  replyPages,
  replyToRequest,
  requestReplies,
  sharedFiles,
} from "~/help/shares.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { interviewAnswersAnx, loadInterview } from "~/interviews/interviews.server";
import { readAnswerText } from "~/reuse/answer-file.server";
import { openViewer } from "~/viewer/viewer.server";
import {
  changeEndpoint,
  deleteEndpoint,
  endpointDeliveries,
  findEndpoint,
  listEndpoints,
  registerEndpoint,
  rotateSecret,
  sendAgain,
  setEndpointEnabled,
  type WebhookEndpoint,
} from "~/webhooks/endpoints.server";
import { z } from "zod";
import { type ApiCall, ApiProblem, endpoint, type Endpoint, type FieldProblem, notFoundProblem } from "./endpoint.server";
import { API_HEADERS } from "./problem.server";
import { decodeCursor, guidesPage, isIdCursor, isNameCursor, isShareCursor, issuesPage, nextCursor, readGuideSummary, readIssue } from "./reading.server";
import * as s from "./schemas";
import { type TokenHolder, tokenActor } from "./tokens.server";

/** A token's administrator sees every country and issue. */
const EVERYWHERE: HelperLimits = { everywhere: true, countryIds: [], issueIds: [] };

/** Who the token is where people see who did something ("Prepared with", "Who has seen it", replies): its name. */
function tokenAsHelper(holder: TokenHolder): HelperName {
  return { id: holder.administrator.id, firstName: holder.name, lastName: "", email: holder.administrator.email };
}

// ——— Prepared interviews ———

function answerProblemText(problem: AnswerProblem): string {
  if (problem.kind === "unknown") return `The guide has no variable "${problem.name}".`;
  if (problem.kind === "type") return `"${problem.value}" is not a value of type ${problem.expected}.`;
  return `"${problem.value}" is not one of the choices.`;
}

/** The answers a prepared interview starts with, checked against its guide: every problem is listed (422), none taken silently. */
export function prefilledAnswers(guide: Guide, body: Pick<s.PrepareBody, "answers" | "answerFile">): FittingAnswer[] {
  const chosen = new Map<string, FittingAnswer>();
  const problems: FieldProblem[] = [];
  if (body.answerFile !== undefined) {
    const read = readAnswerText(body.answerFile, guide);
    if (read.ok) for (const answer of read.fitting) chosen.set(answer.key, answer);
    else if ("problems" in read) problems.push(...read.problems.map((problem) => ({ pointer: "/answerFile", detail: answerProblemText(problem) })));
    else problems.push({ pointer: "/answerFile", detail: read.refusal === "empty" ? "The answer file has no answer this guide asks for." : "The answer file is not an ANX file or A2J's JSON answers." });
  }
  if (body.answers) {
    const given = Object.fromEntries(
      Object.entries(body.answers).map(([name, value]) => [name, { name, values: [null, ...(Array.isArray(value) ? value : [value])] }]),
    );
    const read = answersFromJSON(given);
    const { fitting, problems: found } = read.ok ? checkAnswers(guide, read.value as Answers) : { fitting: [], problems: [] };
    for (const problem of found) problems.push({ pointer: `/answers/${problem.name.replace(/~/g, "~0").replace(/\//g, "~1")}`, detail: answerProblemText(problem) });
    for (const answer of fitting) chosen.set(answer.key, answer);
  }
  if (problems.length) throw new ApiProblem(422, "Unprocessable Content", "Some answers do not fit the guide.", problems);
  return [...chosen.values()];
}

function preparedJson(prepared: PreparedInterview, base: string) {
  return {
    interviewId: prepared.interviewId,
    issueId: prepared.issueId,
    person: prepared.person,
    state: prepared.state,
    invitedAt: prepared.invitedAt,
    expiresAt: prepared.expiresAt,
    claimedAt: prepared.claimedAt,
    createdAt: prepared.createdAt,
    links: { self: `${base}/prepared-interviews/${prepared.interviewId}` },
  };
}

async function prepare({ body, holder, address, base }: ApiCall<unknown, unknown, s.PrepareBody>) {
  await countAttempt([[`api-invitations:token:${holder.id}`, limits.apiInvitationsPerToken]]);
  const noIssue = () => new ApiProblem(422, "Unprocessable Content", "Some fields are not right.", [{ pointer: "/issueId", detail: "There is no issue with this id, or it has no interview." }]);
  const opened = await openViewer({ id: holder.administrator.id, administrator: false }, { preview: false, issueId: body.issueId, interviewId: null }, null);
  if (!opened?.issue) throw noIssue();
  const answers = prefilledAnswers(opened.guide, body);
  const actor = tokenActor(holder, address);
  const helper = tokenAsHelper(holder);
  const prepared = await prepareInterview(helper, EVERYWHERE, body.issueId, body.person, actor, undefined, undefined, answers);
  if (!prepared) throw noIssue();
  await sendInvitation(helper, prepared.interviewId, actor);
  const found = await findPrepared(holder.administrator.id, prepared.interviewId);
  if (!found) throw notFoundProblem();
  const json = preparedJson(found, base);
  return { status: 201, json, headers: { Location: json.links.self } };
}

// ——— Shared interviews (the help requests) ———

/** A live share, for the token's administrator: the same 404 for one that ended, expired or never was. */
async function liveShare(shareId: string): Promise<OpenRequest> {
  const found = await openRequest("", EVERYWHERE, shareId);
  if (!found) throw notFoundProblem();
  return found;
}

function shareLinks(share: { id: string; answers: boolean; documents: boolean; files?: boolean }, base: string): Record<string, string> {
  const self = `${base}/shared-interviews/${share.id}`;
  return {
    self,
    helpRequest: `${base}/help-requests/${share.id}`,
    replies: `${base}/help-requests/${share.id}/replies`,
    ...(share.answers ? { answers: `${self}/answers`, answersAnx: `${self}/answers/anx` } : {}),
    ...(share.documents ? { document: `${self}/document` } : {}),
    ...("files" in share && share.files ? { files: `${self}/files` } : {}),
  };
}

/** What the API says of a share: the interview shared, and the help request it is. */
function shareJson(
  share: {
    id: string;
    interviewId: string;
    issueId: number;
    issueName: string;
    countryId: number;
    countryName: string;
    language: string;
    status: "new" | "taken" | "closed";
    takenByName: string | null;
    interviewStatus: "Draft" | "Completed";
    answers: boolean;
    documents: boolean;
    files: boolean;
    createdAt: string;
    expiresAt: string;
  },
  base: string,
) {
  return {
    id: share.id,
    interviewId: share.interviewId,
    issue: { id: share.issueId, name: share.issueName },
    country: { id: share.countryId, name: share.countryName },
    language: share.language,
    status: share.status,
    takenBy: share.takenByName,
    interviewStatus: share.interviewStatus,
    shared: { answers: share.answers, documents: share.documents, files: share.files },
    createdAt: share.createdAt,
    sharedUntil: share.expiresAt,
    links: shareLinks(share, base),
  };
}

async function sharesPage(query: z.output<typeof s.sharesQuery>, base: string) {
  const after = decodeCursor(query.cursor, isShareCursor);
  const rows = await liveRequestsPage({ limit: query.limit, after, status: query.status ?? null });
  return { items: rows.map((row) => shareJson(row, base)), nextCursor: nextCursor(rows, query.limit, (last) => ({ createdAt: last.createdAt, id: last.id })) };
}

async function sharedAnswersRead(found: OpenRequest, holder: TokenHolder, address: string) {
  await recordView(found, tokenAsHelper(holder), "answers");
  await recordAuditEvent(tokenActor(holder, address), { action: "help.answers-read", subject: `request ${found.id}`, details: { issue: found.issueName } });
}

async function repliesJson(found: OpenRequest) {
  const [items, pages] = await Promise.all([requestReplies(found), found.answers ? replyPages(found) : Promise.resolve([])]);
  return {
    items: items.map((reply) => ({ id: reply.id, from: reply.helperName, body: reply.body, about: reply.about, createdAt: reply.createdAt, readByPerson: reply.read })),
    pages,
  };
}

// ——— Webhooks ———

function webhookJson(endpoint: WebhookEndpoint, base: string) {
  const self = `${base}/webhooks/${endpoint.id}`;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
    previousSecretUntil: endpoint.previousSecretUntil,
    links: { self, deliveries: `${self}/deliveries` },
  };
}

async function existingWebhook(id: string): Promise<WebhookEndpoint> {
  const found = await findEndpoint(id);
  if (!found) throw notFoundProblem();
  return found;
}

const refusedWebhook = (refusal: { field: string; message: string }) =>
  new ApiProblem(422, "Unprocessable Content", "Some fields are not right.", [{ pointer: `/${refusal.field}`, detail: refusal.message }]);

function payloadOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const endpoints: readonly Endpoint[] = [
  endpoint({
    operationId: "listIssues",
    method: "GET",
    path: "/issues",
    scope: "issues:read",
    tag: "Issues and guides",
    summary: "List the issues",
    query: s.pageQuery,
    responses: { 200: { description: "One page of the published issues, by id.", schema: s.page(s.issueSummary) } },
    async handle({ query, base }) {
      const after = decodeCursor(query.cursor, isIdCursor);
      const items = await issuesPage({ limit: query.limit, afterId: after?.id ?? null }, base);
      return { json: { items, nextCursor: nextCursor(items, query.limit, (last) => ({ id: last.id })) } };
    },
  }),
  endpoint({
    operationId: "getIssue",
    method: "GET",
    path: "/issues/{issueId}",
    scope: "issues:read",
    tag: "Issues and guides",
    summary: "Read an issue",
    params: s.issueParams,
    responses: { 200: { description: "The issue, with its page.", schema: s.issue } },
    async handle({ params, base }) {
      const found = await readIssue(params.issueId, base);
      if (!found) throw notFoundProblem();
      return { json: found };
    },
  }),
  endpoint({
    operationId: "listGuides",
    method: "GET",
    path: "/guides",
    scope: "issues:read",
    tag: "Issues and guides",
    summary: "List the guides",
    query: s.pageQuery,
    responses: { 200: { description: "One page of the guides, by id.", schema: s.page(s.guideSummary) } },
    async handle({ query, base }) {
      const after = decodeCursor(query.cursor, isNameCursor);
      const items = await guidesPage({ limit: query.limit, afterId: after?.id ?? null }, base);
      return { json: { items, nextCursor: nextCursor(items, query.limit, (last) => ({ id: last.id })) } };
    },
  }),
  endpoint({
    operationId: "getGuide",
    method: "GET",
    path: "/guides/{guideId}",
    scope: "issues:read",
    tag: "Issues and guides",
    summary: "Read a guide and its variables",
    params: s.guideParams,
    responses: { 200: { description: "The guide, the issues that use it, and its published version's variables.", schema: s.guide } },
    async handle({ params, base }) {
      const [found, guide] = await Promise.all([readGuideSummary(params.guideId, base), getGuide(params.guideId)]);
      if (!found) throw notFoundProblem();
      const variables = Object.values(guide?.vars ?? {}).map((v) => ({ name: v.name, type: v.type, repeating: v.repeating, comment: v.comment }));
      return { json: { ...found, variables } };
    },
  }),
  endpoint({
    operationId: "prepareInterview",
    method: "POST",
    path: "/prepared-interviews",
    scope: "prepared:write",
    tag: "Prepared interviews",
    summary: "Prepare an interview for someone and invite them",
    description:
      "Starts an interview of the issue's published guide, with the answers given filled in, and emails the person the invitation (a link that works once, for 7 days). Once they claim it with an account of that address, the interview is theirs; the API sees it again only if they share it. The person sees the token's name as who prepared it. At most 100 invitations an hour per token.",
    body: s.prepareBody,
    responses: { 201: { description: "Prepared, and the invitation sent.", schema: s.preparedInterview } },
    handle: (call) => prepare(call as ApiCall<unknown, unknown, s.PrepareBody>),
  }),
  endpoint({
    operationId: "getPreparedInterview",
    method: "GET",
    path: "/prepared-interviews/{interviewId}",
    scope: "prepared:write",
    tag: "Prepared interviews",
    summary: "Read a prepared interview's state",
    params: s.interviewParams,
    responses: { 200: { description: "Whether the invitation is waiting, has expired, or was claimed.", schema: s.preparedInterview } },
    async handle({ params, holder, base }) {
      const found = await findPrepared(holder.administrator.id, params.interviewId);
      if (!found) throw notFoundProblem();
      return { json: preparedJson(found, base) };
    },
  }),
  endpoint({
    operationId: "listSharedInterviews",
    method: "GET",
    path: "/shared-interviews",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "List the interviews shared with the organisation",
    description: "Every interview a person shares with the organisation (a help request), newest first, while it is shared: one the person stopped sharing, or whose time is up, is no longer listed.",
    query: s.sharesQuery,
    responses: { 200: { description: "One page of the live shares.", schema: s.page(s.sharedInterviewSummary) } },
    async handle({ query, base }) {
      return { json: await sharesPage(query, base) };
    },
  }),
  endpoint({
    operationId: "getSharedInterview",
    method: "GET",
    path: "/shared-interviews/{shareId}",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "Read a shared interview",
    params: s.shareParams,
    responses: { 200: { description: "What is shared, the interview's state, and where to read it.", schema: s.sharedInterviewSummary } },
    async handle({ params, base }) {
      return { json: shareJson(await liveShare(params.shareId), base) };
    },
  }),
  endpoint({
    operationId: "getSharedAnswers",
    method: "GET",
    path: "/shared-interviews/{shareId}/answers",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "Read the shared answers as JSON",
    description: "A2J's JSON answers, only when the person shares the answers. Recorded in the audit and shown to the person.",
    params: s.shareParams,
    responses: { 200: { description: "The answers, as they are now.", schema: s.sharedAnswers } },
    async handle({ params, holder, address }) {
      const found = await liveShare(params.shareId);
      if (!found.answers) throw notFoundProblem();
      const interview = await loadInterview(found.ownerId, found.interviewId);
      if (!interview) throw notFoundProblem();
      await sharedAnswersRead(found, holder, address);
      return { json: { interviewStatus: interview.status, language: interview.language, answers: answersToJSON(interview.state.answers) } };
    },
  }),
  endpoint({
    operationId: "getSharedAnswersAnx",
    method: "GET",
    path: "/shared-interviews/{shareId}/answers/anx",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "Read the shared answers as an ANX file",
    description: "The answers as an A2J/HotDocs ANX answer file (XML), only when the person shares the answers.",
    params: s.shareParams,
    responses: { 200: { description: "The ANX answer file.", contentType: "application/xml" } },
    async handle({ params, holder, address }) {
      const found = await liveShare(params.shareId);
      if (!found.answers) throw notFoundProblem();
      const anx = await interviewAnswersAnx(found.ownerId, found.interviewId);
      if (anx === null) throw notFoundProblem();
      await sharedAnswersRead(found, holder, address);
      return new Response(anx, { headers: { "Content-Type": "application/xml; charset=utf-8", ...API_HEADERS } });
    },
  }),
  endpoint({
    operationId: "getSharedDocument",
    method: "GET",
    path: "/shared-interviews/{shareId}/document",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "Download the shared document",
    description:
      "The document the interview makes (PDF, Word, or a zip of several), only when the person shares the document and has completed the interview. Limited as a person's own downloads are (30 per 15 minutes for the token's administrator).",
    params: s.shareParams,
    responses: {
      200: { description: "The document; its file name is in Content-Disposition.", contentType: "application/octet-stream" },
      409: { description: "The interview is not completed yet: there is no document to make.", schema: s.problem },
    },
    async handle({ params, holder, address }) {
      const found = await liveShare(params.shareId);
      if (!found.documents) throw notFoundProblem();
      if (found.interviewStatus !== "Completed") throw new ApiProblem(409, "Conflict", "The interview is not completed yet: its document is made once the person finishes it.");
      const refused = await refuseCostlyUse("documents", holder.administrator.id, address);
      if (refused) throw new ApiProblem(429, "Too Many Requests", refused.message, undefined, { "Retry-After": String(refused.retryAfterMinutes * 60) });
      const document = await interviewDocument(found.ownerId, found.interviewId);
      if (document.kind === "not-found") throw notFoundProblem();
      if (document.kind === "unavailable") throw new ApiProblem(503, "Service Unavailable", document.message);
      await recordView(found, tokenAsHelper(holder), "document");
      await recordAuditEvent(tokenActor(holder, address), { action: "help.document-downloaded", subject: `request ${found.id}`, details: { issue: found.issueName } });
      return downloadResponse(document, API_HEADERS);
    },
  }),
  endpoint({
    operationId: "listSharedFiles",
    method: "GET",
    path: "/shared-interviews/{shareId}/files",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "List the shared files",
    description: "The files the person uploaded to the interview, only when they share their files.",
    params: s.shareParams,
    responses: { 200: { description: "The files, oldest first.", schema: z.object({ items: z.array(s.sharedFile) }) } },
    async handle({ params, base }) {
      const found = await liveShare(params.shareId);
      if (!found.files) throw notFoundProblem();
      const items = (await sharedFiles(found)).map((file) => ({
        id: file.id,
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.size,
        links: { self: `${base}/shared-interviews/${found.id}/files/${file.id}` },
      }));
      return { json: { items } };
    },
  }),
  endpoint({
    operationId: "getSharedFile",
    method: "GET",
    path: "/shared-interviews/{shareId}/files/{fileId}",
    scope: "shared:read",
    tag: "Shared interviews",
    summary: "Download a shared file",
    description: "Limited as the help desk's downloads are (60 per 15 minutes for the token's administrator); recorded in the audit and shown to the person.",
    params: s.fileParams,
    responses: { 200: { description: "The file; its name is in Content-Disposition.", contentType: "application/octet-stream" } },
    async handle({ params, holder, address }) {
      const found = await liveShare(params.shareId);
      if (!found.files) throw notFoundProblem();
      const file = (await sharedFiles(found)).find((candidate) => candidate.id === params.fileId);
      if (!file) throw notFoundProblem();
      const refused = await refuseCostlyUse("help-files", holder.administrator.id, address);
      if (refused) throw new ApiProblem(429, "Too Many Requests", refused.message, undefined, { "Retry-After": String(refused.retryAfterMinutes * 60) });
      const bytes = await attachmentStorage().get(file.storageKey);
      if (!bytes) throw notFoundProblem();
      await recordView(found, tokenAsHelper(holder), "file", file.id);
      await recordAuditEvent(tokenActor(holder, address), { action: "help.file-downloaded", subject: `request ${found.id}`, details: { issue: found.issueName, file: file.id } });
      return downloadResponse({ bytes, contentType: file.contentType, fileName: file.fileName }, API_HEADERS);
    },
  }),
  endpoint({
    operationId: "listHelpRequests",
    method: "GET",
    path: "/help-requests",
    scope: "shared:read",
    tag: "Help requests",
    summary: "List the help requests",
    description: "Each share is a request for help on the help desk (the same id as the shared interview's): newest first, while it is shared.",
    query: s.sharesQuery,
    responses: { 200: { description: "One page of the live requests.", schema: s.page(s.sharedInterviewSummary) } },
    async handle({ query, base }) {
      return { json: await sharesPage(query, base) };
    },
  }),
  endpoint({
    operationId: "getHelpRequest",
    method: "GET",
    path: "/help-requests/{shareId}",
    scope: "shared:read",
    tag: "Help requests",
    summary: "Read a help request and its message",
    description: "The person sees, under \"Who has seen it\", that the token opened their request and message.",
    params: s.shareParams,
    responses: { 200: { description: "The request: its state on the help desk, the person's message.", schema: s.helpRequest } },
    async handle({ params, holder, base }) {
      const found = await liveShare(params.shareId);
      await recordView(found, tokenAsHelper(holder), "request");
      return { json: { ...shareJson(found, base), message: found.message } };
    },
  }),
  endpoint({
    operationId: "listReplies",
    method: "GET",
    path: "/help-requests/{shareId}/replies",
    scope: "shared:read",
    tag: "Help requests",
    summary: "List the replies to a help request",
    params: s.shareParams,
    responses: { 200: { description: "The replies, newest first, and the pages a reply can be about.", schema: s.replies } },
    async handle({ params }) {
      return { json: await repliesJson(await liveShare(params.shareId)) };
    },
  }),
  endpoint({
    operationId: "reply",
    method: "POST",
    path: "/help-requests/{shareId}/replies",
    scope: "replies:write",
    tag: "Help requests",
    summary: "Reply to a help request",
    description:
      "As a helper replies: about the whole interview or one page of it. The reply is kept sealed; the person is emailed only that there is a reply. Not once the request is closed on the help desk.",
    params: s.shareParams,
    body: s.replyBody,
    responses: {
      201: { description: "Sent; the replies as they are now.", schema: s.replies },
      409: { description: "The request is closed on the help desk.", schema: s.problem },
    },
    async handle(call) {
      const { params, body, holder, address } = call as ApiCall<{ shareId: string }, unknown, { body: string; aboutPage?: string }>;
      const found = await liveShare(params.shareId);
      if (found.status === "closed") throw new ApiProblem(409, "Conflict", "This request is closed on the help desk.");
      let about: { page: string; label: string } | null = null;
      if (body.aboutPage !== undefined) {
        const pages = found.answers ? await replyPages(found) : [];
        about = pages.find((page) => page.page === body.aboutPage) ?? null;
        if (!about) throw new ApiProblem(422, "Unprocessable Content", "Some fields are not right.", [{ pointer: "/aboutPage", detail: "This is not one of the pages a reply can be about." }]);
      }
      await replyToRequest(found, tokenAsHelper(holder), { body: body.body, about }, tokenActor(holder, address));
      return { status: 201, json: await repliesJson(found) };
    },
  }),
  endpoint({
    operationId: "listWebhooks",
    method: "GET",
    path: "/webhooks",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "List the webhook endpoints",
    responses: { 200: { description: "Every endpoint (there are few: one page).", schema: s.page(s.webhook) } },
    async handle({ base }) {
      const items = (await listEndpoints()).map((endpoint) => webhookJson(endpoint, base));
      return { json: { items, nextCursor: null } };
    },
  }),
  endpoint({
    operationId: "registerWebhook",
    method: "POST",
    path: "/webhooks",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "Register a webhook endpoint",
    description:
      "Events are delivered to the address as Standard Webhooks: signed (HMAC-SHA256 over the id, the timestamp and the body) with the secret returned here, this once; retried with backoff for 24 hours. Payloads carry ids and links, no personal data: fetch what you need with a token.",
    body: s.webhookBody,
    responses: { 201: { description: "Registered; the secret is shown this once.", schema: s.webhookWithSecret } },
    async handle(call) {
      const { body, holder, address, base } = call as ApiCall<unknown, unknown, z.output<typeof s.webhookBody>>;
      const actor = tokenActor(holder, address);
      const made = await registerEndpoint({ url: body.url, description: body.description, events: body.events }, actor);
      if (!made.ok) throw refusedWebhook(made);
      let endpoint = made.endpoint;
      if (body.enabled === false && (await setEndpointEnabled(endpoint.id, false, actor))) endpoint = await existingWebhook(endpoint.id);
      const json = { ...webhookJson(endpoint, base), secret: made.secret };
      return { status: 201, json, headers: { Location: json.links.self } };
    },
  }),
  endpoint({
    operationId: "getWebhook",
    method: "GET",
    path: "/webhooks/{webhookId}",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "Read a webhook endpoint",
    params: s.webhookParams,
    responses: { 200: { description: "The endpoint.", schema: s.webhook } },
    async handle({ params, base }) {
      return { json: webhookJson(await existingWebhook(params.webhookId), base) };
    },
  }),
  endpoint({
    operationId: "changeWebhook",
    method: "POST",
    path: "/webhooks/{webhookId}",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "Change a webhook endpoint",
    description: "Replaces its address, description and events; `enabled` turns it off or on.",
    params: s.webhookParams,
    body: s.webhookBody,
    responses: { 200: { description: "Changed.", schema: s.webhook } },
    async handle(call) {
      const { params, body, holder, address, base } = call as ApiCall<{ webhookId: string }, unknown, z.output<typeof s.webhookBody>>;
      const actor = tokenActor(holder, address);
      const changed = await changeEndpoint(params.webhookId, { url: body.url, description: body.description, events: body.events }, actor);
      if (!changed) throw notFoundProblem();
      if (!changed.ok) throw refusedWebhook(changed);
      const now = await existingWebhook(params.webhookId);
      if (body.enabled !== undefined && body.enabled !== now.enabled) await setEndpointEnabled(params.webhookId, body.enabled, actor);
      return { json: webhookJson(await existingWebhook(params.webhookId), base) };
    },
  }),
  endpoint({
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/webhooks/{webhookId}",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "Remove a webhook endpoint",
    description: "With its deliveries and their log.",
    params: s.webhookParams,
    responses: { 204: { description: "Removed." } },
    async handle({ params, holder, address }) {
      if (!(await deleteEndpoint(params.webhookId, tokenActor(holder, address)))) throw notFoundProblem();
      return new Response(null, { status: 204, headers: API_HEADERS });
    },
  }),
  endpoint({
    operationId: "rotateWebhookSecret",
    method: "POST",
    path: "/webhooks/{webhookId}/rotate-secret",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "Make a new signing secret",
    description: "The new secret signs from now on; the old one signs beside it for a day (both signatures are sent), so the receiver can switch without losing an event.",
    params: s.webhookParams,
    responses: { 200: { description: "The new secret, shown this once.", schema: s.webhookSecret } },
    async handle({ params, holder, address }) {
      const secret = await rotateSecret(params.webhookId, tokenActor(holder, address));
      if (secret === null) throw notFoundProblem();
      return { json: { secret, previousSecretUntil: (await existingWebhook(params.webhookId)).previousSecretUntil } };
    },
  }),
  endpoint({
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/webhooks/{webhookId}/deliveries",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "List an endpoint's latest deliveries",
    description: "The latest 50, newest first, each with its latest attempts and the answers they got.",
    params: s.webhookParams,
    responses: { 200: { description: "The deliveries.", schema: s.page(s.delivery) } },
    async handle({ params }) {
      await existingWebhook(params.webhookId);
      const items = (await endpointDeliveries(params.webhookId)).map((delivery) => ({ ...delivery, payload: payloadOf(delivery.payload) }));
      return { json: { items, nextCursor: null } };
    },
  }),
  endpoint({
    operationId: "sendWebhookDeliveryAgain",
    method: "POST",
    path: "/webhooks/{webhookId}/deliveries/{deliveryId}/send-again",
    scope: "webhooks:manage",
    tag: "Webhooks",
    summary: "Send a delivery again",
    description: "It goes out again now with the same id (a receiver that saw it can tell), and is retried for another 24 hours if it fails.",
    params: s.deliveryParams,
    responses: { 202: { description: "Queued to go out again." } },
    async handle({ params, holder, address }) {
      if (!(await sendAgain(params.webhookId, params.deliveryId, tokenActor(holder, address)))) throw notFoundProblem();
      return new Response(null, { status: 202, headers: API_HEADERS });
    },
  }),
];
