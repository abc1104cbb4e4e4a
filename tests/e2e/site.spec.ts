import { expect, test } from "./fixtures";
import { publicPages } from "./support";

test.describe("not found", () => {
  const unknown = [
    "/nope",
    "/support/nope",
    "/support/contact-us/extra",
    "/legal/nope",
    "/legal/terms-and-conditions/extra",
    "/auth/nope",
    "/account/nope",
    "/issues",
    "/issues/1/nope/deeper",
    "/ai/nope",
    "/draft/anything",
    "/dashboard/anything",
    "/about/nope",
  ];
  for (const path of unknown) {
    test(`${path} answers 404 with the not-found page`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sorry, we couldn't find this page.");
      await expect(page.getByRole("link", { name: "Go to homepage" })).toHaveAttribute("href", "/");
      await expect(page.getByRole("link", { name: "Back" })).toBeVisible();
    });
  }

  test("Back returns to the page the person came from, Go to homepage goes home", async ({ page, axe }) => {
    await page.goto("/about");
    await page.goto("/missing-page", { referer: `${new URL(page.url()).origin}/about` });
    await axe();
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await page.goto("/missing-page");
    await page.getByRole("link", { name: "Go to homepage" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Legal help, one step at a time");
  });

  test("a form posted from another site is refused, and nothing is sent", async ({ request }) => {
    const response = await request.post("/support/contact-us", {
      headers: { Origin: "https://evil.example" },
      form: { firstName: "A", lastName: "B", email: "a@example.org", message: "cross-site" },
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toBe("Forms can only be sent from this site.");
  });

  test("a post to an unknown path is a 404 too", async ({ request }) => {
    const response = await request.post("/no/such/form", { form: { a: "1" } });
    expect(response.status()).toBe(404);
  });
});

test.describe("every public page", () => {
  for (const { path, heading } of publicPages) {
    test(`${path} loads no script and has an enforced CSP with a nonce`, async ({ page, scriptRequests, axe }) => {
      const response = await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      expect(scriptRequests).toEqual([]);
      const html = await response!.text();
      expect(html).not.toMatch(/<script/i);
      const headers = response!.headers();
      expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'self'");
      expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
      expect(headers["content-security-policy-report-only"]).toBeUndefined();
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBeTruthy();
      expect(headers["permissions-policy"]).toBeTruthy();
      expect(headers["strict-transport-security"]).toBeTruthy();
      await axe();
    });
  }

  test("a fresh nonce on every response, and security headers on static files too", async ({ request }) => {
    const nonce = async () => (await request.get("/")).headers()["content-security-policy"]?.match(/nonce-([^']+)/)?.[1];
    expect(await nonce()).not.toBe(await nonce());
    const icon = await request.get("/favicon.svg");
    expect(icon.status()).toBe(200);
    expect(icon.headers()["x-content-type-options"]).toBe("nosniff");
    expect(icon.headers()["content-security-policy"]).toBeTruthy();
  });

  test("/healthz checks the database", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("is usable 320 px wide without sideways scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    for (const { path } of publicPages) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
