import { createHash, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { emailedLink, PASSWORD, shownRecoveryCodes, totpCode, uniqueEmail } from "./accounts";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { interviewVars, moveInterviewTo, outboxMessages, plantAtFinish, plantAttachment, sealedColumn, setInterviewVars, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";

// Help from a person (issue 28): a person shares an interview; a helper limited to its country takes it, reads,
// downloads, replies about one page; the person reads the reply and who has seen what, then stops sharing. And a
// helper prepares an interview during a call, invites the person, who signs up through the link and finishes it.
// People who are not the subject of a test are planted signed in (tests/e2e/people.ts); the invited person signs up.

const UK = 2;
const REENTRY_ISSUE = 2;

test("a person shares an interview; a helper for its country takes it, reads, downloads and replies; the person reads it and stops sharing", async ({ browser, javaScriptEnabled }) => {
  // Three people and ten pages checked by axe (replayed without scripts in the no-js project) on a shared machine.
  test.setTimeout(240_000);
  const axe = (page: Page) => expectNoAxeViolations(page, javaScriptEnabled);
  const admin = await signedInPerson(browser, javaScriptEnabled, "help-admin", { role: "administrator" });
  const helper = await signedInPerson(browser, javaScriptEnabled, "help-helper", { firstName: "Hana", lastName: "Helper" });
  const person = await signedInPerson(browser, javaScriptEnabled, "help-person", { firstName: "Ann", lastName: "Lee" });
  const secret = `file-${randomUUID().slice(0, 8)}`;
  const interviewId = plantAtFinish(person.email, REENTRY_ISSUE);
  withE2eDatabase((db) => db.prepare("update interviews set status = 'Completed' where id = ?").run(interviewId));
  plantAttachment(person.email, interviewId, secret);

  try {
    // The administrator makes the account a helper for the United Kingdom only, on the page that manages roles.
    const roles = admin.page;
    await roles.goto("/admin/administrators");
    await roles.locator("#helper").getByLabel("Email").fill("not an email");
    await roles.getByRole("button", { name: "Save helper" }).click();
    await expect(roles.getByRole("alert")).toContainText("The email format is invalid.");
    await expect(roles).toHaveTitle(/^Error: /);
    await axe(roles);
    await roles.locator("#helper").getByLabel("Email").fill(helper.email);
    await roles.getByLabel("United Kingdom", { exact: true }).check();
    await roles.getByRole("button", { name: "Save helper" }).click();
    await expect(roles.getByRole("status")).toHaveText(`${helper.email} is now a helper.`);
    await expect(roles.getByRole("row").filter({ hasText: helper.email })).toContainText("United Kingdom (every issue)");
    await axe(roles);

    // The person asks for help from My interviews: nothing chosen is refused, then answers, document and file, with a message.
    const own = person.page;
    await own.goto("/account/interview");
    await own.getByRole("link", { name: "Get help with Criminal records and spent convictions" }).click();
    await expect(own.getByRole("heading", { level: 1 })).toHaveText("Help with this interview");
    await expect(own.getByText("The helpers of our team who help with Criminal records and spent convictions in United Kingdom.", { exact: false })).toBeVisible();
    await expect(own.getByText(/^Until \d{1,2} \w+ \d{4} \(30 days\)\./)).toBeVisible();
    await axe(own);
    await own.getByLabel("My answers").uncheck();
    await own.getByRole("button", { name: "Share with a helper" }).click();
    await expect(own.getByRole("alert")).toContainText("Choose at least one thing to share.");
    await axe(own);
    for (const label of ["My answers", "My document", "My uploaded files"]) await own.getByLabel(label).check();
    await own.getByLabel("Message for the helper (optional)").fill("Please check my plan before I show my officer.");
    await own.getByRole("button", { name: "Share with a helper" }).click();
    await expect(own.getByRole("status")).toHaveText("Your interview is shared with our helpers.");
    await expect(own.getByText(/^You are sharing this interview with our helpers until/)).toBeVisible();
    await axe(own);
    await own.goto("/account/interview");
    await expect(own.getByText(/^Shared with helpers until/)).toBeVisible();

    // The helper finds it on the desk (and not under another country), takes it, reads the answers, downloads, replies.
    const desk = helper.page;
    await desk.goto("/");
    await desk.getByRole("link", { name: "Help desk" }).first().click();
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText("Help desk");
    // Other specs share interviews on this issue too (the API's and the webhooks'): the row is this share's.
    const { id: shareId } = withE2eDatabase((db) => db.prepare("select id from interview_shares where interview_id = ?").get(interviewId)) as { id: string };
    const row = desk.getByRole("row").filter({ has: desk.locator(`a[href="/help/requests/${shareId}"]`) });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Criminal records and spent convictions");
    await axe(desk);
    await desk.getByLabel("Country").selectOption({ label: "United Kingdom" });
    await desk.getByRole("combobox", { name: "Language" }).selectOption({ label: "English" });
    await desk.getByRole("button", { name: "Show" }).click();
    await expect(row).toHaveCount(1);
    await row.getByRole("link", { name: /^Open/ }).click();
    await expect(desk.getByText("Please check my plan before I show my officer.")).toBeVisible();
    await axe(desk);
    await desk.getByRole("button", { name: "Take this request" }).click();
    await expect(desk.getByRole("status")).toHaveText("The request is yours.");
    const requestUrl = desk.url();

    await desk.getByRole("link", { name: "Read the answers" }).click();
    await expect(desk.getByRole("heading", { level: 2, name: "Basic Information" })).toBeVisible();
    await expect(desk.getByRole("definition").filter({ hasText: /^Ann$/ })).toBeVisible();
    await axe(desk);
    await desk.goto(requestUrl);
    const documentHref = (await desk.getByRole("link", { name: "Download the document" }).getAttribute("href"))!;
    const document = await desk.request.get(documentHref);
    expect(document.headers()["content-type"]).toBe("application/pdf");
    expect((await document.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const fileHref = (await desk.getByRole("link", { name: new RegExp(`^Download ${secret}\\.pdf`) }).getAttribute("href"))!;
    expect((await (await desk.request.get(fileHref)).body()).toString("latin1")).toContain(secret);

    await desk.getByRole("button", { name: "Send reply" }).click();
    await expect(desk.getByRole("alert")).toContainText("Write your reply.");
    await axe(desk);
    await desk.getByLabel("About").selectOption({ label: "Basic Information: First:" });
    await desk.getByLabel("Your reply").fill("Your first name should be as it is on your release papers.");
    await desk.getByRole("button", { name: "Send reply" }).click();
    await expect(desk.getByRole("status")).toHaveText("Your reply is sent.");
    await expect(desk.getByText("Your first name should be as it is on your release papers.")).toBeVisible();

    // The person is told there is a reply (and nothing of it), reads it, and sees who opened what.
    const notice = outboxMessages().filter((message) => message.to_address === person.email);
    expect(notice.map((message) => message.subject)).toEqual(["A helper has replied to you"]);
    expect(notice[0]!.text).not.toContain("release papers");
    await own.goto("/account/interview");
    await own.getByRole("link", { name: "1 new reply from a helper" }).click();
    await expect(own.getByText("Your first name should be as it is on your release papers.")).toBeVisible();
    await expect(own.getByText("About: Basic Information: First:")).toBeVisible();
    await expect(own.getByText("Hana Helper is helping you")).toBeVisible();
    const seen = own.getByRole("table", { name: /Who has seen it/ });
    for (const what of ["Your request and message", "Your answers", "Your document", `Your file: ${secret}.pdf`]) {
      await expect(seen.getByRole("row").filter({ hasText: "Hana Helper" }).filter({ hasText: what }).first()).toBeVisible();
    }
    await axe(own);

    // The person stops sharing: from the next request the helper gets the not-found page everywhere.
    await own.getByRole("button", { name: "Stop sharing" }).click();
    await expect(own.getByRole("status")).toHaveText("You have stopped sharing this interview.");
    await expect(own.getByRole("heading", { name: "Ask for help with this interview" })).toBeVisible();
    await expect(own.getByText("Your first name should be as it is on your release papers.")).toBeVisible();
    for (const path of [requestUrl, `${requestUrl}/answers`, documentHref, fileHref]) {
      expect((await desk.request.get(path)).status(), path).toBe(404);
    }
    await desk.goto(requestUrl);
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText("Sorry, we couldn't find this page.");
  } finally {
    await Promise.all([admin, helper, person].map(({ context }) => context.close()));
  }
});

test("a helper prepares an interview during a call and invites the person, who signs up through the link and finishes it; the link works once and for 7 days", async ({ page, browser, javaScriptEnabled, axe }) => {
  test.setTimeout(240_000);
  const helper = await signedInPerson(browser, javaScriptEnabled, "prep-helper", { role: "helper", helps: { countries: [UK] }, firstName: "Hana", lastName: "Helper" });
  const email = uniqueEmail("prep-person");
  try {
    // During the call: the helper starts the interview (an empty form is refused), answers the first pages, invites.
    const desk = helper.page;
    await desk.goto("/help");
    await desk.getByRole("link", { name: "Prepare an interview for someone" }).click();
    await desk.getByRole("button", { name: "Start the interview" }).click();
    await expect(desk.getByRole("alert")).toContainText("Issue: Choose an issue.");
    await expectNoAxeViolations(desk, javaScriptEnabled);
    await desk.getByLabel("Issue").selectOption({ label: "Criminal records and spent convictions" });
    await desk.getByLabel("Their first name").fill("Cy");
    await desk.getByLabel("Their last name").fill("Lim");
    await desk.getByLabel("Their email").fill(email);
    await desk.getByRole("button", { name: "Start the interview" }).click();
    await expect(desk).toHaveURL(/\/issues\/2\/interviews\/[0-9a-f-]{36}$/);
    const interviewId = desk.url().split("/").at(-1)!;
    await expect(desk.getByText("You are preparing this interview for Cy Lim.")).toBeVisible();
    const frame = viewer(desk);
    await press(frame, "Continue");
    await press(frame, "Continue");
    await press(frame, "Get Started");
    await frame.getByLabel(/^First/).fill("Cy");
    await frame.getByLabel(/^Last/).fill("Lim");
    await press(frame, "Continue");
    await expect(frame.getByRole("button", { name: "Already released" })).toBeVisible();

    await desk.goto("/help/prepared");
    await expect(desk.getByRole("row").filter({ hasText: "Cy Lim" })).toContainText("Not sent yet");
    await expectNoAxeViolations(desk, javaScriptEnabled);
    await desk.getByRole("link", { name: "Open the interview for Cy Lim" }).click();
    await desk.getByRole("button", { name: "Send the invitation" }).click();
    await expect(desk.getByRole("status")).toHaveText(`The invitation is sent to ${email}.`);
    await expectNoAxeViolations(desk, javaScriptEnabled);
    const invitation = emailedLink(email, "/invitation");

    // The person signs up through the link: their email is the invitation's; a missing phone number is refused.
    await page.goto(invitation);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("An interview was prepared for you");
    await expect(page.getByText("Hana Helper from our team has started an interview for you.", { exact: false })).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Cy");
    await axe();
    await page.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByRole("alert")).toContainText("Phone number: This field is required.");
    await axe();
    await page.getByLabel("Phone number").fill("91234567");
    await page.getByRole("button", { name: "Create my account" }).click();
    await expect(page).toHaveURL(/\/auth\/sign-up\/password\?code=/);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save password" }).click();
    const secret = (await page.locator("#secret-key").textContent())!.trim();
    await page.getByLabel("Verification code").fill(totpCode(secret));
    await page.getByRole("button", { name: "Verify and finish" }).click();
    await shownRecoveryCodes(page);
    await page.getByRole("button", { name: "I have saved them" }).click();

    // The interview is theirs, marked as prepared with the helper; they go on from where the helper stopped and finish.
    await page.goto("/account/interview");
    await expect(page.getByText("Prepared with Hana Helper")).toBeVisible();
    await axe();
    await page.getByRole("link", { name: /^Edit/ }).click();
    await expect(viewer(page).getByRole("button", { name: "Already released" })).toBeVisible();
    const answered = interviewVars(interviewId) as Parameters<typeof setInterviewVars>[1];
    setInterviewVars(interviewId, { ...answered, "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] } });
    moveInterviewTo(interviewId, "7-Finish instructions");
    await page.reload();
    await press(viewer(page), "Finish");
    await viewer(page).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    const document = await page.request.get(`/account/interview/${interviewId}/download`);
    expect(document.headers()["content-type"]).toBe("application/pdf");

    // The link works once; the helper now sees only that it was taken, and not the interview.
    await page.goto(invitation);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This invitation has already been used");
    await axe();
    expect((await helper.page.request.get(`/issues/2/interviews/${interviewId}`)).status()).toBe(404);
    await desk.goto(`/help/prepared/${interviewId}`);
    await expect(desk.getByText(/^Taken by them on/)).toBeVisible();
    await expect(desk.getByRole("link", { name: "Continue the interview" })).toHaveCount(0);

    // A second interview for the same person, who is signed in now: they add it themselves. The helper, holding the
    // link, is told it is someone else's; cancelling asks first.
    await desk.goto("/help/prepared/new");
    await desk.getByLabel("Issue").selectOption({ label: "Criminal records and spent convictions" });
    await desk.getByLabel("Their first name").fill("Cy");
    await desk.getByLabel("Their last name").fill("Lim");
    await desk.getByLabel("Their email").fill(email);
    await desk.getByRole("button", { name: "Start the interview" }).click();
    const secondId = desk.url().split("/").at(-1)!;
    await desk.goto(`/help/prepared/${secondId}/cancel`);
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText("Cancel this interview?");
    await expectNoAxeViolations(desk, javaScriptEnabled);
    await desk.getByRole("link", { name: "No, keep it" }).click();
    await desk.getByRole("button", { name: "Send the invitation" }).click();
    await expect(desk.getByRole("status")).toHaveText(`The invitation is sent to ${email}.`);
    const second = emailedLink(email, "/invitation");
    expect(second).not.toBe(invitation);
    await desk.goto(second);
    await expect(desk.getByText(/^This invitation was sent to p•••@example\.org, not to the account you are signed in with\./)).toBeVisible();
    await expectNoAxeViolations(desk, javaScriptEnabled);
    await page.goto(second);
    await axe();
    await page.getByRole("button", { name: "Add it to my interviews" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/2/interviews/${secondId}$`));
    await expect(page.getByRole("status")).toHaveText("The interview is yours now. Carry on where you left off.");

    // An invitation older than 7 days does not work; nor does a made-up one.
    const code = `late-${randomUUID()}`;
    withE2eDatabase((db) => {
      const helperRow = db.prepare("select id from users where email = ?").get(helper.email) as { id: string };
      const lateId = randomUUID();
      const stamp = new Date(Date.now() - 8 * 86_400_000).toISOString();
      db.prepare("insert into interviews (id, user_id, issue_id, status, vars, engine_state, created_at, updated_at) values (?, ?, 2, 'Draft', ?, ?, ?, ?)").run(
        lateId, helperRow.id, sealedColumn("vars", lateId, "{}"), sealedColumn("engine_state", lateId, "{}"), stamp, stamp,
      );
      db.prepare("insert into prepared_interviews (interview_id, helper_id, helper_name, person_first_name, person_last_name, person_email, invitation_hash, invited_at, expires_at, created_at) values (?, ?, 'Hana Helper', 'Di', 'Ng', ?, ?, ?, ?, ?)").run(
        lateId, helperRow.id, uniqueEmail("prep-late"), createHash("sha256").update(code).digest("base64url"), stamp, new Date(Date.now() - 86_400_000).toISOString(), stamp,
      );
    });
    await page.goto(`/invitation?code=${code}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This invitation has expired");
    await expect(page.getByText("Invitations work for 7 days. Ask Hana Helper to send you a new one.")).toBeVisible();
    await axe();
    await page.goto("/invitation?code=made-up");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This invitation link does not work");
    await axe();
  } finally {
    await helper.context.close();
  }
});
