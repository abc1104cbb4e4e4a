import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { extractText } from "unpdf";
import { answersToJSON, currentEntry, daysFromDate, loadGuide, startInterview, submitPage, type FormValues, type InterviewState } from "../../app/a2j";
import { createAccountWithCodes, emailedLink, PASSWORD, totpCode, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { interviewVars, moveInterviewTo, plantInterviews, sealedColumn, withE2eDatabase } from "./support";
import { axeOnViewer, fillDate, press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 25: right for a stressed person on a phone. Issue 1 (Divorce and separation, Singapore) and issue 10
// (Unfair dismissal, Australia, which has sources) run the case-summary guide.

/** A case-summary interview answered up to "Check your answers" by the engine itself, with two events. */
function caseSummaryAtReview(): InterviewState {
  const loaded = loadGuide(readFileSync("db/seed/guides/case-summary/Guide.json", "utf8"));
  if (!loaded.ok) throw new Error(loaded.error);
  const guide = loaded.guide;
  const today = daysFromDate(new Date());
  const started = startInterview(guide, today);
  if (!started.ok) throw new Error(started.error.message);
  let state = started.state;
  const steps: [string, FormValues][] = [
    ["Start", {}],
    ["Continue", { "first name te": "Alex", "last name te": "Rivera" }],
    ["Continue", { "issue title te": "Separating from my husband" }],
    ["Continue", { "other party type mc": "Person", "other party name te": "Sam Rivera" }],
    ["Continue", {}],
    ["Add the first event", {}],
    ["Continue", { "event date da": "01/15/2025", "event description te": "We agreed to live apart." }],
    ["Add another event", {}],
    ["Continue", { "event date da": "12/01/2024", "event description te": "We married in 2010 and had a first serious argument." }],
    ["I have finished the timeline", {}],
    ["Continue", { "outcome wanted te": "A fair arrangement for the house." }],
    ["Continue", {}],
    ["Continue", {}],
    ["Create my summary", {}],
  ];
  for (const [label, values] of steps) {
    const page = guide.pages[currentEntry(state)!.interviewPage]!;
    const r = submitPage(guide, state, { pageName: page.name, buttonIndex: page.buttons.findIndex((b) => b.label === label), values }, today);
    if (!r.ok || r.outcome.kind === "invalid") throw new Error(`${page.name}: ${JSON.stringify(r)}`);
    state = r.state;
  }
  if (!state.review) throw new Error("not at the review");
  return state;
}

function plantState(email: string, issueId: number, state: InterviewState): string {
  const [id] = plantInterviews(email, [{ issueId, status: "Draft", daysAgo: 0 }]);
  const engine = JSON.stringify({ history: state.history, review: state.review });
  withE2eDatabase((db) =>
    db
      .prepare("update interviews set vars = ?, engine_state = ? where id = ?")
      .run(sealedColumn("vars", id!, JSON.stringify(answersToJSON(state.answers))), sealedColumn("engine_state", id!, engine), id),
  );
  return id!;
}

async function documentText(page: Page, interviewId: string): Promise<string> {
  const download = await page.request.get(`/account/interview/${interviewId}/download`);
  expect(download.status()).toBe(200);
  const { text } = await extractText(new Uint8Array(await download.body()), { mergePages: true });
  return (text as string).replace(/\s+/g, " ");
}

async function signInAs(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test.describe("a change on Check your answers", () => {
  test("re-runs what depends on it: the document's first event follows a changed date; a completed interview is corrected in a new draft", async ({ page, axe }) => {
    const email = uniqueEmail("change");
    await plantSignedIn(page, email);
    const id = plantState(email, 1, caseSummaryAtReview());
    await page.goto(`/issues/1/interviews/${id}`);
    const frame = viewer(page);
    await expect(frame.locator("#viewer-heading")).toHaveText("Check your answers");
    await press(frame, "Change Date (Event 2)");
    await fillDate(frame, "Date", { day: "4", month: "12", year: "2024" });
    // Continue replays the pages after it (the last page works out the first event) and comes back to the review.
    await press(frame, "Continue");
    await expect(frame.locator("#viewer-heading")).toHaveText("Check your answers");
    await expect(frame.locator("[data-viewer]")).toContainText("4 December 2024");
    await expect(frame.locator("[data-viewer]")).not.toContainText("1 December 2024");
    await axeOnViewer(page, axe);

    // A change that brings a page onto the path stops there, and says why; answering it goes back to the review.
    await press(viewer(page), "Change I have already tried to sort this out with them");
    await viewer(page).getByLabel("I have already tried to sort this out with them").check();
    await press(viewer(page), "Continue");
    await expect(viewer(page).locator("#viewer-heading")).toHaveText("What have you already tried, and what happened?");
    await expect(viewer(page).getByText("Your change affects this page. Check it, then continue to go back to Check your answers.")).toBeVisible();
    await axeOnViewer(page, axe);
    await viewer(page).getByLabel(/^What I tried/).fill("I wrote to him twice.");
    await press(viewer(page), "Continue");
    await expect(viewer(page).locator("#viewer-heading")).toHaveText("Check your answers");
    await viewer(page).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    const before = await documentText(page, id);
    expect(before).toContain("The first event was on 4 December 2024");
    expect(before).not.toContain("1 December 2024");

    // Correcting it: a new draft, on Check your answers; the completed one and its document stay.
    await page.getByRole("button", { name: "Change answers" }).click();
    await expect(page).not.toHaveURL(new RegExp(id));
    await expect(viewer(page).locator("#viewer-heading")).toHaveText("Check your answers");
    await page.goto("/account/interview");
    const rows = page.getByRole("row").filter({ hasText: "Divorce and separation" });
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "Completed" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Draft" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Completed" }).getByRole("button", { name: "Change answers Divorce and separation" })).toBeVisible();
    await axe();
    expect(await documentText(page, id)).toContain("The first event was on 4 December 2024");
  });
});

test.describe("back where they were", () => {
  test("signed out, My interviews and an interview lead to sign in and back; codes typed as apps show them; Save and finish later says so and leads back", async ({ page, axe }) => {
    const email = uniqueEmail("return");
    const { secret, codes } = await createAccountWithCodes(page, email);
    const [id] = plantInterviews(email, [{ issueId: 1, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "05-Save point");
    await page.getByRole("button", { name: "Sign out" }).first().click();

    await page.goto("/account/interview");
    await expect(page).toHaveURL(/\/auth\/sign-in\?returnTo=%2Faccount%2Finterview$/);
    await expect(page.getByRole("status").filter({ hasText: "Please sign in" })).toHaveText("Please sign in to see this page. You will come back to it after.");
    await axe();

    await page.goto(`/issues/1/interviews/${id}`);
    await expect(page).toHaveURL(new RegExp(`/auth/sign-in\\?returnTo=%2Fissues%2F1%2Finterviews%2F${id}$`));
    await signInAs(page, email);
    await expect(page).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
    const code = totpCode(secret, 1);
    await page.getByLabel("Verification code").fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/1/interviews/${id}$`));
    const frame = viewer(page);
    await expect(frame.getByRole("button", { name: "Save and finish later" })).toBeVisible();

    await frame.getByRole("button", { name: "Save and finish later" }).click();
    await expect(page).toHaveURL(/\/$/);
    const notice = page.getByRole("status").filter({ hasText: "Your answers are saved" });
    await expect(notice).toContainText("You are signed out. Your answers are saved: sign in to continue your interview.");
    await axe();
    await notice.getByRole("link", { name: "Sign in" }).click();
    await expect(page.getByRole("status").filter({ hasText: "signed out" })).toHaveText("You are signed out. Your answers are saved: sign in to continue your interview.");
    await signInAs(page, email);
    await page.getByRole("link", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(` ${codes[0]!.toUpperCase().replace("-", " - ")} `);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/account\/recovery-codes\?used=1&returnTo=/);
    await page.getByRole("link", { name: "Continue where you were" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/1/interviews/${id}$`));
    await expect(viewer(page).getByRole("button", { name: "Save and finish later" })).toBeVisible();
  });

  test("sign-up from an issue comes back to its interview through the emailed link; a phone typed with a plus and spaces; March; an email checked", async ({ page, axe }) => {
    await page.goto("/issues/1");
    await expect(page.getByText("parenting plan")).toHaveCount(0);
    await expect(page.getByText("summary of your situation")).toBeVisible();
    await page.locator("main").getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-in\?returnTo=%2Fissues%2F1%2Finterviews$/);
    await page.getByRole("link", { name: "Create an account" }).click();
    const email = uniqueEmail("signup-return");
    await page.getByLabel("First name").fill("Sam");
    await page.getByLabel("Last name").fill("Tan");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Phone number", { exact: true }).fill("+65 9123 4567");
    await page.getByRole("button", { name: "Create an account" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-up\/email-sent$/);
    const link = emailedLink(email, "/auth/sign-up/password");
    expect(new URL(link, "http://x").searchParams.get("returnTo")).toBe("/issues/1/interviews");
    await page.goto(link);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save password" }).click();
    const secret = (await page.locator("#secret-key").textContent())!.trim();
    const code = totpCode(secret);
    await page.getByLabel("Verification code").fill(`${code.slice(0, 3)}-${code.slice(3)}`);
    await page.getByRole("button", { name: "Verify and finish" }).click();
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page).toHaveURL(/\/issues\/1\/interviews$/);
    expect(withE2eDatabase((db) => db.prepare("select phone_country, phone_code, phone_number from users where email = ?").get(email))).toEqual({
      phone_country: "SG",
      phone_code: "+65",
      phone_number: "+6591234567",
    });

    const frame = viewer(page);
    await press(frame, "Start");
    await frame.getByLabel("First name").fill("Sam");
    await frame.getByLabel("Last name").fill("Tan");
    await fillDate(frame, /^Date of birth/, { day: "4", month: "March", year: "1990" });
    await frame.getByLabel(/^Email address/).fill("sam@@example");
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("The email format is invalid.");
    await axeOnViewer(page, axe);
    // axeOnViewer opened the page again: what was typed is typed again.
    const again = viewer(page);
    await again.getByLabel("First name").fill("Sam");
    await again.getByLabel("Last name").fill("Tan");
    await fillDate(again, /^Date of birth/, { day: "4", month: "March", year: "1990" });
    await again.getByLabel(/^Email address/).fill("sam@example.org");
    await press(again, "Continue");
    const interviewId = await viewer(page).locator("[data-viewer]").getAttribute("data-interview-id");
    expect(interviewVars(interviewId!)["birth date da"]?.values).toEqual([null, "03/04/1990"]);
    expect(interviewVars(interviewId!)["contact email te"]?.values).toEqual([null, "sam@example.org"]);
  });
});

test.describe("AI help that keeps what was typed", () => {
  test("Understand my situation only where there are sources, its example from the issue; going there and back keeps a half-typed date", async ({ page, axe }) => {
    const email = uniqueEmail("detour");
    await plantSignedIn(page, email);
    // Divorce (Singapore) has no sources: no Understand my situation, on the issue or in the interview.
    await page.goto("/issues/1");
    await expect(page.getByRole("link", { name: "Understand my situation" })).toHaveCount(0);
    const [divorce] = plantInterviews(email, [{ issueId: 1, status: "Draft", daysAgo: 0 }]);
    const [dismissal] = plantInterviews(email, [{ issueId: 10, status: "Draft", daysAgo: 0 }]);
    for (const id of [divorce!, dismissal!]) moveInterviewTo(id, "02-About you");
    await page.goto(`/issues/1/interviews/${divorce}`);
    await expect(viewer(page).getByRole("button", { name: "Use a document I have" })).toBeVisible();
    await expect(viewer(page).getByRole("button", { name: "Understand my situation" })).toHaveCount(0);

    await page.goto(`/issues/10/interviews/${dismissal}`);
    const frame = viewer(page);
    await frame.getByLabel("First name").fill("Robin");
    await fillDate(frame, /^Date of birth/, { day: "", month: "Mar", year: "1991" });
    await frame.getByRole("button", { name: "Understand my situation" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/10/understand\\?interview=${dismissal}$`));
    await expect(page.getByText("What are my options with unfair dismissal, and what should I do first?")).toBeVisible();
    await axe();
    await page.getByRole("link", { name: "Back to the interview" }).click();
    const back = viewer(page);
    await expect(back.getByLabel("First name")).toHaveValue("Robin");
    const born = back.getByRole("group", { name: /^Date of birth/ });
    await expect(born.getByLabel("Day")).toHaveValue("");
    await expect(born.getByLabel("Month")).toHaveValue("Mar");
    await expect(born.getByLabel("Year")).toHaveValue("1991");
    await axeOnViewer(page, axe);
  });
});
