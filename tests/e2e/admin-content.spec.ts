import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import type { Page } from "@playwright/test";
import { type AppProcess, startApp, TEST_DATA_KEY } from "../support/app-process";
import { createAccount, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { operatorCommand, type OperatorTarget, withE2eDatabase } from "./support";
import { plantSignedIn } from "./people";

// Content administration: an administrator (made on the server, as an operator would) edits the public pages
// in drafts and versions, adds a country and an issue, and everything appears in the audit. Both projects run
// these at once, so every name is unique to its run and no check depends on the other.

async function signedInAdministrator(page: Page, label: string, target?: OperatorTarget): Promise<string> {
  const email = uniqueEmail(label);
  // A server of its own keeps its own database: the person signs up there.
  if (target) await createAccount(page, email);
  else await plantSignedIn(page, email);
  expect(operatorCommand(["admin", "grant", email], target).status).toBe(0);
  return email;
}

// The home page's headline is read by other specs (landing, site): its changes are made on a server of this
// spec's own, one per project, with a data folder the outbox reader finds (./data/e2e-*).
const homeServerPort = (project: string) => Number(process.env.E2E_PORT ?? 3210) + (project === "no-js" ? 9 : 8);
const homeServerDir = (project: string) => `./data/e2e-content-home-${project}`;

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test.describe("the home page, on a server of its own", () => {
  let server: AppProcess | undefined;
  test.use({
    baseURL: async ({}, use, testInfo) => use(`http://localhost:${homeServerPort(testInfo.project.name)}`),
  });
  test.beforeAll(async ({}, testInfo) => {
    const dataDir = homeServerDir(testInfo.project.name);
    rmSync(dataDir, { recursive: true, force: true });
    server = await startApp({
      port: homeServerPort(testInfo.project.name),
      dataDir,
      databaseUrl: `file:${dataDir}/app.db`,
      // The organisation's time zone: the administration's times are shown in it.
      env: { RATE_LIMIT_ADDRESS_FACTOR: "100", TIME_ZONE: "Australia/Sydney" },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("an administrator drafts the home page, previews its markdown, publishes, compares versions and restores one", async ({
    page,
    axe,
  }, testInfo) => {
    // A long journey with axe on every page (replayed with script for the no-js project): three times the time.
    test.slow();
    const target = {
      databaseUrl: `file:${homeServerDir(testInfo.project.name)}/app.db`,
      dataKey: TEST_DATA_KEY,
    };
    const lead = await signedInAdministrator(page, "content-home", target);
    const headline = `Help today ${randomUUID().slice(0, 8)}`;

    await page.goto("/admin");
    await page.getByRole("link", { name: "Content", exact: true }).click();
    await expect(heading(page)).toHaveText("Content");
    await axe();
    await page.getByRole("link", { name: "Home page" }).click();
    await expect(heading(page)).toHaveText("Edit Home page");
    await axe();

    // The preview renders with the public page's renderer: markdown and allowed HTML stay, a script does not.
    // Its fields are named in words ("SubHeadline" and "BodyCopy" were the spec's data names).
    await expect(page.getByLabel("Line under the headline")).toBeVisible();
    await page.getByLabel("Headline", { exact: true }).fill(headline);
    await page
      .getByLabel("Introduction", { exact: true })
      .fill(
        `Start **here**.\n\n<p class="lead">Raw <em>HTML</em> kept</p><script>document.title = "hacked"</script><img src="x.png" alt="x" onerror="alert(1)">`,
      );
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("region", { name: "Preview" });
    // Above the form, on the first screen, with the headline being edited as the public page's heading.
    await expect(preview).toBeFocused();
    await expect(preview).toBeInViewport();
    await expect(preview.getByRole("heading", { level: 3 })).toHaveText(headline);
    await expect(preview.locator("strong")).toHaveText("here");
    await expect(preview.locator("em")).toHaveText("HTML");
    await expect(preview.locator("script")).toHaveCount(0);
    await expect(preview.locator("[onerror]")).toHaveCount(0);
    await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(headline);
    await axe();

    // A draft is not public; the content list says one is waiting.
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("status")).toContainText("Draft saved as version 2.");
    await expect(page.getByRole("note")).toContainText("A draft newer than the published content exists");
    await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(headline);
    await axe();
    await page.goto("/");
    await expect(heading(page)).not.toHaveText(headline);
    await page.goto("/admin/content");
    const homeEntry = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Home page" }) });
    await expect(homeEntry).toContainText("Draft waiting to be published.");
    await axe();

    // Published as it was saved: the draft itself is published, no second version of the same content.
    await page.goto("/admin/content/pages/home");
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toContainText("Published: draft version 2 is on the public pages.");
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toContainText("Nothing has changed: version 2 stays as it is.");
    await page.goto("/admin/content");
    await expect(homeEntry).not.toContainText("Draft waiting");
    await expect(homeEntry).toContainText(/Last published \d{1,2} [A-Z][a-z]{2} \d{4}/);
    await page.goto("/");
    await expect(heading(page)).toHaveText(headline);
    await expect(page.locator(".intro .prose strong")).toHaveText("here");
    await expect(page.locator(".intro .prose script")).toHaveCount(0);

    // History: who and when (in the organisation's time zone), each version compared with the one before it.
    await page.goto("/admin/content/pages/home");
    await page.getByRole("link", { name: "History of changes" }).click();
    await expect(heading(page)).toHaveText("History: Home page");
    await axe();
    const rows = page.getByRole("row");
    await expect(rows).toHaveCount(3);
    const published = rows.nth(1);
    await expect(published).toContainText("Version 2");
    await expect(published).toContainText("Published (saved as a draft first)");
    await expect(published).toContainText(`${lead}; published by ${lead}`);
    await expect(published).toContainText("(Australia/Sydney); published");
    await published.getByRole("link").click();
    await expect(heading(page)).toContainText("Home page: version");
    const diff = page.getByRole("table", {
      name: /Changes from version \d+ to version \d+/,
    });
    await expect(diff.getByRole("row").filter({ hasText: `Headline: ${headline}` })).toContainText("Added");
    await expect(diff.getByRole("row").filter({ hasText: "Headline:" }).filter({ hasText: "Removed" })).not.toHaveCount(0);
    await axe();

    // Restoring the seed's version asks first (with or without script), then makes a new published version.
    await page.getByRole("link", { name: "History of changes" }).click();
    await rows.filter({ hasText: "The seed files" }).first().getByRole("link").click();
    await page.getByRole("link", { name: "Restore this version" }).click();
    const confirm = page.getByRole("region", { name: "Restore version 1?" });
    await expect(confirm).toBeFocused();
    await axe();
    await confirm.getByRole("button", { name: "Yes, restore it" }).click();
    await expect(page.getByRole("status")).toContainText("Version 1 restored as version 3");
    await expect(heading(page)).toHaveText("History: Home page");
    await page.goto("/");
    await expect(heading(page)).not.toHaveText(headline);

    await page.goto("/admin/audit");
    const audit = page.getByRole("row").filter({ hasText: lead }).filter({ hasText: "home page" });
    for (const action of ["Saved a draft of content", "Published content", "Restored a version of content"]) {
      await expect(audit.filter({ hasText: action })).toHaveCount(1);
    }
  });
});

test("an administrator adds a country and an issue in it, which show on the home page; deletion is refused while the country has issues", async ({
  page,
  axe,
}) => {
  // A long journey with axe on every page (replayed with script for the no-js project): three times the time.
  test.slow();
  const lead = await signedInAdministrator(page, "content-country");
  const run = randomUUID().slice(0, 8);
  const countryName = `Atlantis ${run}`;
  const issueName = `Sea rights ${run}`;

  await page.goto("/admin/content");
  await page.getByRole("link", { name: "Add a country" }).click();
  await expect(heading(page)).toHaveText("Add a country");
  await axe();
  // A required field left empty: the summary names it, the field says why, nothing is saved.
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("alert")).toContainText("Name: This field is required.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();
  await page.getByLabel("Name", { exact: true }).fill(countryName);
  await page.getByLabel("Order", { exact: true }).fill("50");
  await page.getByLabel("Order of dates").selectOption("DMY");
  await page.getByLabel("Style of dates").selectOption("long");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toContainText("Published: version 1");
  await expect(heading(page)).toHaveText(`Edit country: ${countryName}`);
  const countryId = /\/admin\/content\/countries\/(\d+)$/.exec(page.url())?.[1];
  expect(countryId).toBeTruthy();

  await page.goto("/admin/content");
  await page.getByRole("link", { name: `Add an issue in ${countryName}` }).click();
  await expect(heading(page)).toHaveText("Add an issue");
  await expect(page.getByLabel("Country", { exact: true })).toHaveValue(countryId!);
  await axe();
  await page.getByLabel("Name", { exact: true }).fill(issueName);
  await page.getByLabel("Description", { exact: true }).fill("Who this is for.\n\n- one\n- two");
  await page.getByLabel("Guide", { exact: true }).selectOption("case-summary");
  await page.getByLabel("Sensitive issue").check();
  await page.getByLabel("Rephrase variables").fill("Event description TE, Outcome wanted TE");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toContainText("Published: version 1");
  const issueId = /\/admin\/content\/issues\/(\d+)$/.exec(page.url())?.[1];
  await expect(page.getByLabel("Sensitive issue")).toBeChecked();
  await axe();

  await page.goto(`/?country=${countryId}`);
  await page.getByRole("link", { name: issueName }).click();
  await expect(heading(page)).toHaveText(issueName);
  // Sensitive: a way out, and the issue's name out of the tab and the history list.
  await expect(page.getByRole("link", { name: "Leave this page" })).toHaveAttribute("href", "https://www.google.com/");
  await expect(page).toHaveTitle("Legal Self-Help");
  await axe();

  await page.goto(`/admin/content/countries/${countryId}/delete`);
  await axe();
  await page.getByRole("button", { name: `Delete ${countryName}` }).click();
  await expect(page.getByRole("alert")).toContainText("This country has issues");
  await axe();
  await page.goto(`/admin/content/issues/${issueId}/delete`);
  await page.getByRole("button", { name: `Delete ${issueName}` }).click();
  await expect(page.getByRole("status")).toContainText("The issue is deleted");
  await page.goto(`/admin/content/countries/${countryId}/delete`);
  await page.getByRole("button", { name: `Delete ${countryName}` }).click();
  await expect(page.getByRole("status")).toContainText("The country is deleted");
  expect(await page.request.get(`/issues/${issueId}`).then((r) => r.status())).toBe(404);

  // Addresses of nothing, even to an administrator: the not-found page, never an error.
  for (const path of [
    `/admin/content/countries/${countryId}`,
    `/admin/content/issues/${issueId}/delete`,
    "/admin/content/pages/home/delete",
    "/admin/content/pages/contact",
    "/admin/content/pages/home/versions/99999",
    "/admin/content/issues/99999/history",
    "/admin/content/people/1",
  ]) {
    expect((await page.request.get(path)).status(), path).toBe(404);
  }
  const origin = new URL(page.url()).origin;
  expect((await page.request.post(`/admin/content/issues/${issueId}`, { form: { intent: "publish", name: "Back" }, headers: { Origin: origin } })).status()).toBe(404);

  await page.goto("/admin/audit");
  const audit = page.getByRole("row").filter({ hasText: lead });
  await expect(audit.filter({ hasText: "Published content" }).filter({ hasText: `country ${countryId}` })).toHaveCount(1);
  await expect(audit.filter({ hasText: "Published content" }).filter({ hasText: `issue ${issueId}` })).toHaveCount(1);
  await expect(audit.filter({ hasText: "Deleted content" })).toHaveCount(2);
});

test("a person who is not an administrator, and a visitor, get the not-found page on every content page and form", async ({ page, browser }) => {
  const person = uniqueEmail("content-not");
  await plantSignedIn(page, person);
  const visitor = await browser.newContext();
  const origin = new URL(page.url()).origin;
  const pages = [
    "/admin/content",
    "/admin/content/pages/home",
    "/admin/content/pages/about/history",
    "/admin/content/pages/home/versions/1",
    "/admin/content/countries/new",
    "/admin/content/issues/new",
    "/admin/content/issues/1",
    "/admin/content/issues/1/delete",
  ];
  const posts: [string, Record<string, string>][] = [
    [
      "/admin/content/pages/home",
      {
        intent: "publish",
        headline: "Taken over",
        subHeadline: "x",
        bodyCopy: "x",
      },
    ],
    [
      "/admin/content/countries/new",
      {
        intent: "publish",
        name: "Nowhere",
        order: "1",
        dateOrder: "DMY",
        dateStyle: "long",
      },
    ],
    ["/admin/content/pages/home/versions/1", {}],
    ["/admin/content/countries/4/delete", {}],
    ["/admin/content/issues/1/delete", {}],
  ];
  try {
    for (const client of [page.request, visitor.request]) {
      for (const path of pages) {
        const response = await client.get(path);
        expect(response.status(), path).toBe(404);
        expect(await response.text(), path).toContain("couldn&#x27;t find this page");
      }
      for (const [path, form] of posts) {
        expect((await client.post(path, { form, headers: { Origin: origin } })).status(), `POST ${path}`).toBe(404);
      }
    }
  } finally {
    await visitor.close();
  }
  withE2eDatabase((db) => {
    expect(
      (
        db.prepare("select headline from home_content").get() as {
          headline: string;
        }
      ).headline,
    ).not.toBe("Taken over");
    expect(db.prepare("select id from issues where id = 1").get()).toBeTruthy();
    expect(db.prepare("select id from categories where id = 4").get()).toBeTruthy();
    expect(db.prepare("select id from categories where name = 'Nowhere'").get()).toBeUndefined();
  });
});
