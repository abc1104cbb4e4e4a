import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { aiStandInUrl, noAiPort } from "../../playwright.config";
import type { ChatRequest } from "../support/ai-stand-in";
import { createAccount, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, plantInterviews, setInterviewVars } from "./support";
import { plantSignedIn } from "./people";

// "Understand my situation" (issue 18): explanations from the organisation's own sources, every statement citing
// one. The AI stand-in cites the passages sharing most words with the question (tests/support/ai-stand-in.ts).
const ISSUE = 10; // Unfair dismissal, Australia

/** Letters only: a word no source has, that redaction never touches. */
const letterWord = () => Array.from(randomBytes(10), (byte) => String.fromCharCode(97 + (byte % 26))).join("");

async function aiRequestsWith(marker: string): Promise<ChatRequest[]> {
  const all = (await (await fetch(`${aiStandInUrl}/requests`)).json()) as ChatRequest[];
  return all.filter((request) => request.body.messages?.some((m) => m.role === "user" && m.content.includes(marker)));
}

/** An administrator adds a markdown source for the issue, through the administration pages. */
async function addSource(page: Page, word: string): Promise<{ title: string; url: string }> {
  const title = `Workplace payments ${word}`;
  const url = `https://www.example.org/payments/${word}`;
  await page.goto("/admin/sources/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Public link").fill(url);
  await page.getByLabel("Country").selectOption({ label: "Australia" });
  await page.getByLabel("Issue").selectOption({ label: "Australia: Unfair dismissal" });
  await page
    .getByLabel("Or paste the text")
    .fill(`# Payments ${word}\n\n## The ${word} payment\n\nA ${word} payment is owed to every dismissed worker within 9 days. Ask your employer for it in writing.`);
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByRole("status")).toContainText(`${title} was added`);
  return { title, url };
}

async function ask(page: Page, question: string) {
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Explain" }).click();
}

test("a person's question is explained from the administrator's source, every statement citing it, with nothing personal sent", async ({ page, browser, axe }) => {
  const word = letterWord();
  const admin = await browser.newContext();
  let source: { title: string; url: string };
  try {
    const adminPage = await admin.newPage();
    const lead = uniqueEmail("understand-admin");
    await plantSignedIn(adminPage, lead, { role: "administrator" });
    source = await addSource(adminPage, word);
  } finally {
    await admin.close();
  }

  const email = uniqueEmail("understand");
  await plantSignedIn(page, email);
  await page.goto(`/issues/${ISSUE}`);
  await page.getByRole("link", { name: "Understand my situation" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Understand my situation");
  await expect(page.getByText("This is legal information, not legal advice.")).toBeVisible();
  await expect(page.getByRole("link", { name: "contact us", exact: true })).toHaveAttribute("href", "/support/contact-us");
  await axe();

  // Nothing asked: the field says so.
  await page.getByRole("button", { name: "Explain" }).click();
  await expect(page.getByRole("alert")).toContainText("Your question: Enter your question, or choose to use your answers from your interview.");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();

  // Only the administrator's source has this word: every statement must cite it.
  await ask(page, `What about ${word}?`);
  await expect(page.getByRole("heading", { name: "What our sources say" })).toBeVisible();
  const statements = page.locator(".understand__statements li");
  await expect(statements.first()).toContainText(`A ${word} payment is owed to every dismissed worker within 9 days.`);
  for (const statement of await statements.all()) {
    const citations = statement.getByRole("link", { name: /^Source \d+$/ });
    expect(await citations.count()).toBeGreaterThan(0);
    for (const citation of await citations.all()) {
      const target = (await citation.getAttribute("href"))!;
      await expect(page.locator(target).getByRole("link", { name: source.title })).toHaveAttribute("href", source.url);
    }
  }
  await axe();

  // What left the server: placeholders, not the person's details or name.
  await ask(page, `Ana Lim here (ana.lim@example.org, 0412 345 678, NRIC S1234567D). What about ${word}?`);
  await expect(page.getByRole("heading", { name: "What our sources say" })).toBeVisible();
  const [sent] = (await aiRequestsWith(word)).filter((request) => JSON.stringify(request.body.messages).includes("here ("));
  const body = JSON.stringify(sent!.body.messages);
  for (const detail of ["ana.lim@example.org", "0412 345 678", "S1234567D", "Ana Lim"]) expect(body).not.toContain(detail);
  expect(body).toContain("[NAME_1] [NAME_2] here ([EMAIL_1], [PHONE_1], NRIC [ID_1])");

  // An answer without citations, or one that is not the shape asked for, is not shown: the passages are.
  await ask(page, `[[uncited]] What about ${word}?`);
  await expect(page.getByRole("status")).toContainText("The AI's answer did not say which of our sources supports it, so it is not shown.");
  await expect(page.locator(".understand__statements")).toHaveCount(0);
  await expect(page.getByRole("link", { name: source.title })).toBeVisible();
  await axe();
  await ask(page, `[[not-json]] What about ${word}?`);
  await expect(page.getByRole("status").filter({ hasText: "could not be checked" })).toContainText("The AI's answer could not be checked, so it is not shown.");

  // The organisation's record (read by this person, made an administrator now): each call, how it ended; no question.
  expect(cli("admin", "grant", email)).toMatchObject({ status: 0 });
  await page.goto("/admin/ai-calls");
  const calls = page.getByRole("row").filter({ hasText: "Understand my situation" }).filter({ hasText: "Unfair dismissal" });
  await expect(calls.filter({ hasText: "uncited" }).first()).toBeVisible();
  await expect(calls.filter({ hasText: "malformed" }).first()).toBeVisible();
  await expect(page.getByText(word)).toHaveCount(0);
  await expect(page.getByText("ana.lim@example.org")).toHaveCount(0);
  await axe();
});

test("the interview's answers are used only when the person ticks the box", async ({ page }) => {
  const word = letterWord();
  const email = uniqueEmail("understand-answers");
  await plantSignedIn(page, email);
  const [id] = plantInterviews(email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
  setInterviewVars(id!, { "event description te": { name: "Event description TE", type: "Text", repeating: false, values: [null, `Dismissed without warning ${word}`] } });
  await page.goto(`/issues/${ISSUE}/understand?interview=${id}`);
  await ask(page, "How long do I have to apply?");
  expect(await aiRequestsWith(word)).toHaveLength(0);
  await page.getByLabel("Also use my answers so far from my interview on this issue").check();
  await ask(page, "How long do I have to apply?");
  const [sent] = await aiRequestsWith(word);
  expect(sent!.body.messages!.find((m) => m.role === "user")!.content).toContain(`Event description TE: Dismissed without warning ${word}`);
});

test.describe("Understand my situation without an AI endpoint", () => {
  test.use({ baseURL: `http://localhost:${noAiPort}` });

  test("the passages found in the sources are shown, with why there is no explanation", async ({ page, axe }) => {
    await createAccount(page, uniqueEmail("understand-no-ai"));
    await page.goto("/issues/6/understand");
    await page.getByLabel("Your question").fill("My landlord wants to keep part of my bond for cleaning and I do not agree.");
    await page.getByRole("button", { name: "Search our sources" }).click();
    await expect(page.getByRole("heading", { name: "Passages found" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "not available" })).toContainText("AI explanations are not available at the moment.");
    await expect(page.getByRole("link", { name: "Getting your rental bond back (fact sheet)" }).first()).toBeVisible();
    await expect(page.locator(".understand__passage").first()).toContainText(/bond/i);
    await axe();
  });
});

test("in the person's language: asked in French, a French source quoted and marked so, an answer in another writing system refused", async ({ page, browser, axe }) => {
  const word = letterWord();
  const admin = await browser.newContext();
  try {
    const adminPage = await admin.newPage();
    const lead = uniqueEmail("understand-fr-admin");
    await plantSignedIn(adminPage, lead, { role: "administrator" });
    await adminPage.goto("/admin/sources/new");
    await adminPage.getByLabel("Title").fill(`Paiements ${word}`);
    await adminPage.getByLabel("Public link").fill(`https://www.example.org/fr/${word}`);
    await adminPage.getByLabel("Country").selectOption({ label: "Australia" });
    await adminPage.getByLabel("Issue").selectOption({ label: "Australia: Unfair dismissal" });
    await adminPage.getByLabel("Language of the source").selectOption({ label: "French (Canada)" });
    await adminPage.getByLabel("Or paste the text").fill(`# Paiements ${word}\n\nUn paiement ${word} est dû à chaque travailleur congédié dans les 9 jours. Demandez-le par écrit.`);
    await adminPage.getByRole("button", { name: "Add source" }).click();
    await expect(adminPage.getByRole("status")).toContainText(`Paiements ${word} was added`);
  } finally {
    await admin.close();
  }

  await plantSignedIn(page, uniqueEmail("understand-fr"));
  const question = page.locator("textarea[name=question]");
  const explain = page.locator("main form button[type=submit]").first();
  await page.goto(`/issues/${ISSUE}/understand?lang=fr`);
  await question.fill(`Qu'en est-il du paiement ${word} ?`);
  await explain.click();
  const statements = page.locator(".understand__statements li");
  await expect(statements.first()).toContainText(`Un paiement ${word} est dû à chaque travailleur congédié dans les 9 jours.`);
  await expect(page.getByText("Nous vérifions que les explications en anglais sont faciles à lire.")).toBeVisible();
  // The passage is in the page's language: nothing to mark.
  await expect(page.locator(".understand__passage").first()).not.toHaveAttribute("lang", /./);
  await axe();
  const [sent] = await aiRequestsWith(word);
  expect(sent!.body.messages?.[0]?.content).toContain('Write every "text" in French (Canada)');

  // In Chinese the stand-in still answers in French (Latin letters): refused, the French passage shown marked as French.
  await page.goto(`/issues/${ISSUE}/understand?lang=zh-Hans`);
  await question.fill(`paiement ${word}`);
  await explain.click();
  await expect(page.getByRole("status").first()).toContainText("AI 没有用您的语言回答，因此不予显示。");
  await expect(page.locator(".understand__statements")).toHaveCount(0);
  await expect(page.locator(".understand__passage").first()).toHaveAttribute("lang", "fr");
  await axe();
});
