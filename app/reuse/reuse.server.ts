/**
 * Answers reused across interviews (issue 29, part 1; docs/decisions/0049-answers-reused-and-answer-files.md):
 * a new interview is offered the answers the person gave before to variables of the same name in their other
 * interviews, and their profile's names, email and phone, each checked against the new guide. Only the
 * person's own: every read is by their id. They can turn the offer off on their profile page.
 */
import type { Db } from "../../db/database";
import { answerableVar, checkAnswers, type AnswerValue, type FittingAnswer, type Guide } from "~/a2j";
import { database } from "~/db.server";
import { givenAnswers } from "~/interviews/interviews.server";

/** Where an offered answer comes from. */
export type AnswerSource = { kind: "interview"; issueName: string; at: string } | { kind: "profile" } | { kind: "file" };

export interface OfferedAnswer extends FittingAnswer {
  source: AnswerSource;
}

/**
 * The variable names a profile's fields answer, as guides commonly name them (the organisation's guides share
 * names such as `Client first name TE`). Matched without regard to case.
 */
export const PROFILE_VARIABLES: Record<"firstName" | "lastName" | "email" | "phone", readonly string[]> = {
  firstName: ["Client first name TE", "User first name TE", "First name TE"],
  lastName: ["Client last name TE", "User last name TE", "Last name TE"],
  email: ["Client email TE", "Client email address TE", "User email TE", "Email TE", "Email address TE"],
  phone: ["Client phone TE", "Client phone number TE", "User phone TE", "Phone TE", "Phone number TE"],
};

/** Whether the person wants answers from before offered (on unless they turned it off). */
export async function offersReusedAnswers(userId: string, db: Db = database()): Promise<boolean> {
  const row = await db.selectFrom("users").select("offer_reused_answers").where("id", "=", userId).executeTakeFirst();
  return row ? Number(row.offer_reused_answers) === 1 : false;
}

/** Turns the offer on or off for the person. */
export async function setOffersReusedAnswers(userId: string, on: boolean, db: Db = database()): Promise<void> {
  await db.updateTable("users").set({ offer_reused_answers: on ? 1 : 0, updated_at: new Date().toISOString() }).where("id", "=", userId).execute();
}

/**
 * The answers a new interview on `guide` may start with: for each of its variables, the latest answer the person
 * gave to a variable of that name in another interview that fits this guide (type, a list's choices), else the
 * profile's value for a variable named as `PROFILE_VARIABLES` says. Empty when the person turned the offer off.
 */
export async function reusableAnswers(userId: string, guide: Guide, db: Db = database()): Promise<OfferedAnswer[]> {
  const profile = await db
    .selectFrom("users")
    .select(["first_name", "last_name", "email", "phone_number", "offer_reused_answers"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!profile || Number(profile.offer_reused_answers) !== 1) return [];
  const offered = new Map<string, OfferedAnswer>();
  for (const given of await givenAnswers(userId, 50, db)) {
    for (const answer of checkAnswers(guide, given.answers).fitting) {
      if (!offered.has(answer.key)) offered.set(answer.key, { ...answer, source: { kind: "interview", issueName: given.issueName, at: given.updatedAt } });
    }
  }
  const fromProfile: [keyof typeof PROFILE_VARIABLES, string][] = [
    ["firstName", profile.first_name],
    ["lastName", profile.last_name],
    ["email", profile.email],
    ["phone", profile.phone_number],
  ];
  for (const [field, value] of fromProfile) {
    if (value.trim() === "") continue;
    for (const name of PROFILE_VARIABLES[field]) {
      const key = name.toLowerCase();
      const guideVar = guide.vars[key];
      if (!Object.hasOwn(guide.vars, key) || !guideVar || guideVar.type !== "Text" || !answerableVar(guide, key) || offered.has(key)) continue;
      offered.set(key, { key, name: guideVar.name, type: "Text", repeating: guideVar.repeating, values: [value], source: { kind: "profile" } });
    }
  }
  // In the guide's order of variables, as its pages ask them.
  const order = Object.keys(guide.vars);
  return [...offered.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}

/** A value as a form carries it back: the variable's name and values (checked again against the guide). */
export function carriedAnswer(answer: Pick<FittingAnswer, "name" | "values">): string {
  return JSON.stringify({ name: answer.name, values: answer.values });
}

/** The answers a form carried back (`carriedAnswer`), as an answer set to check again; unreadable ones are left out. */
export function answersFromCarried(carried: readonly string[]): Record<string, { name: string; type: "Unknown"; repeating: boolean; values: AnswerValue[] }> {
  const answers: Record<string, { name: string; type: "Unknown"; repeating: boolean; values: AnswerValue[] }> = {};
  for (const text of carried) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null) continue;
    const { name, values } = parsed as { name?: unknown; values?: unknown };
    if (typeof name !== "string" || name.trim() === "" || !Array.isArray(values) || values.length > 1000) continue;
    const kept = values.filter((v): v is AnswerValue => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean");
    if (kept.length !== values.length) continue;
    const key = name.trim().toLowerCase();
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    answers[key] = { name: name.trim(), type: "Unknown", repeating: values.length > 1, values: [null, ...kept] };
  }
  return answers;
}
