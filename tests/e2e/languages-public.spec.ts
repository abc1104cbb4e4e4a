import type { Page } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { overflowAt320, untranslatedWords } from "./pseudo-language";
import { moveInterviewTo, plantInterviews } from "./support";
import { plantSignedIn } from "./people";

// The public pages and the AI pages in the pseudo-language (en-XA): every word of ours comes from a catalogue.
// The organisation's content (issue and country names, pages, sources, a guide's questions) is shown as written,
// marked with its language; where it sits inside a title or a label, which cannot carry a language of its own
// ("Getting your rental bond back | …", "Issues in Australia"), its words are the organisation's, not ours.

/** The validation messages of app/ui/validation.ts, shared with the sign-up and account forms (not this area's). */
/**
 * untranslatedWords, less the words of the organisation's content shown on the page (marked with its lang) and
 * the words a person wrote (`written`: their question, kept in its field).
 */
async function ourUntranslatedWords(page: Page, written: string[] = []): Promise<string[]> {
  const theirs = await page.evaluate(() => {
    const pageLang = document.documentElement.lang;
    const words = new Set<string>();
    for (const element of document.querySelectorAll("[lang]")) {
      if (element === document.documentElement || element.getAttribute("lang") === pageLang) continue;
      for (const word of (element.textContent ?? "").match(/[A-Za-z]{2,}[A-Za-z'’-]*/g) ?? []) words.add(word.toLowerCase());
    }
    return [...words];
  });
  for (const text of written) for (const word of text.match(/[A-Za-z]{2,}/g) ?? []) theirs.push(word.toLowerCase());
  const known = new Set(theirs);
  return (await untranslatedWords(page)).flatMap((line) => {
    const at = line.lastIndexOf(": ");
    const left = line.slice(at + 2).split(" ").filter((word) => !known.has(word.toLowerCase()));
    return left.length ? [`${line.slice(0, at)}: ${left.join(" ")}`] : [];
  });
}

async function expectAllOurs(page: Page, path: string, written: string[] = []) {
  await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
  expect(await ourUntranslatedWords(page, written), path).toEqual([]);
  expect(await overflowAt320(page), `${path} at 320 px`).toEqual([]);
}

/** The form's submit button, whatever its words. */
const submit = (page: Page, form = "main form") => page.locator(`${form} button[type=submit]`).first();

test.describe("the public pages in the pseudo-language", () => {
  test("the landing page, issues, About, the legal pages, Contact Us and not found: every word ours is in the catalogue", async ({ page }) => {
    for (const path of [
      "/?lang=en-XA",
      "/?country=3",
      "/issues/6",
      "/issues/3",
      "/about",
      "/legal/terms-and-conditions/",
      "/legal/privacy-policies",
      "/support/contact-us/",
      "/issues/424242",
      "/no/such/page",
    ]) {
      await page.goto(path);
      await expectAllOurs(page, path);
    }
  });

  test("Contact Us sent empty shows its errors in the catalogue's words", async ({ page }) => {
    await page.goto("/support/contact-us/?lang=en-XA");
    await submit(page, "form.form").click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expect(page).toHaveTitle(/⟦/);
    await expectAllOurs(page, "/support/contact-us/ (empty)");
  });

  test("signed in: the interview's host page, Understand my situation, Rephrase with AI and Use a document I have, with their errors", async ({ page }) => {
    const email = uniqueEmail("words-public");
    await plantSignedIn(page, email);
    await page.goto("/?lang=en-XA");
    await expectAllOurs(page, "/ (signed in)");

    // An issue's page with Start now, and a finished interview's Congratulations.
    await page.goto("/issues/6");
    await expectAllOurs(page, "/issues/6 (signed in)");
    const [completed] = plantInterviews(email, [{ issueId: 2, status: "Completed", daysAgo: 0 }]);
    await page.goto(`/issues/2/interviews/${completed}`);
    await expect(page.locator("#congratulations-title")).toBeVisible();
    await expectAllOurs(page, "interview completed");
    // A finished interview whose document needs signatures (issue 6's letter has signature places): its signing page.
    const [toSign] = plantInterviews(email, [{ issueId: 6, status: "Completed", daysAgo: 0 }]);
    await page.goto(`/issues/6/interviews/${toSign}`);
    await expect(page).toHaveURL(new RegExp(`/account/interview/${toSign}/sign`));
    await expectAllOurs(page, "signing page");

    // Understand my situation: the page, a question sent empty, an explanation; a sensitive issue's page.
    await page.goto("/issues/10/understand");
    await expectAllOurs(page, "/issues/10/understand");
    await submit(page).click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expectAllOurs(page, "/issues/10/understand (empty)");
    const question = "What happens when I am dismissed without notice?";
    await page.locator("textarea").fill(question);
    await submit(page).click();
    await expect(page.locator("#result-title")).toBeVisible();
    await expectAllOurs(page, "/issues/10/understand (answered)", [question]);
    await page.goto("/issues/3/understand");
    await expectAllOurs(page, "/issues/3/understand (sensitive)");

    // Rephrase with AI: the page and an answer sent empty.
    const [draft] = plantInterviews(email, [{ issueId: 1, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(draft!, "09-Outcome");
    const rephrase = `/ai/rephrase/${draft}?variable=outcome+wanted+te&index=1`;
    await page.goto(rephrase);
    await expectAllOurs(page, rephrase);
    await page.locator("textarea").fill("");
    await submit(page).click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expectAllOurs(page, `${rephrase} (empty)`);

    // Use a document I have: the page and a form sent without a file.
    const [bond] = plantInterviews(email, [{ issueId: 6, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(bond!, "06-Bond");
    await page.goto(`/ai/document/${bond}`);
    await expectAllOurs(page, "/ai/document");
    await submit(page, "main form.form").click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expectAllOurs(page, "/ai/document (no file)");
  });
});

test.describe("the public pages in another language", () => {
  test("Contact Us in French, the landing page in Arabic", async ({ page }) => {
    await page.goto("/support/contact-us/?lang=fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nous joindre");
    await expect(page).toHaveTitle("Nous joindre | Aide juridique autonome");
    await page.getByRole("button", { name: "Envoyer" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Il y a un problème" }).getByRole("link").first()).toContainText("Prénom");

    await page.goto("/?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { name: "اختر بلدك" })).toBeVisible();
    // The organisation's names stay as written, marked as English.
    await expect(page.locator(".accordion__summary span[lang=en]").first()).toBeVisible();
  });
});
