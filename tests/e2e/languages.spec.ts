import { expect, test } from "./fixtures";
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
