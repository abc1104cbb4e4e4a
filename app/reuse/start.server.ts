/**
 * A new interview started with the answers the person confirmed (reused or from an answer file), or answers from
 * a file put into an interview they are in the middle of. The answers are checked again against the guide here:
 * what a form carried back is not trusted.
 */
import type { Db } from "../../db/database";
import { type Answers, checkAnswers, type FittingAnswer, type InterviewState, withAnswers } from "~/a2j";
import type { SessionUser } from "~/auth/session.server";
import { database } from "~/db.server";
import { saveInterview } from "~/interviews/interviews.server";
import { openViewer, type OpenViewer } from "~/viewer/viewer.server";
import { reusableAnswers } from "./reuse.server";

type Person = Pick<SessionUser, "id" | "administrator">;

/** What a new interview on the issue would open (its guide in the language chosen), or null. */
export async function newInterviewOf(user: Person, issueId: number, guideId: string | null, db: Db = database()): Promise<OpenViewer | null> {
  const opened = await openViewer({ id: user.id, administrator: false }, { preview: false, issueId, interviewId: null, guideId }, null, db);
  return opened?.issue ? opened : null;
}

/** The person's interview on the issue, in the middle (Draft), or null. */
export async function draftInterviewOf(user: Person, issueId: number, interviewId: string, db: Db = database()): Promise<OpenViewer | null> {
  const opened = await openViewer({ id: user.id, administrator: false }, { preview: false, issueId, interviewId }, null, db);
  return opened?.issue && opened.status === "Draft" ? opened : null;
}

/** The carried answers that still fit the guide (those that do not are dropped: the form was tampered with). */
export function stillFitting(opened: OpenViewer, carried: Answers): FittingAnswer[] {
  return checkAnswers(opened.guide, carried).fitting;
}

/** Starts the interview `newInterviewOf` opened, with these answers; returns its id. */
export async function startInterviewWith(user: Person, opened: OpenViewer, chosen: readonly FittingAnswer[], db: Db = database()): Promise<string> {
  const state: InterviewState = { ...opened.state, answers: withAnswers(opened.state.answers, chosen) };
  return saveInterview({ id: null, userId: user.id, issueId: opened.issue!.id, status: "Draft", state, guide: opened.pin, language: opened.language }, db);
}

/** Puts these answers into the Draft interview `draftInterviewOf` opened; it resumes where it was. */
export async function addAnswersTo(user: Person, opened: OpenViewer, chosen: readonly FittingAnswer[], db: Db = database()): Promise<string> {
  const state: InterviewState = { ...opened.state, answers: withAnswers(opened.state.answers, chosen) };
  // What was typed on a page and not yet saved gives way to the answers chosen here.
  if (state.typed) delete state.typed;
  return saveInterview({ id: opened.interviewId, userId: user.id, issueId: opened.issue!.id, status: "Draft", state, guide: opened.pin, language: opened.language }, db);
}

/** How many answers from before a new interview on the issue would be offered (0 when the person turned the offer off). */
export async function offeredCount(user: Person, issueId: number, guideId: string | null, db: Db = database()): Promise<number> {
  const opened = await newInterviewOf(user, issueId, guideId, db);
  return opened ? (await reusableAnswers(user.id, opened.guide, db)).length : 0;
}
