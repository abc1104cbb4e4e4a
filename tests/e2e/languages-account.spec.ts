import type { Page } from "@playwright/test";
import { PASSWORD, signUpToRecoveryCodes, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { signedInPerson } from "./people";
import { overflowAt320, untranslatedWords } from "./pseudo-language";
import { outboxMessages, plantAtFinish, plantInterviews, withE2eDatabase } from "./support";

// The account's pages (issue 26): every word of ours on them is in the catalogue. Each page, and its main error
// states, is rendered in the pseudo-language (?lang=en-XA sets it for the pages after it, as the switcher does),
// where any plain English left is a word nobody translated. And pages and the reply email in French and Arabic.

const pseudo = "lang=en-XA";

async function expectAllTranslated(page: Page, where: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
  // An interview's answers are summed up by the viewer's own component (app/viewer/, its words a later issue's),
  // with the guide's questions and the person's answers: left out here.
  await page.locator(".answer-summary").evaluateAll((sections) => sections.forEach((section) => section.setAttribute("translate", "no")));
  expect.soft(await untranslatedWords(page), where).toEqual([]);
  expect.soft(await overflowAt320(page), `${where} at 320 px`).toEqual([]);
}

/** The one submit button of the page's main form (its words are pseudo-translated: found by place, not name). */
const submit = (page: Page) => page.locator("main form.form button[type=submit]").last();

test("every account page and its error states are all in the catalogue", async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("words-account");
  // Signing up in English (its helpers read English labels) ends on the fresh recovery codes.
  await signUpToRecoveryCodes(page, email);
  await page.goto(`/account/recovery-codes?${pseudo}`);
  await expect(page.locator("ol.recovery-codes li")).toHaveCount(10);
  await expectAllTranslated(page, "recovery codes, shown");
  await page.locator("button[name=intent][value=saved]").click();
  await expect(page).not.toHaveURL(/recovery-codes/);

  for (const path of [
    "/account/dashboard",
    "/account/interview",
    "/account/edit-profile",
    "/account/change-password",
    "/account/recovery-codes",
    "/account/recovery-codes?used=1",
    "/account/authenticator",
    "/account/delete-account",
    "/account/my-data",
    "/account/my-data?wait=5",
  ]) {
    await page.goto(path);
    await expectAllTranslated(page, path);
  }

  // Submitted empty, and refused.
  for (const path of ["/account/change-password", "/account/recovery-codes", "/account/authenticator", "/account/delete-account"]) {
    await page.goto(path);
    await submit(page).click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expectAllTranslated(page, `${path}, empty`);
  }
  await page.goto("/account/edit-profile");
  await page.locator("#edit-profile-firstName").fill(" ");
  await page.locator("form#edit-profile button[type=submit]").click();
  await expect(page.locator(".error-summary")).toBeVisible();
  await expectAllTranslated(page, "edit profile, empty name");
  await page.locator("#edit-profile-firstName").fill("Ana");
  await page.locator("form#edit-profile button[type=submit]").click();
  await expect(page.getByRole("status")).toBeVisible();
  await expectAllTranslated(page, "edit profile, saved");

  await page.goto("/account/change-password");
  await page.locator("#change-password-currentPassword").fill("not my password 1");
  await page.locator("#change-password-password").fill("a new password 2");
  await page.locator("#change-password-confirmPassword").fill("a new password 2");
  await submit(page).click();
  await expect(page.locator("#change-password-currentPassword")).toHaveAttribute("aria-invalid", "true");
  await expectAllTranslated(page, "change password, wrong current password");

  await page.goto("/account/delete-account");
  await page.locator("#delete-account-password").fill(PASSWORD);
  await page.locator("#delete-account-code").fill("000000");
  await submit(page).click();
  await expect(page.locator(".error-summary")).toBeVisible();
  await expectAllTranslated(page, "delete account, wrong code");

  // My interviews with interviews in it: statuses, dates, paging, delete, the answers and asking for help.
  const ids = plantInterviews(
    email,
    Array.from({ length: 7 }, (_, i) => ({ issueId: i % 2 ? 2 : 6, status: i % 3 === 0 ? ("Completed" as const) : ("Draft" as const), daysAgo: i })),
  );
  const finished = plantAtFinish(email, 2);
  withE2eDatabase((db) => db.prepare("update interviews set status = 'Completed' where id = ?").run(finished));
  for (const path of [
    "/account/interview",
    "/account/interview?page=2&size=5",
    `/account/interview/${ids[1]}/delete`,
    `/account/interview/${finished}/answers`,
    `/account/interview/${ids[1]}/help`,
  ]) {
    await page.goto(path);
    await expectAllTranslated(page, path);
  }
  // Nothing chosen to share.
  await page.locator("input[name=share]").uncheck();
  await submit(page).click();
  await expect(page.locator(".error-summary")).toBeVisible();
  await expectAllTranslated(page, "help, nothing chosen");
  // Deleted: the toast.
  await page.goto(`/account/interview/${ids[1]}/delete`);
  await page.locator("main form[action$='/delete'] button[type=submit]").click();
  await expect(page.getByRole("status")).toBeVisible();
  await expectAllTranslated(page, "interview deleted");
});

test("sharing in French, a helper's reply emailed in French, and the replies and who has seen them all in the catalogue", async ({ browser, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const person = await signedInPerson(browser, javaScriptEnabled, "words-share", { firstName: "Ann", lastName: "Lee" });
  // A helper for Australia's bond issue only: other specs' helpers (UK) do not see this request.
  const helper = await signedInPerson(browser, javaScriptEnabled, "words-helper", { role: "helper", helps: { issues: [6] }, firstName: "Hana", lastName: "Helper" });
  const [interviewId] = plantInterviews(person.email, [{ issueId: 6, status: "Draft", daysAgo: 0 }]);
  try {
    const own = person.page;
    // The page in French (the choice is kept in the account: the email follows it).
    await own.goto(`/account/interview/${interviewId}/help?lang=fr`);
    await expect(own.locator("html")).toHaveAttribute("lang", "fr");
    await expect(own.getByRole("heading", { level: 1 })).toHaveText("Aide pour cette entrevue");
    await expect(own.getByRole("navigation", { name: "Fil d'Ariane" }).getByRole("listitem")).toHaveText(["Accueil", "Votre compte", "Aide pour cette entrevue"]);
    // The person's and the helper's own words are shown as written: Chinese here, so no Latin letter of theirs
    // is taken for an untranslated word of ours below.
    await own.getByLabel("Message pour l'aidant (facultatif)").fill("请检查我的日期。");
    await own.getByRole("button", { name: "Partager avec un aidant" }).click();
    await expect(own.getByRole("status")).toHaveText("Votre entrevue est partagée avec nos aidants.");
    await expect(own.getByText("En attente d'un aidant")).toBeVisible();

    // The helper takes it and replies (the help desk is the staff's, in English).
    const shareId = withE2eDatabase((db) => (db.prepare("select id from interview_shares where interview_id = ?").get(interviewId) as { id: string }).id);
    const desk = helper.page;
    await desk.goto(`/help/requests/${shareId}`);
    await desk.getByRole("button", { name: "Take this request" }).click();
    await expect(desk.getByRole("status")).toHaveText("The request is yours.");
    await desk.getByLabel("Your reply").fill("您的日期是正确的。");
    await desk.getByRole("button", { name: "Send reply" }).click();
    await expect(desk.getByRole("status")).toHaveText("Your reply is sent.");

    // The email says there is a reply, in French.
    const [notice] = outboxMessages().filter((message) => message.to_address === person.email);
    expect(notice?.subject).toBe("Un aidant vous a répondu");
    expect(notice?.text).toContain("Bonjour Ann Lee,");
    expect(notice?.text).toContain("Une personne de notre équipe a répondu à votre demande d'aide.");
    expect(notice?.text).toContain(`/account/interview/${interviewId}/help`);
    expect(notice?.html).toContain(`lang="fr"`);

    // My interviews in Arabic, right to left: the new reply.
    await own.goto("/account/interview?lang=ar");
    await expect(own.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(own.getByRole("heading", { level: 1 })).toHaveText("مقابلاتي");
    await expect(own.getByRole("link", { name: "رد جديد من أحد المساعدين" })).toBeVisible();

    // The replies, the status and who has seen what, in the pseudo-language.
    await own.goto(`/account/interview/${interviewId}/help?${pseudo}`);
    await expect(own.getByText("您的日期是正确的。")).toBeVisible();
    await expectAllTranslated(own, "help, shared, with a reply and who has seen it");
    await own.goto(`/account/interview?${pseudo}`);
    await expectAllTranslated(own, "my interviews, shared, with a new reply");
  } finally {
    await Promise.all([person, helper].map(({ context }) => context.close()));
  }
});
