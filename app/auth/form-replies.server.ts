import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import type { FieldError } from "./accounts.server";
import { RateLimitError } from "./rate-limit.server";

// Passwords are never sent back into the page.
const hideFields = ["password", "confirmPassword", "currentPassword"];

export function invalid(submission: Submission<unknown>) {
  return data({ result: submission.reply({ hideFields }) }, { status: 400 });
}

/** A refusal from the account rules, shown at its field. */
export function refuse(submission: Submission<unknown>, error: FieldError) {
  return data(
    { result: submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields }) },
    { status: error.status },
  );
}

/** Runs an account action; a reached abuse limit becomes a form error with status 429. */
export async function limited<T>(submission: Submission<unknown>, run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof RateLimitError)) throw error;
    return data({ result: submission.reply({ formErrors: [error.ref], hideFields }) }, { status: 429 });
  }
}
