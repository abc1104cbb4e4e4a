// Signing requests and their signers (issue 30, docs/decisions/0055-the-signing-flow.md): the person signs their
// completed interview's documents and names the others who must sign; each other signer gets an emailed link
// (single use, 14 days), reads and signs after a one-time code sent to the same email, or declines with a reason.
// When everyone has signed, the final PDF is made, sealed and kept (sealed at rest too). Names, emails, what was
// typed or drawn and reasons are sealed at rest, each bound to its row; links, codes and visits kept as hashes.
import { createHash, randomInt, randomUUID } from "node:crypto";
import type { Db } from "../../db/database";
import type { Selectable } from "kysely";
import type { SignersTable } from "../../db/schema";
import { database } from "~/db.server";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { hashToken, randomToken } from "~/auth/crypto.server";
import { getIssue } from "~/content/content.server";
import { interviewDocument } from "~/documents/documents.server";
import { getGuideVersion, interviewGuidePin } from "~/guides/guides.server";
import { loadInterview } from "~/interviews/interviews.server";
import { type DataKeyring, configuredKeyring, openText, sealText } from "~/security/data-encryption.server";
import type { SealedTextColumn } from "~/security/sealed-columns.server";
import { recordSigned } from "~/usage/usage.server";
import { queueDocumentsSigned } from "~/webhooks/queue.server";
import { signatureMarkers } from "~/documents/signatures";
import { type GivenSignature, signedDocument } from "./signed-document.server";

const DAY_MS = 86_400_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
/** How long an emailed link to sign works. */
export const LINK_DAYS = 14;
/** How long a one-time code works, and how many wrong tries it takes before it stops. */
export const CODE_MINUTES = 15;
export const CODE_TRIES = 5;
/** How long a signer who gave the code may read and sign in that browser. */
export const VISIT_MINUTES = 60;

/** The sealed columns, each value bound to its row: `cli db rotate-key` seals them again (server/database-setup.ts). */
const SIGNER_SEALED = ["name", "email", "typed_name", "drawing", "decline_reason", "address"] as const;
type SignerSealed = (typeof SIGNER_SEALED)[number];
const signerPlace = (column: SignerSealed, id: string) => `signers.${column}:${id}`;
const pdfPlace = (id: string) => `signing_requests.signed_pdf:${id}`;
export const SIGNING_COLUMNS: { counted: string; spec: SealedTextColumn }[] = [
  ...SIGNER_SEALED.map((column) => ({ counted: `signer ${column.replace("_", " ")}(s)`, spec: { table: "signers", column, key: "id", place: (id: string) => signerPlace(column, id) } })),
  { counted: "signed document(s)", spec: { table: "signing_requests", column: "signed_pdf", key: "id", place: pdfPlace } },
];

const seal = (column: SignerSealed, id: string, plain: string, keys: DataKeyring) => sealText(plain, signerPlace(column, id), keys);
const open = (column: SignerSealed, id: string, sealed: string | null, keys: DataKeyring) => (sealed === null ? null : openText(sealed, signerPlace(column, id), keys));

export type SignerStatus = SignersTable["status"];

export interface SignerView {
  id: string;
  position: number;
  role: string;
  name: string;
  email: string;
  status: SignerStatus;
  method: "typed" | "drawn" | null;
  signedAt: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  /** Others: until when their link works (null once spent). */
  linkExpiresAt: string | null;
}

export interface RequestView {
  id: string;
  status: "open" | "complete" | "replaced";
  createdAt: string;
  completedAt: string | null;
  signers: SignerView[];
}

/** What a completed interview needs signed: its guide's signature places (none: it needs no signature). */
export async function signaturePlaces(userId: string, interviewId: string, db: Db = database()) {
  const interview = await loadInterview(userId, interviewId, db);
  if (!interview || interview.status !== "Completed") return null;
  const issue = await getIssue(interview.issueId, db);
  const pin = await interviewGuidePin(interview.guide, issue?.guideId ?? null, db);
  const guide = pin ? await getGuideVersion(pin, db) : null;
  const markers = guide ? signatureMarkers(guide) : [];
  return { interview, markers, title: guide?.title || "My Document", issue };
}

function signerView(row: Selectable<SignersTable>, keys: DataKeyring): SignerView {
  return {
    id: row.id,
    position: Number(row.position),
    role: row.role,
    name: open("name", row.id, row.name, keys)!,
    email: open("email", row.id, row.email, keys)!,
    status: row.status,
    method: row.method,
    signedAt: row.signed_at,
    declinedAt: row.declined_at,
    declineReason: open("decline_reason", row.id, row.decline_reason, keys),
    linkExpiresAt: row.status === "waiting" ? row.link_expires_at : null,
  };
}

async function requestView(db: Db, request: { id: string; status: RequestView["status"]; created_at: string; completed_at: string | null }, keys: DataKeyring): Promise<RequestView> {
  const rows = await db.selectFrom("signers").selectAll().where("request_id", "=", request.id).orderBy("position").execute();
  return { id: request.id, status: request.status, createdAt: request.created_at, completedAt: request.completed_at, signers: rows.map((row) => signerView(row, keys)) };
}

/** The interview's live request (open or complete; a replaced one is history), the person's own only. */
export async function currentRequest(userId: string, interviewId: string, db: Db = database(), keys = configuredKeyring()): Promise<RequestView | null> {
  const row = await db
    .selectFrom("signing_requests")
    .select(["id", "status", "created_at", "completed_at"])
    .where("interview_id", "=", interviewId)
    .where("user_id", "=", userId)
    .where("status", "in", ["open", "complete"])
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row ? requestView(db, row, keys) : null;
}

/** For the list of interviews: how many signed, waiting, declined, per interview with a live request. */
export async function signingSummaries(userId: string, db: Db = database()): Promise<Map<string, { signed: number; waiting: number; declined: number; complete: boolean }>> {
  const rows = await db
    .selectFrom("signing_requests")
    .innerJoin("signers", "signers.request_id", "signing_requests.id")
    .select(["signing_requests.interview_id", "signing_requests.status as request", "signers.status"])
    .where("signing_requests.user_id", "=", userId)
    .where("signing_requests.status", "in", ["open", "complete"])
    .execute();
  const out = new Map<string, { signed: number; waiting: number; declined: number; complete: boolean }>();
  for (const row of rows) {
    const entry = out.get(row.interview_id) ?? { signed: 0, waiting: 0, declined: 0, complete: row.request === "complete" };
    entry[row.status === "signed" ? "signed" : row.status === "declined" ? "declined" : "waiting"] += 1;
    out.set(row.interview_id, entry);
  }
  return out;
}

export interface OwnSignature {
  typedName: string;
  /** A drawn signature, a PNG data: URL (checked by the caller's schema). */
  drawing: string | null;
  /** The other signers, one for each other signature place, in order. */
  others: { name: string; email: string }[];
}

/** An emailed link to make: whom to, and the code in it. */
export interface Invitation {
  signerId: string;
  role: string;
  name: string;
  email: string;
  code: string;
  expiresAt: string;
}

export type SignOwnResult =
  | { kind: "signed"; requestId: string; invitations: Invitation[]; complete: boolean }
  | { kind: "not-found" }
  | { kind: "already" }
  | { kind: "others"; expected: number };

/**
 * The person signs their completed interview's documents, naming one other signer for each other signature place:
 * the request is made with the person's signature in it (audited, with the address) and a link for each other
 * signer (returned, for the caller to email). With no other signer, the document is complete at once.
 */
export async function signOwn(
  user: { id: string; email: string },
  interviewId: string,
  input: OwnSignature,
  actor: Actor,
  now: Date,
  db: Db = database(),
  keys = configuredKeyring(),
): Promise<SignOwnResult> {
  const places = await signaturePlaces(user.id, interviewId, db);
  if (!places || !places.markers.length) return { kind: "not-found" };
  if (await currentRequest(user.id, interviewId, db, keys)) return { kind: "already" };
  const [own, ...otherPlaces] = places.markers;
  if (input.others.length !== otherPlaces.length) return { kind: "others", expected: otherPlaces.length };
  const at = now.toISOString();
  const requestId = randomUUID();
  const invitations: Invitation[] = [];
  await db.transaction().execute(async (trx) => {
    const user_ = await trx.selectFrom("users").select(["language"]).where("id", "=", user.id).executeTakeFirst();
    await trx
      .insertInto("signing_requests")
      .values({ id: requestId, interview_id: interviewId, user_id: user.id, status: "open", language: user_?.language ?? places.interview.language ?? "en", created_at: at, completed_at: null, signed_pdf: null, signed_sha256: null })
      .execute();
    const ownId = randomUUID();
    await trx
      .insertInto("signers")
      .values({
        ...emptySigner(ownId, requestId, 0, own!.label),
        status: "signed",
        name: seal("name", ownId, input.typedName, keys),
        email: seal("email", ownId, user.email, keys),
        method: input.drawing ? "drawn" : "typed",
        typed_name: seal("typed_name", ownId, input.typedName, keys),
        drawing: input.drawing ? seal("drawing", ownId, input.drawing, keys) : null,
        signed_at: at,
        address: seal("address", ownId, actor.address, keys),
      })
      .execute();
    for (const [index, place] of otherPlaces.entries()) {
      const other = input.others[index]!;
      const id = randomUUID();
      const code = randomToken();
      const expiresAt = new Date(now.getTime() + LINK_DAYS * DAY_MS).toISOString();
      await trx
        .insertInto("signers")
        .values({
          ...emptySigner(id, requestId, index + 1, place.label),
          name: seal("name", id, other.name, keys),
          email: seal("email", id, other.email, keys),
          link_hash: hashToken(code),
          link_expires_at: expiresAt,
        })
        .execute();
      invitations.push({ signerId: id, role: place.label, name: other.name, email: other.email, code, expiresAt });
    }
    await recordAuditEvent(actor, { action: "signing.signed", subject: `interview ${interviewId}`, details: { request: requestId, role: own!.label, method: input.drawing ? "drawn" : "typed", others: otherPlaces.length } }, trx);
  });
  const complete = otherPlaces.length === 0 ? await completeRequest(requestId, now, db, keys) : false;
  return { kind: "signed", requestId, invitations, complete };
}

function emptySigner(id: string, requestId: string, position: number, role: string) {
  return {
    id,
    request_id: requestId,
    position,
    role,
    status: "waiting" as const,
    link_hash: null,
    link_expires_at: null,
    code_hash: null,
    code_expires_at: null,
    code_attempts: 0,
    visit_hash: null,
    visit_expires_at: null,
    method: null,
    typed_name: null,
    drawing: null,
    signed_at: null,
    declined_at: null,
    decline_reason: null,
    address: null,
  };
}

/** What an emailed link leads to. */
export type LinkState =
  | { kind: "unknown" }
  | { kind: "expired" }
  | { kind: "signed" }
  | { kind: "declined" }
  | { kind: "replaced" }
  | { kind: "active"; signer: SignerView; requestId: string; ownerName: string; title: string; codeSent: boolean; verified: boolean };

async function signerByLink(code: string, db: Db) {
  if (!code) return null;
  return db
    .selectFrom("signers")
    .innerJoin("signing_requests", "signing_requests.id", "signers.request_id")
    .selectAll("signers")
    .select(["signing_requests.status as request_status", "signing_requests.user_id", "signing_requests.interview_id", "signing_requests.language"])
    .where("signers.link_hash", "=", hashToken(code))
    .executeTakeFirst();
}

/**
 * The state of a link (`code` from its address), for the page that opens it; `visit`, the browser's key after the
 * one-time code, says whether this browser may read and sign. Opening changes nothing (mail scanners open links).
 */
export async function linkState(code: string, visit: string | null, now: Date, db: Db = database(), keys = configuredKeyring()): Promise<LinkState> {
  const row = await signerByLink(code, db);
  if (!row) return { kind: "unknown" };
  if (row.request_status === "replaced") return { kind: "replaced" };
  if (row.status === "signed") return { kind: "signed" };
  if (row.status === "declined") return { kind: "declined" };
  if (!row.link_expires_at || row.link_expires_at <= now.toISOString()) return { kind: "expired" };
  const owner = await ownerSigner(row.request_id, db, keys);
  const places = await signaturePlaces(row.user_id, row.interview_id, db);
  const verified = Boolean(visit && row.visit_hash === hashToken(visit) && row.visit_expires_at && row.visit_expires_at > now.toISOString());
  const codeSent = Boolean(row.code_hash && row.code_expires_at && row.code_expires_at > now.toISOString() && Number(row.code_attempts) < CODE_TRIES);
  return { kind: "active", signer: signerView(row, keys), requestId: row.request_id, ownerName: owner?.name ?? "", title: places?.title ?? "", codeSent, verified };
}

async function ownerSigner(requestId: string, db: Db, keys: DataKeyring) {
  const row = await db.selectFrom("signers").selectAll().where("request_id", "=", requestId).where("position", "=", 0).executeTakeFirst();
  return row ? signerView(row, keys) : null;
}

/** A new one-time code for the link's signer (the last one stops working): returned for the caller to email. */
export async function newCode(code: string, now: Date, db: Db = database(), keys = configuredKeyring()): Promise<{ email: string; name: string; code: string; language: string } | null> {
  const state = await linkState(code, null, now, db, keys);
  if (state.kind !== "active") return null;
  const oneTime = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const row = await signerByLink(code, db);
  await db
    .updateTable("signers")
    .set({ code_hash: hashToken(`${state.signer.id}:${oneTime}`), code_expires_at: new Date(now.getTime() + CODE_MINUTES * 60_000).toISOString(), code_attempts: 0 })
    .where("id", "=", state.signer.id)
    .where("status", "=", "waiting")
    .execute();
  return { email: state.signer.email, name: state.signer.name, code: oneTime, language: row?.language ?? "en" };
}

export type CodeCheck = { kind: "ok"; visit: string } | { kind: "wrong"; triesLeft: number } | { kind: "no-code" } | { kind: "gone" };

/**
 * The one-time code typed on the link's page: right, the browser gets a key (kept as a hash) that lets it read and
 * sign for VISIT_MINUTES, and the code is spent; wrong, one try fewer (none left: the code stops working).
 */
export async function checkCode(code: string, typed: string, now: Date, db: Db = database(), keys = configuredKeyring()): Promise<CodeCheck> {
  const state = await linkState(code, null, now, db, keys);
  if (state.kind !== "active") return { kind: "gone" };
  if (!state.codeSent) return { kind: "no-code" };
  const row = await db.selectFrom("signers").select(["code_hash", "code_attempts"]).where("id", "=", state.signer.id).executeTakeFirstOrThrow();
  if (row.code_hash !== hashToken(`${state.signer.id}:${typed.trim()}`)) {
    const tries = Number(row.code_attempts) + 1;
    await db.updateTable("signers").set({ code_attempts: tries }).where("id", "=", state.signer.id).execute();
    return tries >= CODE_TRIES ? { kind: "no-code" } : { kind: "wrong", triesLeft: CODE_TRIES - tries };
  }
  const visit = randomToken();
  const spent = await db
    .updateTable("signers")
    .set({ code_hash: null, code_expires_at: null, code_attempts: 0, visit_hash: hashToken(visit), visit_expires_at: new Date(now.getTime() + VISIT_MINUTES * 60_000).toISOString() })
    .where("id", "=", state.signer.id)
    .where("code_hash", "=", row.code_hash)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1 ? { kind: "ok", visit } : { kind: "no-code" };
}

export type OtherResult = { kind: "signed"; complete: boolean; requestId: string } | { kind: "declined"; requestId: string } | { kind: "gone" };

/** The link's signer, in a browser that gave the code, signs (audited). The last signature completes the document. */
export async function signAsOther(
  code: string,
  visit: string | null,
  input: { typedName: string; drawing: string | null },
  actor: Omit<Actor, "email" | "id">,
  now: Date,
  db: Db = database(),
  keys = configuredKeyring(),
): Promise<OtherResult> {
  const state = await linkState(code, visit, now, db, keys);
  if (state.kind !== "active" || !state.verified) return { kind: "gone" };
  const id = state.signer.id;
  const at = now.toISOString();
  const done = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("signers")
      .set({
        status: "signed",
        method: input.drawing ? "drawn" : "typed",
        typed_name: seal("typed_name", id, input.typedName, keys),
        drawing: input.drawing ? seal("drawing", id, input.drawing, keys) : null,
        signed_at: at,
        address: seal("address", id, actor.address, keys),
        visit_hash: null,
        code_hash: null,
      })
      .where("id", "=", id)
      .where("status", "=", "waiting")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent(
      { id: null, email: state.signer.email, address: actor.address },
      { action: "signing.signed", subject: `request ${state.requestId}`, details: { role: state.signer.role, method: input.drawing ? "drawn" : "typed", name: input.typedName } },
      trx,
    );
    return true;
  });
  if (!done) return { kind: "gone" };
  const waiting = await db.selectFrom("signers").select("id").where("request_id", "=", state.requestId).where("status", "<>", "signed").execute();
  const complete = waiting.length === 0 ? await completeRequest(state.requestId, now, db, keys) : false;
  return { kind: "signed", complete, requestId: state.requestId };
}

/** The link's signer declines, with a reason the person sees (audited). The link is spent. */
export async function declineAsOther(code: string, visit: string | null, reason: string, actor: Omit<Actor, "email" | "id">, now: Date, db: Db = database(), keys = configuredKeyring()): Promise<OtherResult> {
  const state = await linkState(code, visit, now, db, keys);
  if (state.kind !== "active" || !state.verified) return { kind: "gone" };
  const id = state.signer.id;
  const done = await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("signers")
      .set({ status: "declined", declined_at: now.toISOString(), decline_reason: seal("decline_reason", id, reason, keys), visit_hash: null, code_hash: null })
      .where("id", "=", id)
      .where("status", "=", "waiting")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await recordAuditEvent({ id: null, email: state.signer.email, address: actor.address }, { action: "signing.declined", subject: `request ${state.requestId}`, details: { role: state.signer.role } }, trx);
    return true;
  });
  return done ? { kind: "declined", requestId: state.requestId } : { kind: "gone" };
}

/**
 * Everyone has signed: the document is made from the same answers with each signature in its place, its record
 * page added and the whole sealed; kept sealed at rest, and counted in usage (`signed`). False when it could not
 * be made (the request stays open, and the person's page says the document is not ready).
 */
export async function completeRequest(requestId: string, now: Date, db: Db = database(), keys = configuredKeyring()): Promise<boolean> {
  const request = await db.selectFrom("signing_requests").selectAll().where("id", "=", requestId).executeTakeFirst();
  if (!request || request.status !== "open") return false;
  const places = await signaturePlaces(request.user_id, request.interview_id, db);
  if (!places) return false;
  const view = await requestView(db, request, keys);
  const rows = await db.selectFrom("signers").select(["id", "drawing", "address"]).where("request_id", "=", requestId).execute();
  const extra = new Map(rows.map((row) => [row.id, { drawing: open("drawing", row.id, row.drawing, keys), address: open("address", row.id, row.address, keys) }]));
  const signatures: GivenSignature[] = view.signers.map((signer) => {
    const marker = places.markers[signer.position];
    const image = pngBytes(extra.get(signer.id)?.drawing ?? null);
    return {
      variable: marker?.variable ?? `${signer.role} signature`,
      name: signer.name,
      email: signer.email,
      method: image ? "drawn" : "typed",
      ...(image ? { image } : {}),
      signedAt: new Date(signer.signedAt ?? now.toISOString()),
      address: extra.get(signer.id)?.address ?? null,
    };
  });
  const document = await signedDocument(request.user_id, request.interview_id, signatures, { db, now });
  if (document.kind !== "file") return false;
  const signedPdf = sealText(Buffer.from(document.bytes).toString("base64"), pdfPlace(requestId), keys);
  // The document, its count and the organisation's `documents.signed` event (sent only while it is shared) together.
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("signing_requests")
      .set({ status: "complete", completed_at: now.toISOString(), signed_pdf: signedPdf, signed_sha256: document.sha256 })
      .where("id", "=", requestId)
      .where("status", "=", "open")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await recordSigned(places.interview.issueId, places.interview.language, trx, now);
    await queueDocumentsSigned(trx, request.interview_id, { now });
    return true;
  });
}

/** The bytes of a PNG data: URL. */
function pngBytes(dataUrl: string | null): Uint8Array | null {
  const match = dataUrl ? /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl) : null;
  return match ? new Uint8Array(Buffer.from(match[1]!, "base64")) : null;
}

/** The sealed, signed document of the person's interview (a PDF, or a zip with Word files), once everyone has signed. */
export async function storedSignedDocument(userId: string, interviewId: string, db: Db = database(), keys = configuredKeyring()) {
  const row = await db
    .selectFrom("signing_requests")
    .select(["id", "signed_pdf"])
    .where("interview_id", "=", interviewId)
    .where("user_id", "=", userId)
    .where("status", "=", "complete")
    .executeTakeFirst();
  if (!row?.signed_pdf) return null;
  const places = await signaturePlaces(userId, interviewId, db);
  return { bytes: new Uint8Array(Buffer.from(openText(row.signed_pdf, pdfPlace(row.id), keys), "base64")), issueId: places?.interview.issueId ?? null, issue: places?.issue ?? null, updatedAt: places?.interview.updatedAt ?? new Date().toISOString() };
}

/**
 * The person changes the answers of a completed interview (a new version is made): a request still open stops
 * (its links no longer work; nobody signs a document that is about to change). A complete one stays as it was:
 * a signed document is never changed. Returns whether anything was signed on it, for the page to say so.
 */
export async function answersChanging(userId: string, interviewId: string, db: Db = database()): Promise<{ wasSigned: boolean }> {
  const requests = await db.selectFrom("signing_requests").select(["id", "status"]).where("interview_id", "=", interviewId).where("user_id", "=", userId).execute();
  if (!requests.length) return { wasSigned: false };
  await db.updateTable("signing_requests").set({ status: "replaced" }).where("interview_id", "=", interviewId).where("user_id", "=", userId).where("status", "=", "open").execute();
  await db.updateTable("signers").set({ visit_hash: null, code_hash: null }).where("request_id", "in", requests.map((r) => r.id)).where("status", "=", "waiting").execute();
  return { wasSigned: true };
}

/** The document to read, for the link's signer in a browser that gave the code: as the person finished it. */
export async function documentForSigner(code: string, visit: string | null, now: Date, db: Db = database(), keys = configuredKeyring()) {
  const state = await linkState(code, visit, now, db, keys);
  if (state.kind !== "active" || !state.verified) return null;
  const request = await db.selectFrom("signing_requests").select(["user_id", "interview_id"]).where("id", "=", state.requestId).executeTakeFirstOrThrow();
  const document = await interviewDocument(request.user_id, request.interview_id, { db });
  return document.kind === "file" ? document : null;
}

/** The owner of a request and the language of their emails, for telling them it is complete or declined. */
export async function requestOwner(requestId: string, db: Db = database()) {
  return db
    .selectFrom("signing_requests")
    .innerJoin("users", "users.id", "signing_requests.user_id")
    .select(["users.email", "users.first_name", "users.last_name", "signing_requests.language", "signing_requests.interview_id", "signing_requests.user_id"])
    .where("signing_requests.id", "=", requestId)
    .executeTakeFirst();
}
