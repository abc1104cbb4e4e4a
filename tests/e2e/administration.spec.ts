import { uniqueEmail } from "./accounts";
import { plantSignedIn } from "./people";
import { expect, test } from "./fixtures";
import { fuzzTargets } from "../support/fuzz";
import { cli, withE2eDatabase } from "./support";

// Administration: the first administrator is made on the server with the bundled command line, as an operator
// would in the container; everything else happens in the browser.

const roleOf = (email: string) =>
  withE2eDatabase((db) => (db.prepare("select role from users where email = ?").get(email) as { role: string } | undefined)?.role);

test("the first administrator is made on the server, makes and removes another, and the audit lists every change", async ({ page, browser, axe }) => {
  // A long journey with axe on every page (replayed with script for the no-js project): three times the time.
  test.slow();
  const lead = uniqueEmail("admin-lead");
  const helper = uniqueEmail("admin-helper");
  await plantSignedIn(page, lead);
  await expect(page.getByRole("link", { name: "Administration" })).toHaveCount(0);

  expect(cli("admin", "grant", lead)).toMatchObject({ status: 0, output: expect.stringContaining(`${lead} is now an administrator.`) });
  await page.goto("/");
  await page.getByRole("link", { name: "Administration" }).first().click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Administration");
  await axe();

  await page.getByRole("link", { name: "Administrators" }).click();
  await expect(page.getByRole("cell", { name: lead, exact: true })).toBeVisible();
  await axe();
  // An email with no account: said at the field and in the summary, nothing changes.
  await page.locator("#grant").getByLabel("Email").fill("nobody-here@example.org");
  await page.getByRole("button", { name: "Make administrator" }).click();
  await expect(page.getByRole("alert")).toContainText("No account uses this email address.");
  await expect(page.locator("#grant").getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await axe();

  const other = await browser.newContext();
  try {
    await plantSignedIn(await other.newPage(), helper);
  } finally {
    await other.close();
  }
  await page.locator("#grant").getByLabel("Email").fill(helper);
  await page.getByRole("button", { name: "Make administrator" }).click();
  await expect(page.getByRole("status")).toHaveText(`${helper} is now an administrator.`);
  expect(roleOf(helper)).toBe("administrator");
  // "Remove" asks first, with or without script; No keeps them.
  await page.getByRole("link", { name: `Remove ${helper}` }).click();
  const confirm = page.getByRole("region", { name: `Remove ${helper} as an administrator?` });
  await expect(confirm).toBeFocused();
  expect(roleOf(helper)).toBe("administrator");
  await axe();
  await confirm.getByRole("link", { name: "No, keep" }).click();
  await expect(confirm).toHaveCount(0);
  expect(roleOf(helper)).toBe("administrator");
  // A post that did not come from the question is asked again, and changes nothing.
  const origin = new URL(page.url()).origin;
  const unasked = await page.request.post("/admin/administrators", { form: { intent: "revoke", email: helper }, headers: { Origin: origin }, maxRedirects: 0 });
  expect(unasked.status()).toBe(302);
  expect(unasked.headers().location).toContain("remove=");
  expect(roleOf(helper)).toBe("administrator");
  await page.getByRole("link", { name: `Remove ${helper}` }).click();
  await page.getByRole("region", { name: `Remove ${helper} as an administrator?` }).getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByRole("status")).toHaveText(`${helper} is no longer an administrator.`);
  expect(roleOf(helper)).toBe("person");

  await page.goto("/admin/audit");
  const rows = page.getByRole("row");
  await expect(rows.filter({ hasText: helper }).filter({ hasText: "Made an administrator" }).filter({ hasText: lead })).toHaveCount(1);
  await expect(rows.filter({ hasText: helper }).filter({ hasText: "Removed as administrator" }).filter({ hasText: lead })).toHaveCount(1);
  await expect(rows.filter({ hasText: lead }).filter({ hasText: "Made an administrator" }).filter({ hasText: "command line" })).toHaveCount(1);
  await axe();

  // Removed on the server, the lead loses the area at the next request.
  expect(cli("admin", "grant", helper)).toMatchObject({ status: 0 });
  expect(cli("admin", "revoke", lead)).toMatchObject({ status: 0 });
  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sorry, we couldn't find this page.");
});

test("a person who is not an administrator, and a visitor, get the not-found page on every /admin page and form", async ({ page, browser }) => {
  const person = uniqueEmail("admin-not");
  await plantSignedIn(page, person);
  const visitor = await browser.newContext();
  // Every address of every administration route module (the fuzz targets name them all, a test checks that).
  const paths = Object.entries(fuzzTargets)
    .filter(([module]) => module.startsWith("routes/admin"))
    .flatMap(([, targets]) => targets)
    .filter((path) => !path.endsWith(".data"));
  expect(paths.length).toBeGreaterThan(20);
  const origin = new URL(page.url()).origin;
  try {
    for (const client of [page.request, visitor.request]) {
      for (const path of paths) {
        const response = await client.get(path);
        expect(response.status(), `GET ${path}`).toBe(404);
        // A download is a file, not a page: its 404 has no page to show.
        if (!path.endsWith("/download")) expect(await response.text(), path).toContain("couldn&#x27;t find this page");
        const post = await client.post(path, { form: { intent: "publish", email: person, title: "x" }, headers: { Origin: origin } });
        expect(post.status(), `POST ${path}`).toBe(404);
      }
    }
  } finally {
    await visitor.close();
  }
  expect(roleOf(person)).toBe("person");
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sorry, we couldn't find this page.");
});
