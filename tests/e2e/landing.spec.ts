import { expect, test } from "./fixtures";

test.describe("landing page", () => {
  test("shows the introduction, then the countries by their order with the first one open", async ({ page, axe }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Legal help, one step at a time");
    await expect(page.getByText("Understand your situation and prepare the documents you need")).toBeVisible();
    const summaries = page.locator(".accordion__summary");
    // The seeded countries, in their order; a spec may add a country of its own after them (dates.spec.ts).
    await expect(summaries.first()).toHaveText("Singapore");
    expect((await summaries.allTextContents()).slice(0, 4)).toEqual(["Singapore", "Australia", "United Kingdom", "Canada"]);
    await expect(page.locator("details[data-country-id='1']")).toHaveAttribute("open", "");
    await expect(page.locator("details[open]")).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Divorce and separation" })).toBeVisible();
    await axe();
  });

  test("opens one country at a time, and closes the open one when clicked", async ({ page, axe }) => {
    await page.goto("/");
    const singapore = page.locator("details[data-country-id='1']");
    const australia = page.locator("details[data-country-id='3']");
    await page.getByText("Australia", { exact: true }).click();
    await expect(australia).toHaveAttribute("open", "");
    await expect(singapore).not.toHaveAttribute("open");
    await expect(page.getByRole("link", { name: "Getting your rental bond back" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Divorce and separation" })).toBeHidden();
    await axe();
    await page.getByText("Australia", { exact: true }).click();
    await expect(australia).not.toHaveAttribute("open");
    await expect(page.locator("details[open]")).toHaveCount(0);
  });

  test("opens the country given as ?country, else the first by order", async ({ page, axe }) => {
    await page.goto("/?country=2");
    await expect(page.locator("details[open]")).toHaveCount(1);
    await expect(page.locator("details[data-country-id='2']")).toHaveAttribute("open", "");
    await expect(page.getByRole("link", { name: "Criminal records and spent convictions" })).toBeVisible();
    await axe();
    for (const query of ["?country=999", "?country=abc", "?country="]) {
      await page.goto(`/${query}`);
      await expect(page.locator("details[open]")).toHaveAttribute("data-country-id", "1");
    }
  });

  test("links each issue to its page", async ({ page }) => {
    await page.goto("/?country=3");
    await page.getByRole("link", { name: "Unfair dismissal" }).click();
    await expect(page).toHaveURL(/\/issues\/10$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unfair dismissal");
  });

  test("keeps the header and footer links of the layout", async ({ page }) => {
    await page.goto("/");
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "Legal Self-Help, home" })).toHaveAttribute("href", "/");
    await expect(header.getByRole("link", { name: "About" })).toHaveAttribute("href", "/about");
    await expect(header.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth/sign-in");
    const footer = page.locator("footer");
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
    await expect(footer.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/support/contact-us/");
    await expect(footer.getByRole("link", { name: "Terms & Conditions" })).toHaveAttribute("href", "/legal/terms-and-conditions/");
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/legal/privacy-policies");
    expect((await header.boundingBox())?.height).toBe(70);
    expect((await footer.boundingBox())?.height).toBe(70);
  });
});
