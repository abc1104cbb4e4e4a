import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { e2eDataKey } from "../../playwright.config";
import { hashPassword, sealTwoFactorValue } from "~/auth/crypto.server";
import { dataKeyring } from "~/security/data-encryption.server";
import { PASSWORD, totpCode } from "./accounts";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { interviewVars, moveInterviewTo, plantInterviews, withE2eDatabase } from "./support";
import { viewer } from "./viewer";

// Issue 29, part 4 (docs/decisions/0051-session-expiry-loses-nothing.md): a form posted after the session expired
// is kept, and the person, signed in again with their second factor, lands on the same page with what they typed;
// with script, a dialog warns two minutes before the session ends and "Stay signed in" keeps it alive.

const ISSUE = 1; // the case-summary guide: "Rephrase with AI" on its long answers
const OUTCOME_LABEL = /What I would like to happen/;
const IDLE_MS = 8 * 60 * 60_000;
const keys = dataKeyring(Buffer.from(e2eDataKey, "base64"));

/** A signed-in person who can also sign in again: a password and an authenticator (its secret returned). */
async function personWithSignIn(browser: Browser, javaScriptEnabled: boolean, label: string) {
  const person = await signedInPerson(browser, javaScriptEnabled, label);
  const secret = new OTPAuth.Secret({ buffer: randomBytes(20).buffer }).base32;
  const hash = await hashPassword(PASSWORD);
  withE2eDatabase((db) =>
    db.prepare("update users set password_hash = ?, totp_secret = ? where id = ?").run(hash, sealTwoFactorValue(secret, "users.totp_secret", person.id, keys), person.id),
  );
  return { ...person, secret };
}

/** The person's sessions last saw a request `msAgo` ago (8 hours and more: expired). */
function lastSeen(userId: string, msAgo: number) {
  withE2eDatabase((db) => db.prepare("update sessions set last_seen_at = ? where user_id = ?").run(new Date(Date.now() - msAgo).toISOString(), userId));
}

function keptPosts(userId: string): number {
  return withE2eDatabase((db) => (db.prepare("select count(*) as n from kept_posts where user_id = ?").get(userId) as { n: number }).n);
}

/** On the sign-in page that says the form was kept: signs in with the password and a code. */
async function signInAgain(page: Page, person: { email: string; secret: string }, js: boolean) {
  await expect(page).toHaveURL(/\/auth\/sign-in\?returnTo=.*kept%3D/);
  await expect(page.getByRole("status").filter({ hasText: "We have kept what you sent: sign in to save it." })).toBeVisible();
  await expectNoAxeViolations(page, js);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
  await page.getByLabel("Verification code").fill(totpCode(person.secret));
  await page.getByRole("button", { name: "Verify" }).click();
}

test.describe("session expiry loses nothing", () => {
  test("a page of answers posted after the session expired is saved on that page after signing in again", async ({ browser }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    const person = await personWithSignIn(browser, js, "expiry-interview");
    const page = person.page;
    const [id] = plantInterviews(person.email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "09-Outcome");
    await page.goto(`/issues/${ISSUE}/interviews/${id}`);
    const typed = `Kept after the session ended ${randomBytes(4).toString("hex")}`;
    const frame = viewer(page);
    await frame.getByLabel(OUTCOME_LABEL).fill(typed);
    // With script, the frame is ready to take the step over (it asked for its token).
    if (js) await expect.poll(() => page.frames().find((f) => f.url().includes("/viewer?"))?.locator("#viewer-heading").count()).toBe(1);

    lastSeen(person.id, IDLE_MS + 60_000);
    await frame.getByRole("button", { name: "Continue", exact: true }).click();
    if (js) {
      // The frame takes the step over and is told to sign in; its link leads there, with the form kept.
      const inFrame = page.frameLocator("iframe.viewer-frame");
      await expect(inFrame.getByText("Please sign in to continue your interview.")).toBeVisible();
      await expectNoAxeViolations(page, true);
      await inFrame.getByRole("link", { name: "Sign In" }).click();
    }
    expect(keptPosts(person.id)).toBe(1);
    await signInAgain(page, person, info.project.use.javaScriptEnabled !== false);

    // Back on the same page, with what was typed, saved; the kept form is gone (used once).
    await expect(page).toHaveURL(new RegExp(`/issues/${ISSUE}/interviews/${id}(#viewer-heading)?$`));
    await expect(page.getByRole("status").filter({ hasText: "You were signed out, so we kept what you sent. It is saved now." })).toBeVisible();
    const again = viewer(page);
    await expect(again.locator("[data-viewer]")).toHaveAttribute("data-page", /^09-Outcome/);
    await expect(again.getByLabel(OUTCOME_LABEL)).toHaveValue(typed);
    expect(interviewVars(id!)["outcome wanted te"]?.values).toEqual([null, typed]);
    expect(keptPosts(person.id)).toBe(0);
    await expectNoAxeViolations(page, info.project.use.javaScriptEnabled !== false);
  });

  test("the rephrase form posted after the session expired is there after signing in again", async ({ browser }, info) => {
    const person = await personWithSignIn(browser, info.project.use.javaScriptEnabled !== false, "expiry-rephrase");
    const page = person.page;
    const [id] = plantInterviews(person.email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "09-Outcome");
    const path = `/ai/rephrase/${id}?variable=outcome+wanted+te&index=1`;
    await page.goto(path);
    const typed = `Please rephrase this kept text ${randomBytes(4).toString("hex")}`;
    await page.getByLabel("Your answer").fill(typed);
    lastSeen(person.id, IDLE_MS + 60_000);
    await page.getByRole("button", { name: "Continue" }).click();
    await signInAgain(page, person, info.project.use.javaScriptEnabled !== false);
    await expect(page).toHaveURL(new RegExp(`/ai/rephrase/${id}\\?variable=outcome\\+wanted\\+te&index=1&kept=`));
    await expect(page.getByRole("status").filter({ hasText: "we kept what you typed. Check it and send it again." })).toBeVisible();
    await expect(page.getByLabel("Your answer")).toHaveValue(typed);
    expect(keptPosts(person.id)).toBe(0);
    await expectNoAxeViolations(page, info.project.use.javaScriptEnabled !== false);
    // Used once: the same address again shows the answer as saved (empty), not the kept text.
    await page.reload();
    await expect(page.getByLabel("Your answer")).not.toHaveValue(typed);
  });

  test("the Understand my situation form posted after the session expired is there after signing in again", async ({ browser }, info) => {
    const person = await personWithSignIn(browser, info.project.use.javaScriptEnabled !== false, "expiry-understand");
    const page = person.page;
    await page.goto(`/issues/${ISSUE}/understand`);
    const question = `My landlord kept my bond, what can I do? ${randomBytes(4).toString("hex")}`;
    await page.getByLabel("Your question").fill(question);
    lastSeen(person.id, IDLE_MS + 60_000);
    await page.getByRole("button", { name: /^(Explain|Search our sources)$/ }).click();
    await signInAgain(page, person, info.project.use.javaScriptEnabled !== false);
    await expect(page).toHaveURL(new RegExp(`/issues/${ISSUE}/understand\\?kept=`));
    await expect(page.getByRole("status").filter({ hasText: "we kept what you typed." })).toBeVisible();
    await expect(page.getByLabel("Your question")).toHaveValue(question);
    await expectNoAxeViolations(page, info.project.use.javaScriptEnabled !== false);
  });

  test("a kept form is given back only to its own account", async ({ browser }, info) => {
    const js = info.project.use.javaScriptEnabled !== false;
    const owner = await personWithSignIn(browser, js, "expiry-owner");
    await owner.page.goto(`/issues/${ISSUE}/understand`);
    await owner.page.getByLabel("Your question").fill("Only mine to see");
    lastSeen(owner.id, IDLE_MS + 60_000);
    await owner.page.getByRole("button", { name: /^(Explain|Search our sources)$/ }).click();
    await expect(owner.page).toHaveURL(/\/auth\/sign-in\?returnTo=/);
    const returnTo = new URL(owner.page.url()).searchParams.get("returnTo")!;
    const other = await signedInPerson(browser, js, "expiry-other");
    await other.page.goto(returnTo);
    await expect(other.page.getByLabel("Your question")).toHaveValue("");
    expect(keptPosts(owner.id)).toBe(1);
    await other.context.close();
  });
});

test.describe("Stay signed in", () => {
  test("without script, Stay signed in is a plain form that comes back to the page", async ({ browser }, info) => {
    const person = await signedInPerson(browser, info.project.use.javaScriptEnabled !== false, "expiry-plain");
    lastSeen(person.id, IDLE_MS - 10 * 60_000);
    const response = await person.page.request.post("/session/stay-signed-in", {
      form: { returnTo: `/issues/${ISSUE}/understand` },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe(`/issues/${ISSUE}/understand`);
    const seen = withE2eDatabase((db) => (db.prepare("select last_seen_at from sessions where user_id = ?").get(person.id) as { last_seen_at: string }).last_seen_at);
    expect(Date.now() - new Date(seen).getTime()).toBeLessThan(60_000);
  });
});

test.describe("the warning before the session ends", { tag: "@script-only" }, () => {
  test("a dialog warns two minutes before the session ends; Stay signed in keeps it alive", async ({ browser }, info) => {
    test.skip(info.project.use.javaScriptEnabled === false, "the dialog needs script; without it a form posted late is kept");
    const person = await signedInPerson(browser, true, "expiry-dialog");
    const page = person.page;
    await page.clock.install();
    await page.goto(`/issues/${ISSUE}/understand`);
    const dialog = page.getByRole("dialog", { name: "You're about to be signed out" });
    await expect(dialog).toBeHidden();
    await page.getByLabel("Your question").focus();

    // Eight hours less 90 seconds without a request: the page's timer fires and the server says 90 s are left.
    lastSeen(person.id, IDLE_MS - 90_000);
    await page.clock.fastForward(IDLE_MS - 2 * 60_000 + 1000);
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription("You have not done anything for a while. For your security, we will sign you out soon.");
    await expect(dialog.getByRole("button", { name: "Stay signed in" })).toBeFocused();
    await expectNoAxeViolations(page, info.project.use.javaScriptEnabled !== false);

    // With the keyboard: Enter on the focused button.
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel("Your question")).toBeFocused();
    const seen = withE2eDatabase((db) => (db.prepare("select last_seen_at from sessions where user_id = ?").get(person.id) as { last_seen_at: string }).last_seen_at);
    expect(Date.now() - new Date(seen).getTime()).toBeLessThan(60_000);
    const status = await page.request.get("/session/status");
    expect((await status.json()).secondsLeft).toBeGreaterThan(IDLE_MS / 1000 - 120);
    // Asking how long is left does not count as a request.
    const after = withE2eDatabase((db) => (db.prepare("select last_seen_at from sessions where user_id = ?").get(person.id) as { last_seen_at: string }).last_seen_at);
    expect(after).toBe(seen);
  });
});
