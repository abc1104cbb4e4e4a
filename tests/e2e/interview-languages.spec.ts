import { createAccount, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { axeOnViewer, press, viewer } from "./viewer";

// Interviews in the person's language (issue 27; docs/decisions/0048-guides-per-language.md): the guide in their
// language when the issue has one, else the guide with a notice in their language.

test.describe("interviews in the person's language", () => {
  test("a person who reads Chinese, on an issue with no guide in Chinese: the English guide, said so in Chinese, inside a Chinese page", async ({ page, axe }) => {
    await createAccount(page, uniqueEmail("zh-reader"));
    await page.goto("/issues/2/interviews?lang=zh-Hans");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    // The page around the interview is in Chinese; the note says which language the interview is in, in Chinese.
    await expect(page.getByRole("navigation", { name: "当前位置" }).getByRole("link", { name: "首页" })).toBeVisible();
    await expect(page.getByRole("note").filter({ hasText: "本问卷为英语" })).toContainText("我们暂时还没有您的语言版本");
    await axe();
    // The interview itself is the English guide, in English.
    const frame = viewer(page);
    await expect(frame.locator("#viewer-heading")).toContainText("Re-Entry");
    // (the viewer's own words and lang: decision 0047)
    await axeOnViewer(page, axe);
    await press(frame, "Continue");
    // Resumed later, it is still the English guide, and still says so.
    await page.goto("/account/interview");
    await page.getByRole("link", { name: /编辑/ }).first().click();
    await expect(page.getByRole("note").filter({ hasText: "本问卷为英语" })).toBeVisible();
  });
});
