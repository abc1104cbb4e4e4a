import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { withE2eDatabase } from "./support";

test.describe("issue page", () => {
  test("shows the breadcrumb, the name, the content and the Sign In button", async ({ page, axe }) => {
    await page.goto("/issues/6");
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(crumbs.getByRole("listitem")).toHaveText(["Home", "Australia", "Getting your rental bond back"]);
    await expect(crumbs.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(crumbs.getByText("Getting your rental bond back")).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Getting your rental bond back");
    await expect(page.locator(".prose table")).toBeVisible();
    await expect(page.getByText("Sample content.")).toBeVisible();
    await expect(page.locator("main").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth/sign-in?returnTo=%2Fissues%2F6%2Finterviews");
    await axe();
  });

  test("the country crumb opens that country on the landing page", async ({ page }) => {
    await page.goto("/issues/6");
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Australia" }).click();
    await expect(page).toHaveURL(/\/\?country=3$/);
    await expect(page.locator("details[open]")).toHaveAttribute("data-country-id", "3");
  });

  test("answers 404 for an unknown or malformed id", async ({ page }) => {
    for (const path of ["/issues/424242", "/issues/abc", "/issues/0", "/issues/2/extra"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sorry, we couldn't find this page.");
    }
  });
});

test.describe("about and legal pages", () => {
  for (const { path, title } of [
    { path: "/about", title: "About" },
    { path: "/legal/terms-and-conditions/", title: "Terms and Conditions" },
    { path: "/legal/privacy-policies", title: "Privacy Policy" },
  ]) {
    test(`${title}: Home crumb, the document's name and its body`, async ({ page, axe }) => {
      await page.goto(path);
      const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
      await expect(crumbs.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.locator(".prose h2").first()).toBeVisible();
      await axe();
    });
  }

  test("About tells the seven steps", async ({ page }) => {
    await page.goto("/about");
    await expect(page.locator(".prose ol").first().getByRole("listitem")).toHaveText([
      /Sign in/,
      /Create or upload documents/,
      /Understand your situation/,
      /Understand strategies/,
      /Select an approach/,
      /Generate documents/,
      /Review and use/,
    ]);
    await expect(page.getByText(/retrieval-augmented generation/i).first()).toBeVisible();
  });

  test("renders the raw HTML of a document but strips scripts, handlers and unsafe links", async ({ page, axe }) => {
    const terms = readFileSync("db/seed/legal/terms.md", "utf8").replace(/^---[\s\S]*?---\n/, "");
    const planted =
      `${terms}\n\n<p id="planted">Planted <strong>bold</strong></p>\n\n<script>window.__pwned = 1</script>\n\n` +
      `<img src="/favicon.svg" alt="logo" onerror="window.__pwned = 2" onload="window.__pwned = 3">\n\n` +
      `<a id="js-link" href="javascript:window.__pwned=4">Click me</a> <a id="data-link" href="data:text/html,hi">Data</a>\n`;
    withE2eDatabase((db) => db.prepare("update legal_documents set content = ? where slug = 'terms'").run(planted));

    const response = await page.goto("/legal/terms-and-conditions");
    const html = await response!.text();
    expect(html).toContain("Planted <strong>bold</strong>");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror|onload/i);
    expect(html).not.toMatch(/javascript:|data:text/i);
    await expect(page.getByText("Click me")).toBeVisible();
    await axe();
  });
});
