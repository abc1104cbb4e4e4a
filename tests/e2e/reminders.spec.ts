import { createHash, randomBytes } from "node:crypto";
import type { BrowserContext } from "@playwright/test";
import { createCookie } from "react-router";
import { e2eDataDir, e2eSessionSecret } from "../../playwright.config";
import { emailedLink } from "./accounts";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { untranslatedWords } from "./pseudo-language";
import { moveInterviewTo, operatorCommand, outboxMessages, plantInterviews, withE2eDatabase } from "./support";
import { viewer } from "./viewer";

// Reminders of unfinished interviews (issue 29, docs/decisions/0050-reminders.md): asked for on the page after
// "Save and finish later", sent by housekeeping. The clock is moved by running housekeeping's reminder job as the
// operator command `reminders send --now <time>` on the server's database (no endpoint of the server moves time).

const port = Number(process.env.E2E_PORT ?? 3210);
const DAY = 86_400_000;

/** Housekeeping's reminders, as at `now`, with the server's mail settings (its outbox, its address). */
function sendReminders(now: Date) {
  const result = operatorCommand(["reminders", "send", "--now", now.toISOString()], undefined, {
    SESSION_SECRET: e2eSessionSecret,
    DATA_DIR: e2eDataDir,
    PUBLIC_ORIGIN: `http://localhost:${port}`,
  });
  expect(result, result.output).toMatchObject({ status: 0, output: expect.stringContaining("reminder(s) sent") });
}

/** A new session for someone signed out, as signing in again would give (people.ts plants the first). */
async function signInAgain(context: BrowserContext, userId: string) {
  const sessionId = randomBytes(32).toString("base64url");
  const now = new Date();
  withE2eDatabase((db) =>
    db
      .prepare("insert into sessions (id_hash, user_id, pending_user_id, pending_totp_secret, created_at, expires_at, last_seen_at) values (?, ?, null, null, ?, ?, ?)")
      .run(createHash("sha256").update(sessionId).digest("base64url"), userId, now.toISOString(), new Date(now.getTime() + 7 * DAY).toISOString(), now.toISOString()),
  );
  const setCookie = await createCookie("session", { secrets: [e2eSessionSecret], path: "/", httpOnly: true, sameSite: "lax" }).serialize(sessionId);
  await context.addCookies([{ name: "session", value: setCookie.slice("session=".length, setCookie.indexOf(";")), url: `http://localhost:${port}`, httpOnly: true, sameSite: "Lax" }]);
}

test("a reminder asked for on leaving is sent once after its delay; its link continues the interview; its stop link stops the next", async ({ browser, javaScriptEnabled }) => {
  const person = await signedInPerson(browser, javaScriptEnabled, "reminder", { firstName: "Rita" });
  const { page } = person;
  const axe = () => expectNoAxeViolations(page, javaScriptEnabled);
  try {
    const [first, second] = plantInterviews(person.email, [
      { issueId: 1, status: "Draft", daysAgo: 0 },
      { issueId: 1, status: "Draft", daysAgo: 1 },
    ]);
    moveInterviewTo(first!, "05-Save point");
    const asked = new Date();

    // Save and finish later: the home page says the answers are saved, and offers the reminder.
    await page.goto(`/issues/1/interviews/${first}`);
    await viewer(page).getByRole("button", { name: "Save and finish later" }).click();
    await expect(page).toHaveURL(/\/$/);
    const notice = page.getByRole("status").filter({ hasText: "Your answers are saved" });
    const offer = notice.getByRole("button", { name: /^Email me on .+ if I have not finished$/ });
    await expect(offer).toBeVisible();
    await expect(notice.getByText("We will send one email with a link to continue.")).toBeVisible();
    await axe();
    await offer.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(notice.getByText(/^We will email you on .+ if you have not finished\.$/)).toBeVisible();
    await expect(notice.getByRole("button", { name: /^Email me on/ })).toHaveCount(0);
    await axe();

    // Another unfinished interview the person asked to be reminded of, due an hour after the first.
    withE2eDatabase((db) =>
      db
        .prepare("insert into interview_reminders (interview_id, user_id, language, created_at, due_at) values (?, ?, 'en', ?, ?)")
        .run(second, person.id, asked.toISOString(), new Date(asked.getTime() + 7 * DAY + 3_600_000).toISOString()),
    );
    const reminders = () => outboxMessages().filter((message) => message.to_address === person.email);

    // Not before the delay; after it, one a day at most (two are due); never again (the last run below).
    sendReminders(new Date(asked.getTime() + 6 * DAY));
    expect(reminders()).toHaveLength(0);
    sendReminders(new Date(asked.getTime() + 8 * DAY));
    expect(reminders()).toHaveLength(1);
    const [reminder] = reminders();
    expect(reminder!.subject).toBe("Your interview is not finished yet");
    expect(reminder!.text).toContain("Hello Rita Tester,");
    expect(reminder!.text).toContain("Continue my interview: ");
    expect(reminder!.html).toContain(`/issues/1/interviews/${first}`);

    // Its link continues the interview: through sign-in while signed out, straight there once signed in.
    const continueAt = emailedLink(person.email, `/issues/1/interviews/${first}`);
    await page.goto(continueAt);
    await expect(page).toHaveURL(new RegExp(`/auth/sign-in\\?returnTo=%2Fissues%2F1%2Finterviews%2F${first}$`));
    await signInAgain(person.context, person.id);
    await page.goto(continueAt);
    await expect(page).toHaveURL(new RegExp(`/issues/1/interviews/${first}$`));
    await expect(viewer(page).getByRole("button", { name: "Save and finish later" })).toBeVisible();
    await axe();

    // Its stop link: opening it changes nothing; the button stops the reminders not yet sent.
    const stopUrl = new URL(reminder!.text.match(/http:\/\/\S+\/reminders\/stop\?code=\S+/)![0]);
    const stopAt = stopUrl.pathname + stopUrl.search;
    await page.goto(stopAt);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stop reminders");
    await expect(page).toHaveTitle(/^Stop reminders/);
    await axe();
    if (javaScriptEnabled) {
      // A mail program's one-click unsubscribe (RFC 8058) stops them as the button does.
      const oneClick = await page.request.post(stopAt, { form: { "List-Unsubscribe": "One-Click" }, maxRedirects: 0 });
      expect(oneClick.status()).toBe(303);
      await page.goto(stopAt);
    } else {
      await page.getByRole("button", { name: "Stop reminders" }).click();
    }
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reminders stopped");
    await expect(page.getByRole("status").filter({ hasText: "We will not send you any more reminders." })).toBeVisible();
    await axe();
    sendReminders(new Date(asked.getTime() + 12 * DAY));
    expect(reminders()).toHaveLength(1);

    // A link that names nothing says so.
    const unknown = await page.goto("/reminders/stop?code=not-a-code");
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");
    await expect(page.getByRole("button", { name: "Stop reminders" })).toHaveCount(0);
    await axe();

    // Every word of these pages is in the catalogues (the pseudo-language shows any that is not).
    for (const path of [`${stopAt}&lang=en-XA`, "/reminders/stop?code=not-a-code&lang=en-XA"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
      expect(await untranslatedWords(page), path).toEqual([]);
    }
  } finally {
    await person.context.close();
  }
});

test("the organisation sets how many days a reminder waits: a wrong number is explained", async ({ browser, javaScriptEnabled }) => {
  const admin = await signedInPerson(browser, javaScriptEnabled, "reminder-admin", { role: "administrator" });
  const { page } = admin;
  const axe = () => expectNoAxeViolations(page, javaScriptEnabled);
  try {
    await page.goto("/admin");
    await page.getByRole("link", { name: "Reminders" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reminders");
    const days = page.getByLabel("Days to wait before the reminder");
    await expect(days).toHaveValue("7");
    await axe();
    await days.fill("91");
    await page.getByRole("button", { name: "Save reminders" }).click();
    await expect(page.getByRole("alert").getByRole("link", { name: "Days to wait before the reminder: Enter a whole number of days from 0 to 90." })).toBeVisible();
    await expect(page).toHaveTitle(/^Error: Reminders/);
    await axe();
    // The default again (other tests run beside this one: the setting they rely on stays as it is).
    await days.fill("7");
    await page.getByRole("button", { name: "Save reminders" }).click();
    await expect(page.getByText("Reminders are sent 7 days after a person asks.")).toBeVisible();
    await expect(days).toHaveValue("7");
  } finally {
    await admin.context.close();
  }
});
