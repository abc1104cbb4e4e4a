// The signing flow's emails around the requests' lifecycle (requests.server.ts): the links to other signers,
// their one-time codes, and the person's news (everyone signed; someone declined). A failed email is logged and
// the flow goes on: the person's page shows who is waiting, and another code can be asked for.
import type { Db } from "../../db/database";
import { type Actor } from "~/audit/audit.server";
import { countAttempt, type Limit, limits } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import { type MailMessage, sendMail } from "~/mail/mail.server";
import { logger } from "~/observability/log.server";
import { codeEmail, completeEmail, declinedEmail, invitationEmail } from "./emails.server";
import {
  CODE_MINUTES,
  checkCode,
  completeRequest,
  declineAsOther,
  LINK_DAYS,
  linkState,
  newCode,
  type OwnSignature,
  requestOwner,
  signAsOther,
  signOwn,
} from "./requests.server";

const log = logger("signing");

type Send = (message: MailMessage) => Promise<unknown>;
const defaultSend: Send = (message) => sendMail(message);

async function deliver(send: Send, message: MailMessage, what: string) {
  try {
    await send(message);
  } catch (error) {
    log.error(`${what}: the email could not be sent`, { err: error });
  }
}

export const signLinkUrl = (code: string, origin = config().PUBLIC_ORIGIN) => new URL(`/sign?${new URLSearchParams({ code })}`, origin).toString();
const ownPageUrl = (interviewId: string, origin = config().PUBLIC_ORIGIN) => new URL(`/account/interview/${interviewId}/sign`, origin).toString();

/** The person signs; each other signer is emailed their link; with nobody else to sign, the person is told it is complete. */
export async function signAndInvite(user: { id: string; email: string; firstName: string; lastName: string; language: string }, interviewId: string, input: OwnSignature, actor: Actor, now = new Date(), send: Send = defaultSend, db: Db = database()) {
  const result = await signOwn(user, interviewId, input, actor, now, db);
  if (result.kind !== "signed") return result;
  const ownerName = input.typedName;
  for (const invitation of result.invitations) {
    await deliver(send, invitationEmail({ to: invitation.email, name: invitation.name, ownerName, language: user.language, url: signLinkUrl(invitation.code), days: LINK_DAYS }), "invitation");
  }
  // Told by email only when others signed too: signing alone, the person is on the page that says it is ready.
  if (result.complete && result.invitations.length) await tellComplete(result.requestId, send, db);
  return result;
}

/**
 * Everyone signed but the document could not be made then (app/documents said it was unavailable): made now, when
 * the person opens their signing page again. Returns whether it is complete now.
 */
export async function finishIfSigned(requestId: string, now = new Date(), send: Send = defaultSend, db: Db = database()): Promise<boolean> {
  const done = await completeRequest(requestId, now, db);
  if (done) await tellComplete(requestId, send, db);
  return done;
}

/** Per link and per address: how often a code may be sent, and how often one may be tried. */
export const signingLimits = {
  codesPerLink: { max: 5, minutes: 60 },
  codeTriesPerAddress: { max: 30, minutes: 15, perAddress: true },
  linkPerAddress: limits.signLinkPerAddress,
} satisfies Record<string, Limit>;

/** A one-time code to the link's signer (limited per link and per address). False: the link no longer works. */
export async function sendCode(code: string, address: string, now = new Date(), send: Send = defaultSend, db: Db = database()): Promise<boolean> {
  const state = await linkState(code, null, now, db);
  if (state.kind !== "active") return false;
  await countAttempt([[`sign-code:${state.signer.id}`, signingLimits.codesPerLink], [`sign-code:address:${address}`, signingLimits.codeTriesPerAddress]], db);
  const made = await newCode(code, now, db);
  if (!made) return false;
  await deliver(send, codeEmail({ to: made.email, name: made.name, language: made.language, code: made.code, minutes: CODE_MINUTES }), "code");
  return true;
}

/** The code typed on the link's page (each try counted per address, beside the code's own tries). */
export async function tryCode(code: string, typed: string, address: string, now = new Date(), db: Db = database()) {
  await countAttempt([[`sign-code:address:${address}`, signingLimits.codeTriesPerAddress]], db);
  return checkCode(code, typed, now, db);
}

/** Another signer signs; the last signature completes the document, and the person is told. */
export async function signThroughLink(code: string, visit: string | null, input: { typedName: string; drawing: string | null }, address: string, now = new Date(), send: Send = defaultSend, db: Db = database()) {
  const result = await signAsOther(code, visit, input, { address }, now, db);
  if (result.kind === "signed" && result.complete) await tellComplete(result.requestId, send, db);
  return result;
}

/** Another signer declines; the person is told (the reason is on their page). */
export async function declineThroughLink(code: string, visit: string | null, reason: string, address: string, now = new Date(), send: Send = defaultSend, db: Db = database()) {
  const state = await linkState(code, visit, now, db);
  const result = await declineAsOther(code, visit, reason, { address }, now, db);
  if (result.kind === "declined" && state.kind === "active") {
    const owner = await requestOwner(result.requestId, db);
    if (owner) await deliver(send, declinedEmail({ to: owner.email, name: `${owner.first_name} ${owner.last_name}`, language: owner.language, signer: state.signer.name, url: ownPageUrl(owner.interview_id) }), "declined");
  }
  return result;
}

async function tellComplete(requestId: string, send: Send, db: Db) {
  const owner = await requestOwner(requestId, db);
  if (owner) await deliver(send, completeEmail({ to: owner.email, name: `${owner.first_name} ${owner.last_name}`, language: owner.language, url: ownPageUrl(owner.interview_id) }), "complete");
}
