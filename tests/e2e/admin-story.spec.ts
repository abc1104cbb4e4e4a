import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { versionedGuideZip } from "../support/guide-fixtures";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli } from "./support";
import { press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 17 as an organisation lives it, in one story: a new country and issue, a guide uploaded and published for it,
// a person who signs up and finishes the interview, a second version that replaces the first while an interview on
// the first goes on, and an audit that lists every step. (The home page's headline changes in admin-content.spec.ts,
// on a server of its own, as other specs read the shared one.)

const zipUpload = (name: string, bytes: Uint8Array) => ({ name, mimeType: "application/zip", buffer: Buffer.from(bytes) });

/** The number at the end of the page's address (the item an administration page shows). */
const idInUrl = (page: Page) => /\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1] ?? "";

test("an administrator opens a new country and issue with an uploaded guide; people finish it on its first version and its second", async ({ page, browser, axe }, testInfo) => {
  test.setTimeout(300_000);
  const run = randomUUID().slice(0, 8);
  const countryName = `Narnia ${run}`;
  const issueName = `Boundary disputes ${run}`;
  const guideId = `story-${run}`;
  const admin = uniqueEmail("story-admin");
  await plantSignedIn(page, admin, { role: "administrator" });

  // A new country, then an issue in it (no guide yet).
  await page.goto("/admin/content");
  await page.getByRole("link", { name: "Add a country" }).click();
  await page.getByLabel("Name", { exact: true }).fill(countryName);
  await page.getByLabel("Order", { exact: true }).fill("70");
  await page.getByLabel("Order of dates").selectOption("DMY");
  await page.getByLabel("Style of dates").selectOption("long");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Edit country: ${countryName}`);
  const countryId = idInUrl(page);
  await page.goto("/admin/content");
  await page.getByRole("link", { name: `Add an issue in ${countryName}` }).click();
  await page.getByLabel("Name", { exact: true }).fill(issueName);
  await page.getByLabel("Description", { exact: true }).fill("When a neighbour's fence or tree crosses onto your land.");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(issueName);
  const issueId = idInUrl(page);
  expect(Number(issueId)).toBeGreaterThan(0);
  await axe();

  // The guide: uploaded, its warnings read, published, attached to the new issue.
  await page.goto("/admin/guides");
  await page.getByLabel("New guide id").fill(guideId);
  await page.getByLabel("Guide file").setInputFiles(zipUpload("boundary.zip", versionedGuideZip(`Boundary guide ${run}`, 1, true)));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("heading", { name: "5 warnings" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Unknown functions" })).toContainText('unknown function "SHOUT"');
  await axe();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText("Version 1 is published: new interviews run it.");
  await page.getByLabel("Issue").selectOption({ label: `${countryName}: ${issueName}` });
  await page.getByRole("button", { name: "Attach" }).click();
  await expect(page.getByRole("status")).toHaveText(`${issueName} now runs this guide.`);

  // A person finds the issue under its country, signs up and finishes the interview; another starts and stops.
  const javaScriptEnabled = testInfo.project.use.javaScriptEnabled;
  const finisher = await browser.newContext({ javaScriptEnabled });
  const starter = await browser.newContext({ javaScriptEnabled });
  let startedUrl = "";
  try {
    const person = await finisher.newPage();
    await plantSignedIn(person, uniqueEmail("story-person"));
    await person.goto(`/?country=${countryId}`);
    await person.getByRole("link", { name: issueName }).click();
    await expect(person.getByRole("heading", { level: 1 })).toHaveText(issueName);
    await person.getByRole("link", { name: "Start now" }).click();
    const frame = viewer(person);
    await expect(frame.getByText("Version 1: what is your name?")).toBeVisible();
    await frame.getByLabel("First name").fill("Ada");
    await press(frame, "Continue");
    await expect(frame.getByText("Version 1: thank you, Ada.")).toBeVisible();
    await press(frame, "Finish");
    await viewer(person).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(person.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    await axe();

    const other = await starter.newPage();
    await plantSignedIn(other, uniqueEmail("story-starter"));
    await other.goto(`/issues/${issueId}/interviews`);
    await viewer(other).getByLabel("First name").fill("Bo");
    await press(viewer(other), "Continue");
    await expect(viewer(other).getByText("Version 1: thank you, Bo.")).toBeVisible();
    startedUrl = other.url().replace(/#.*$/, "");

    // Version 2 replaces it.
    await page.goto("/admin/guides");
    await page.getByLabel("A new version of").selectOption({ label: `Boundary guide ${run} (${guideId})` });
    await page.getByLabel("Guide file").setInputFiles(zipUpload("boundary-2.zip", versionedGuideZip(`Boundary guide ${run}`, 2)));
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByText("No warnings.")).toBeVisible();
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toHaveText("Version 2 is published: new interviews run it.");

    // The interview begun on version 1 goes on, and finishes, on version 1.
    await other.goto(startedUrl);
    await expect(viewer(other).getByText("Version 1: thank you, Bo.")).toBeVisible();
    await press(viewer(other), "Finish");
    await viewer(other).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(other.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    // A new interview runs version 2.
    await person.goto(`/issues/${issueId}/interviews`);
    await expect(viewer(person).getByText("Version 2: what is your name?")).toBeVisible();
  } finally {
    await finisher.close();
    await starter.close();
  }

  // The history names both versions and who uploaded them; the audit lists every step.
  await page.goto(`/admin/guides/${guideId}`);
  await expect(page.getByRole("row").filter({ hasText: "Version 1" }).filter({ hasText: admin })).toHaveCount(1);
  await expect(page.getByRole("row").filter({ hasText: "Version 2" }).filter({ hasText: admin }).filter({ hasText: "Published" })).toHaveCount(1);
  await page.goto("/admin/audit");
  const mine = page.getByRole("row").filter({ hasText: admin });
  await expect(mine.filter({ hasText: "Published content" }).filter({ hasText: `country ${countryId}` })).toHaveCount(1);
  await expect(mine.filter({ hasText: "Published content" }).filter({ hasText: `issue ${issueId}` }).first()).toBeVisible();
  await expect(mine.filter({ hasText: "Uploaded a guide version" }).filter({ hasText: guideId })).toHaveCount(2);
  await expect(mine.filter({ hasText: "Published a guide version" }).filter({ hasText: guideId })).toHaveCount(2);
  await expect(mine.filter({ hasText: "Attached a guide to an issue" }).filter({ hasText: guideId })).toHaveCount(1);
  await axe();
});
