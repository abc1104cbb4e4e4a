// Issue 26, part 5: the organisation's content in every language it offers, and administrators' corrections of
// the interface's words, each shown to the public only once published. The two projects run at once against
// one server: each works on its own issue and its own message.
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";

const ownItems = (javaScriptEnabled: boolean) =>
  javaScriptEnabled
    ? { issueId: 5, issueName: "Unpaid salary and employment claims", wordKey: "public.home.chooseCountry", words: { code: "ms", name: "Malay", corrected: "Pilih negara anda dahulu" } }
    : { issueId: 7, issueName: "Challenging a benefits decision", wordKey: "public.crumb.home", words: { code: "vi", name: "Vietnamese", corrected: "Về trang chủ" } };

test.describe("the organisation's content in other languages", () => {
  test("the interview's own words in a language only interviews speak can be corrected too", async ({ browser, javaScriptEnabled }) => {
    const administrator = await signedInPerson(browser, javaScriptEnabled, "words-viewer-only-admin", { role: "administrator" });
    const page = administrator.page;
    try {
      await page.goto("/admin/languages");
      const korean = page.getByRole("table", { name: "Languages only interviews speak" }).getByRole("row", { name: /Korean/ });
      await expect(korean).toContainText("Drafted, not yet reviewed");
      await korean.getByRole("link", { name: "Correct words in Korean" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Interface words in Korean");
      await expect(page.getByText("Only the interview speaks Korean")).toBeVisible();
      await expectNoAxeViolations(page, javaScriptEnabled);
      // Only the interview's words are there to correct.
      await page.getByLabel("Words, in English or Korean, or the message's key").fill("Continue");
      await page.getByRole("button", { name: "Find" }).click();
      await expect(page.getByRole("link", { name: /^viewer\.continue ?: correct it$/ })).toBeVisible();
      await expect(page.getByRole("link", { name: /^public\./ })).toHaveCount(0);
      await expectNoAxeViolations(page, javaScriptEnabled);
    } finally {
      await administrator.context.close();
    }
  });

  test("an administrator publishes a French issue description; until then people reading French see the English text, marked and explained", async ({
    browser,
    javaScriptEnabled,
  }) => {
    test.slow();
    const { issueId, issueName } = ownItems(javaScriptEnabled);
    const administrator = await signedInPerson(browser, javaScriptEnabled, `content-fr-admin-${issueId}`, { role: "administrator" });
    const visitor = await browser.newContext({ javaScriptEnabled });
    const page = administrator.page;
    try {
      const reader = await visitor.newPage();
      await reader.goto(`/issues/${issueId}?lang=fr`);
      await expect(reader.locator("html")).toHaveAttribute("lang", "fr");
      await expect(reader.getByRole("note")).toHaveText("Cette page n'est pas encore offerte en Français. Elle s'affiche en anglais.");
      await expect(reader.getByRole("heading", { level: 1 })).toHaveAttribute("lang", "en");
      await expect(reader.locator(".issue .prose")).toHaveAttribute("lang", "en");
      await expectNoAxeViolations(reader, javaScriptEnabled);

      await page.goto(`/admin/content/issues/${issueId}`);
      await expect(page.getByRole("row", { name: /French \(Canada\).*Not translated/ })).toBeVisible();
      await page.getByRole("link", { name: /^French \(Canada\) ?: edit the translation$/ }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${issueName} in French (Canada)`);
      await expectNoAxeViolations(page, javaScriptEnabled);

      // Too long: the error summary names the field, nothing is saved.
      await page.getByLabel("Name in French (Canada)").fill("x".repeat(151));
      await page.getByRole("button", { name: "Save draft" }).click();
      await expect(page.getByRole("alert")).toContainText("Name in French (Canada): This field must be less than 150 characters.");
      await expectNoAxeViolations(page, javaScriptEnabled);

      const name = javaScriptEnabled ? "Salaire impayé et réclamations d'emploi" : "Contester une décision sur les prestations";
      await page.getByLabel("Name in French (Canada)").fill(name);
      await page.getByLabel("Description in French (Canada)").fill("Ce que vous pouvez faire **maintenant**.");
      await page.getByRole("button", { name: "Save draft" }).click();
      await expect(page.getByText("Draft saved as version 1. The public pages are unchanged until you publish.")).toBeVisible();

      // A draft is not shown to the public.
      await reader.reload();
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(issueName);
      await expect(reader.getByRole("note")).toBeVisible();

      await page.getByRole("button", { name: "Preview" }).click();
      const preview = page.getByRole("region", { name: "Preview" });
      await expect(preview.getByRole("heading", { name })).toHaveAttribute("lang", "fr");
      await expect(preview.locator("strong")).toHaveText("maintenant");
      await expectNoAxeViolations(page, javaScriptEnabled);
      await page.getByRole("button", { name: "Publish" }).click();
      await expect(page.getByText("Published in French (Canada): version 1 is on the public pages.")).toBeVisible();

      await reader.reload();
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(name);
      await expect(reader.getByRole("heading", { level: 1 })).not.toHaveAttribute("lang", /./);
      await expect(reader.locator(".issue .prose strong")).toHaveText("maintenant");
      await expect(reader.getByRole("note")).toHaveCount(0);
      // The home page lists it by its French name; in English it keeps its own.
      // (Its country's list may be folded away: the link is found by its address.)
      await reader.goto("/?lang=fr");
      await expect(reader.locator(`a[href="/issues/${issueId}"]`)).toHaveText(name);
      await reader.goto("/?lang=en");
      await expect(reader.locator(`a[href="/issues/${issueId}"]`)).toHaveText(issueName);

      await page.getByRole("link", { name: "History of changes in French (Canada)" }).click();
      await expect(page.getByRole("cell", { name: "Published (saved as a draft first)" })).toBeVisible();
      await expectNoAxeViolations(page, javaScriptEnabled);
      await page.goto(`/admin/content/issues/${issueId}`);
      await expect(page.getByRole("row", { name: /French \(Canada\).*Published/ })).toBeVisible();
      await page.goto("/admin/audit");
      await expect(page.getByRole("row", { name: new RegExp(`issue ${issueId} in fr`) }).first()).toBeVisible();
    } finally {
      await visitor.close();
      await administrator.context.close();
    }
  });

  test("an administrator corrects one interface message (in Malay; without script in Vietnamese): shown once published, refused when unreadable, and removed again", async ({
    browser,
    javaScriptEnabled,
  }) => {
    test.slow();
    const { wordKey, words } = ownItems(javaScriptEnabled);
    const { corrected } = words;
    const administrator = await signedInPerson(browser, javaScriptEnabled, `words-${words.code}-admin`, { role: "administrator" });
    const visitor = await browser.newContext({ javaScriptEnabled });
    const page = administrator.page;
    try {
      const reader = await visitor.newPage();
      const shownWhere = javaScriptEnabled ? reader.getByRole("heading", { level: 2, name: corrected }) : reader.getByRole("navigation", { name: /./ }).getByRole("link", { name: corrected, exact: true });
      const readerPath = javaScriptEnabled ? `/?lang=${words.code}` : `/about?lang=${words.code}`;

      await page.goto("/admin/languages");
      await page.getByRole("link", { name: `Correct words in ${words.name}` }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Interface words in ${words.name}`);
      await expectNoAxeViolations(page, javaScriptEnabled);
      await page.getByLabel(`Words, in English or ${words.name}, or the message's key`).fill(wordKey);
      await page.getByRole("button", { name: "Find" }).click();
      await page.getByRole("link", { name: new RegExp(`^${wordKey.replaceAll(".", "\\.")} ?: correct it$`) }).click();
      await expect(page.getByRole("heading", { name: `Correct ${wordKey}` })).toBeVisible();
      await expectNoAxeViolations(page, javaScriptEnabled);

      // Braces that are not a message: refused, with the field named.
      await page.getByLabel(`Corrected text in ${words.name}`).fill("{tidak lengkap");
      await page.getByRole("button", { name: "Publish" }).click();
      await expect(page.getByRole("alert")).toContainText(`Corrected text in ${words.name}: This text cannot be read as a message`);
      await expectNoAxeViolations(page, javaScriptEnabled);

      await page.getByLabel(`Corrected text in ${words.name}`).fill(corrected);
      await page.getByRole("button", { name: "Save draft" }).click();
      await expect(page.getByText(/Draft saved as version \d+: the correction is kept there/)).toBeVisible();
      await reader.goto(readerPath);
      await expect(reader.locator("html")).toHaveAttribute("lang", words.code);
      await expect(shownWhere).toHaveCount(0);

      await page.getByRole("button", { name: "Publish the draft" }).click();
      await expect(page.getByText(`Published: the corrections in ${words.name} are on the public pages.`)).toBeVisible();
      await reader.reload();
      await expect(shownWhere.first()).toBeVisible();

      // Removed and published again: the shipped words are back.
      await page.goto(`/admin/content/words/${words.code}?key=${wordKey}`);
      await page.getByRole("button", { name: "Remove the correction" }).click();
      await expect(page.getByText(/the correction is removed there/)).toBeVisible();
      await page.getByRole("button", { name: "Publish the draft" }).click();
      await expect(page.getByText(`Published: the corrections in ${words.name} are on the public pages.`)).toBeVisible();
      await reader.reload();
      await expect(shownWhere).toHaveCount(0);

      await page.getByRole("link", { name: "History of changes" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`History: Interface words in ${words.name}`);
      await expectNoAxeViolations(page, javaScriptEnabled);
    } finally {
      await visitor.close();
      await administrator.context.close();
    }
  });
});
