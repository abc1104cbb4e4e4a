import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { untranslatedWords } from "./pseudo-language";

test.describe("languages", () => {
  test("the switcher shows the same page in another language, and the choice is kept", async ({ page, axe }) => {
    await page.goto("/about");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.locator(".language-switcher summary").click();
    await axe();
    await page.getByRole("link", { name: "Français" }).click();
    await expect(page).toHaveURL(/\/about\?lang=fr$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("navigation", { name: "Menu principal" }).getByRole("link", { name: "À propos" })).toBeVisible();
    await axe();
    // The next page, without ?lang=, stays in French: the cookie keeps the choice.
    await page.goto("/support/contact-us/");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("link", { name: "Aller au contenu principal" })).toBeAttached();
  });

  test("a first visit follows the browser's languages among those offered", async ({ browser }) => {
    const context = await browser.newContext({ locale: "zh-CN", javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    await context.close();
    const traditional = await browser.newContext({ locale: "zh-TW", javaScriptEnabled: false });
    const other = await traditional.newPage();
    await other.goto("/");
    // Traditional Chinese is not offered: English, the default.
    await expect(other.locator("html")).toHaveAttribute("lang", "en");
    await traditional.close();
  });

  test("Arabic pages run right to left; Chinese, Tamil and Arabic pages say their language", async ({ page, axe }) => {
    await page.goto("/?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await axe();
    for (const lang of ["zh-Hans", "ta"]) {
      await page.goto(`/about?lang=${lang}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    }
  });

  test("a tag that is not offered is passed over, never an error", async ({ page }) => {
    const response = await page.goto("/about?lang=xx-INVALID");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });
});

test.describe("the pseudo-language finds words not in a catalogue", () => {
  test("the not-found page, with the header and footer, is all in the catalogue", async ({ page }) => {
    for (const path of ["/no/such/page?lang=en-XA"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
      expect(await untranslatedWords(page), path).toEqual([]);
    }
  });
});

test.describe("the languages offered", () => {
  test("an administrator turns a language off and on again, audited; the administration stays in English, marked so", async ({ browser, javaScriptEnabled }) => {
    const administrator = await signedInPerson(browser, javaScriptEnabled, "languages-admin", { role: "administrator" });
    const page = administrator.page;
    const visitor = await browser.newContext({ javaScriptEnabled });
    try {
      // In French, the header is French and the administration English, with its language said.
      await page.goto("/admin/languages?lang=fr");
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.locator('main [lang="en"]').getByRole("heading", { level: 1 })).toHaveText("Languages");
      await expectNoAxeViolations(page, javaScriptEnabled);

      const welsh = page.getByRole("checkbox", { name: /Cymraeg/ });
      await expect(welsh).toBeChecked();
      await welsh.uncheck();
      await page.getByRole("button", { name: "Save languages" }).click();
      await expect(page.getByText("Languages offered: 8.")).toBeVisible();
      await expect(welsh).not.toBeChecked();
      // Welsh is no longer offered: a link asking for it is shown in English, and the switcher lacks it.
      const visitorPage = await visitor.newPage();
      await visitorPage.goto("/about?lang=cy");
      await expect(visitorPage.locator("html")).toHaveAttribute("lang", "en");
      await expect(visitorPage.locator(".language-switcher").getByRole("link", { name: "Cymraeg" })).toHaveCount(0);

      await page.getByRole("checkbox", { name: /Cymraeg/ }).check();
      await page.getByRole("button", { name: "Save languages" }).click();
      await expect(page.getByText("Languages offered: 9.")).toBeVisible();
      await visitorPage.goto("/about?lang=cy");
      await expect(visitorPage.locator("html")).toHaveAttribute("lang", "cy");

      await page.goto("/admin/audit");
      await expect(page.getByRole("cell", { name: "Changed the languages offered" }).first()).toBeVisible();
    } finally {
      await visitor.close();
      await administrator.context.close();
    }
  });
});
