import { randomBytes, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { aiStandInUrl, noAiDataDir, noAiPort } from "../../playwright.config";
import type { ChatRequest } from "../support/ai-stand-in";
import { createAccount, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { interviewVars, moveInterviewTo, onServerData, plantInterviews, setInterviewVars } from "./support";
import { fillDate, moved, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 1 runs the case-summary guide and offers "Rephrase with AI" on its long-text questions.
const ISSUE = 1;
const OUTCOME_LABEL = /What I would like to happen/;
const UNAVAILABLE = "Rephrasing with AI is not available at the moment. Your own text is kept.";

/** A signed-in person with a Draft interview of issue 1 at the given page; returns the interview's id. */
async function interviewAt(page: Page, pageName: string, loopIndex: number | null = null): Promise<string> {
  const email = uniqueEmail("rephrase");
  await plantSignedIn(page, email);
  const [id] = plantInterviews(email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
  moveInterviewTo(id!, pageName, loopIndex);
  return id!;
}

/**
 * A marker to find this test's request among the AI stand-in's: letters only, since a hex id can be all
 * digits (8 of them, about 1 run in 40) and then is redacted as a phone number before it is sent.
 */
const letterMarker = () => Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join("");

/** The requests the AI stand-in received whose user message contains `marker`. */
async function aiRequestsWith(marker: string): Promise<ChatRequest[]> {
  const all = (await (await fetch(`${aiStandInUrl}/requests`)).json()) as ChatRequest[];
  return all.filter((request) => request.body.messages?.some((m) => m.role === "user" && m.content.includes(marker)));
}

async function openRephraseFromViewer(page: Page, interviewId: string, text: string) {
  await page.goto(`/issues/${ISSUE}/interviews/${interviewId}`);
  const frame = viewer(page);
  await frame.getByLabel(OUTCOME_LABEL).fill(text);
  await frame.getByRole("button", { name: /^Rephrase with AI/ }).click();
  await expect(page).toHaveURL(new RegExp(`/ai/rephrase/${interviewId}\\?variable=outcome\\+wanted\\+te&index=1$`));
}

test.describe("AI rephrase", () => {
  test("from the interview and back: the AI's text, then the person's own, each saved on the same page", async ({ page, axe }) => {
    const id = await interviewAt(page, "09-Outcome");
    const marker = letterMarker();
    const typed = `I want my bond back (${marker}). Email me at ana.lim@example.org or call 0412 345 678.`;
    await openRephraseFromViewer(page, id, typed);

    // What was typed in the frame was kept, and is shown for editing.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rephrase with AI");
    await expect(page.getByText("AI-written text can be wrong and is not legal advice.")).toBeVisible();
    await expect(page.getByText("What I would like to happen")).toBeVisible();
    await expect(page.getByLabel("Your answer")).toHaveValue(typed);
    await axe();

    await page.getByRole("button", { name: "Continue" }).click();
    const suggestion = `A clearer version: ${typed}`;
    await expect(page.getByRole("group", { name: "Which text do you want to keep?" })).toBeVisible();
    // Neither text is chosen for the person.
    await expect(page.getByRole("radio", { name: "Use the AI's text" })).not.toBeChecked();
    await expect(page.getByRole("radio", { name: "Keep my own text" })).not.toBeChecked();
    await expect(page.locator("#choice-ai-text")).toHaveText(suggestion);
    await expect(page.locator("#choice-own-text")).toHaveText(typed);
    await axe();

    // Continue without a choice: a clear error, both texts still side by side, nothing saved.
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("alert")).toContainText("Please choose the text you want to keep.");
    await expect(page.getByRole("group", { name: "Which text do you want to keep?" })).toHaveAccessibleDescription(
      "Please choose the text you want to keep.",
    );
    await expect(page.locator("#choice-ai-text")).toHaveText(suggestion);
    await expect(page.locator("#choice-own-text")).toHaveText(typed);
    expect(interviewVars(id)["outcome wanted te"]?.values).toEqual([null, typed]);
    await axe();
    await page.getByRole("radio", { name: "Use the AI's text" }).check();

    // One request: the issue's model, a system message from the issue, the text without personal details.
    const [request, ...more] = await aiRequestsWith(marker);
    expect(more).toHaveLength(0);
    expect(request!.body.model).toBe("gpt-3.5-turbo");
    expect(request!.headers.authorization).toBe("Bearer e2e-ai-key");
    const [system, user] = request!.body.messages!;
    expect(system!.role).toBe("system");
    expect(system!.content).toContain("describe their family situation clearly");
    expect(system!.content).toContain("Family Justice Courts");
    expect(user!.content).toBe(`I want my bond back (${marker}). Email me at [EMAIL_1] or call [PHONE_1].`);
    expect(JSON.stringify(request!.body)).not.toMatch(/ana\.lim@example\.org|0412 345 678/);

    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/${ISSUE}/interviews/${id}$`));
    await expect(page.getByRole("status").filter({ hasText: "Your answer now uses the AI's text." })).toBeVisible();
    const frame = viewer(page);
    await expect(frame.locator("[data-viewer]")).toHaveAttribute("data-page", "09-Outcome:1");
    await expect(frame.getByLabel(OUTCOME_LABEL)).toHaveValue(suggestion);
    expect(interviewVars(id)["outcome wanted te"]?.values).toEqual([null, suggestion]);
    await axe();

    // Again, with the text edited on the rephrase screen, and the person's own text kept.
    await frame.getByRole("button", { name: /^Rephrase with AI/ }).click();
    await expect(page.getByLabel("Your answer")).toHaveValue(suggestion);
    const own = `In my own words (${marker}): please return the bond.`;
    await page.getByLabel("Your answer").fill(own);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("radio", { name: "Keep my own text" }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your own text is kept." })).toBeVisible();
    await expect(viewer(page).getByLabel(OUTCOME_LABEL)).toHaveValue(own);
    expect(interviewVars(id)["outcome wanted te"]?.values).toEqual([null, own]);
  });

  test("a time-out, a 500 and malformed JSON each give a clear message and lose nothing", async ({ page, axe }) => {
    const id = await interviewAt(page, "09-Outcome");
    const cases = [
      { word: "[[slow]]", message: "The AI took too long to answer. Your text has not changed. Please try again in a moment." },
      { word: "[[error]]", message: "The AI could not rephrase your text just now. Your text has not changed. Please try again later." },
      { word: "[[malformed]]", message: "The AI could not rephrase your text just now. Your text has not changed. Please try again later." },
    ];
    const first = `My first words ${cases[0]!.word}`;
    await openRephraseFromViewer(page, id, first);
    for (const { word, message } of cases) {
      const text = `Please help ${word} ${randomUUID().slice(0, 6)}`;
      await page.getByLabel("Your answer").fill(text);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("alert")).toContainText(message);
      await expect(page.getByLabel("Your answer")).toHaveValue(text);
      await axe();
    }
    // The saved answer is still what was typed in the interview.
    expect(interviewVars(id)["outcome wanted te"]?.values).toEqual([null, first]);
    await page.getByRole("link", { name: "Back to the interview" }).click();
    await expect(viewer(page).getByLabel(OUTCOME_LABEL)).toHaveValue(first);
  });

  test("markup in the AI's answer is shown as text and saved as text", async ({ page, axe }) => {
    const id = await interviewAt(page, "09-Outcome");
    await openRephraseFromViewer(page, id, "Make it bold [[markup]]");
    await page.getByRole("button", { name: "Continue" }).click();
    const markup = '<b>Bold</b> <img src=x onerror="alert(1)"><script>alert(2)</script> & done';
    const shown = page.locator("#choice-ai-text");
    await expect(shown).toHaveText(markup);
    await expect(shown.locator("b, img, script")).toHaveCount(0);
    await axe();
    await page.getByRole("radio", { name: "Use the AI's text" }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(viewer(page).getByLabel(OUTCOME_LABEL)).toHaveValue(markup);
  });

  test("in a loop, the answer of that round is rephrased and the others stay", async ({ page }) => {
    const id = await interviewAt(page, "07-Event", 2);
    const values = [null, "The first event.", "The second event.", "The third event."];
    setInterviewVars(id, {
      "event description te": { name: "Event description TE", type: "Text", repeating: true, values },
      eventindex: { name: "EventIndex", type: "Number", repeating: false, values: [null, 2] },
    });
    await page.goto(`/issues/${ISSUE}/interviews/${id}`);
    const frame = viewer(page);
    await expect(frame.getByLabel(/What happened\?/)).toHaveValue("The second event.");
    await frame.getByRole("button", { name: /^Rephrase with AI/ }).click();
    await expect(page).toHaveURL(new RegExp(`/ai/rephrase/${id}\\?variable=event\\+description\\+te&index=2$`));
    await expect(page.getByLabel("Your answer")).toHaveValue("The second event.");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("radio", { name: "Use the AI's text" }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(viewer(page).locator("[data-viewer]")).toHaveAttribute("data-page", "07-Event:2");
    expect(interviewVars(id)["event description te"]?.values).toEqual([
      null,
      "The first event.",
      "A clearer version: The second event.",
      "The third event.",
    ]);
  });

  test("Enter in a text field presses the page's button, not Rephrase with AI", async ({ page }) => {
    const id = await interviewAt(page, "07-Event", 1);
    await page.goto(`/issues/${ISSUE}/interviews/${id}`);
    const frame = viewer(page);
    await frame.getByLabel(/What happened\?/).fill("The landlord changed the locks.");
    await fillDate(frame, /^Date/, { day: "3", month: "2", year: "2024" });
    await frame.getByLabel("Year").press("Enter");
    await moved(frame, "07-Event:1");
    // Without script the whole window moves on, to the next page's heading.
    await expect(page).toHaveURL(new RegExp(`/issues/${ISSUE}/interviews/${id}(#viewer-heading)?$`));
    expect(interviewVars(id)["event description te"]?.values).toEqual([null, "The landlord changed the locks."]);
  });

  test("only the owner's Draft interview, and only the questions the issue offers; visitors sign in first", async ({ page, browser, javaScriptEnabled }) => {
    const id = await interviewAt(page, "09-Outcome");
    const path = `/ai/rephrase/${id}?variable=outcome+wanted+te&index=1`;
    expect((await page.request.get(path)).status()).toBe(200);
    for (const wrong of [
      `/ai/rephrase/${id}?variable=first+name+te&index=1`,
      `/ai/rephrase/${id}?variable=outcome+wanted+te&index=0`,
      `/ai/rephrase/${randomUUID()}?variable=outcome+wanted+te`,
      `/ai/rephrase/not-an-id?variable=outcome+wanted+te`,
      `/ai/nope`,
    ]) {
      expect((await page.request.get(wrong)).status(), wrong).toBe(404);
    }
    const other = await browser.newContext({ javaScriptEnabled });
    const otherPage = await other.newPage();
    await plantSignedIn(otherPage, uniqueEmail("rephrase-other"));
    expect((await otherPage.request.get(path)).status()).toBe(404);
    const save = await otherPage.request.post(path, { form: { intent: "save", choice: "own", text: "Not mine" } });
    expect(save.status()).toBe(404);
    await other.close();
    expect(interviewVars(id)["outcome wanted te"]).toBeUndefined();

    const visitor = await browser.newContext({ javaScriptEnabled });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(path);
    await expect(visitorPage).toHaveURL(/\/auth\/sign-in\?returnTo=%2Fai%2Frephrase%2F/);
    await visitor.close();
  });

  test("a person may ask the AI 20 times an hour", async ({ page }) => {
    const id = await interviewAt(page, "09-Outcome");
    const path = `/ai/rephrase/${id}?variable=outcome+wanted+te&index=1`;
    for (let i = 0; i < 20; i++) {
      const response = await page.request.post(path, { form: { intent: "ask", text: `Attempt ${i}` } });
      expect(await response.text()).toContain(`A clearer version: Attempt ${i}`);
    }
    const limited = await page.request.post(path, { form: { intent: "ask", text: "One more" } });
    expect(limited.status()).toBe(429);
    expect(await limited.text()).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./);
  });

  // The pending state is the page's script; without it the browser shows its own loading state.
  test("with script, the form says it is waiting for the AI", { tag: "@script-only" }, async ({ page }) => {
    const id = await interviewAt(page, "09-Outcome");
    await openRephraseFromViewer(page, id, "Take your time [[slow]]");
    // The page's script (deferred) must have run before Continue is pressed, or the form simply posts.
    await page.waitForLoadState("load");
    // Locators wait while a navigation is pending, so the page itself reports what its status region says.
    const reported: string[] = [];
    page.on("console", (message) => {
      if (message.text().startsWith("pending:")) reported.push(message.text());
    });
    await page.evaluate(() => {
      const status = document.querySelector("[data-pending-status]")!;
      new MutationObserver(() => {
        const busy = status.closest("form")!.getAttribute("aria-busy");
        console.log(`pending: ${busy} ${status.textContent}`);
      }).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("alert")).toContainText("The AI took too long to answer.");
    // Console messages reach the test asynchronously: on a loaded machine the last may come after the alert.
    await expect.poll(() => reported).toContain("pending: true The AI is rephrasing your text. This can take up to 2 seconds.");
    await expect(page.locator("form[aria-busy=true]")).toHaveCount(0);
  });
});

test.describe("AI rephrase without an AI endpoint", () => {
  test.use({ baseURL: `http://localhost:${noAiPort}` });

  test("the interview offers no AI help; the screen opened anyway says the feature is unavailable and changes nothing", async ({ page, axe }) => {
    const email = uniqueEmail("no-ai");
    await createAccount(page, email);
    const id = onServerData(noAiDataDir, () => {
      const [planted] = plantInterviews(email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
      moveInterviewTo(planted!, "09-Outcome");
      return planted!;
    });
    onServerData(noAiDataDir, () =>
      setInterviewVars(id, { "outcome wanted te": { name: "Outcome wanted TE", type: "Text", repeating: false, values: [null, "My words, unchanged."] } }),
    );
    await page.goto(`/issues/${ISSUE}/interviews/${id}`);
    const frame = viewer(page);
    await expect(frame.getByLabel(OUTCOME_LABEL)).toHaveValue("My words, unchanged.");
    // No dead ends: without an AI endpoint nothing offers it (issue 25).
    await expect(frame.getByRole("button", { name: /^Rephrase with AI/ })).toHaveCount(0);
    await expect(frame.getByRole("button", { name: "Use a document I have" })).toHaveCount(0);
    await expect(frame.getByRole("button", { name: "Understand my situation" })).toHaveCount(0);
    await page.goto(`/ai/rephrase/${id}?variable=outcome+wanted+te&index=1`);
    await expect(page.getByRole("status").filter({ hasText: UNAVAILABLE })).toBeVisible();
    await expect(page.getByText("My words, unchanged.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
    await axe();
    const asked = await page.request.post(page.url(), { form: { intent: "ask", text: "Anyway" } });
    expect(asked.status()).toBe(200);
    expect(await asked.text()).toContain(UNAVAILABLE);
    await page.getByRole("link", { name: "Return to the interview" }).click();
    await expect(viewer(page).getByLabel(OUTCOME_LABEL)).toHaveValue("My words, unchanged.");
    expect(onServerData(noAiDataDir, () => interviewVars(id))["outcome wanted te"]?.values).toEqual([null, "My words, unchanged."]);
  });
});
