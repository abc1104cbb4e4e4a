import { LETTER_ANSWERS_ANX, LETTER_ANSWERS_JSON, scenarioGuideZip } from "../support/guide-fixtures";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli } from "./support";
import { viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Issue 32, as an administrator meets it: the health check of an upload (a dead end and a missing pick list,
// each opened in the preview at its page), test scenarios attached to the guide, and a new version whose
// document changed: one scenario fails, the document's lines differ, and publishing needs a confirmation that
// the audit records.

const zipUpload = (name: string, bytes: Uint8Array) => ({ name, mimeType: "application/zip", buffer: Buffer.from(bytes) });

test("an administrator reads the health check, attaches scenarios, and publishes a version with a failing scenario only when confirmed", async ({ page, axe }, testInfo) => {
  test.setTimeout(180_000);
  const guideId = `e2e-checks-${testInfo.project.name}`;
  const admin = uniqueEmail("checks-admin");
  await plantSignedIn(page, admin, { role: "administrator" });

  // Version 1: a dead end ("Opening hours") and a pick list whose file never came ("Advice"), off the letter's path.
  await page.goto("/admin/guides");
  await page.getByLabel("New guide id").fill(guideId);
  await page.getByLabel("Guide file").setInputFiles(zipUpload("letters.zip", scenarioGuideZip("Letters check", "Please pay within 14 days.", true)));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/guides/${guideId}/versions/1$`));
  const health = page.getByRole("region", { name: "Health check" });
  await expect(health).toContainText(/4 of 4 pages reached, \d+ states, \d+\.\d\d seconds: every path the check could take was explored\./);
  const errors = page.getByRole("region", { name: "2 errors: a person is stopped" });
  await expect(errors.getByRole("listitem").filter({ hasText: 'Page “Advice”, field "County":' })).toContainText('names the list file "counties.xml", which did not come with the guide');
  await expect(errors.getByRole("listitem").filter({ hasText: "Page “Opening hours”:" })).toContainText("The page has no buttons: a person who reaches it cannot go on.");
  await axe();

  // Each finding's link opens the preview at its page.
  await errors.getByRole("link", { name: "Open “Opening hours” in the preview" }).click();
  await expect(page).toHaveURL(new RegExp(`/preview/${guideId}\\?version=1&page=Opening\\+hours$`));
  await expect(page.getByText("It opens at the page “Opening hours”")).toBeVisible();
  await expect(viewer(page).getByText("Our office opens on weekdays.")).toBeVisible();
  await axe();
  await page.goBack();
  await page.getByRole("link", { name: "Open “Advice” in the preview" }).click();
  await expect(viewer(page).getByText("Which county do you live in?")).toBeVisible();
  await page.goBack();
  // On demand, for any version: the same findings again.
  await page.getByRole("button", { name: "Run the health check again" }).click();
  await expect(page.getByRole("status")).toHaveText("The health check ran again.");
  await expect(page.getByRole("region", { name: "2 errors: a person is stopped" })).toBeVisible();

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText("Version 1 is published: new interviews run it.");

  // Two scenarios on the guide's page: JSON answers and ANX answers; a form missing its file says so first.
  await page.getByLabel("Name").fill("Pays within 14 days");
  await page.getByLabel("What must hold").fill("outcome: ASSEMBLE-SUCCESS\ndocument contains: Please pay within 14 days.");
  await page.getByRole("button", { name: "Add the scenario" }).click();
  await expect(page.getByRole("alert")).toContainText("Answer file: Choose an answer file (ANX or JSON).");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();
  await page.getByLabel("Name").fill("Pays within 14 days");
  await page.getByLabel("Answer file").setInputFiles({ name: "ada.json", mimeType: "application/json", buffer: Buffer.from(LETTER_ANSWERS_JSON) });
  await page.getByLabel("What must hold").fill("outcome: ASSEMBLE-SUCCESS\ndocument contains: Please pay within 14 days.");
  await page.getByRole("button", { name: "Add the scenario" }).click();
  await expect(page.getByRole("status")).toContainText("The scenario “Pays within 14 days” is added");
  await page.getByLabel("Name").fill("Names the person");
  await page.getByLabel("Answer file").setInputFiles({ name: "grace.anx", mimeType: "application/xml", buffer: Buffer.from(LETTER_ANSWERS_ANX) });
  await page.getByLabel("What must hold").fill("page: Letter\ndocument contains: I, Grace, ask you to pay 90 dollars.\nvariable: First name TE = Grace");
  await page.getByRole("button", { name: "Add the scenario" }).click();
  await expect(page.getByRole("status")).toContainText("The scenario “Names the person” is added");
  await expect(page.getByRole("table", { name: "Test scenarios of Letters check" }).getByRole("row")).toHaveCount(3);
  await axe();

  // Version 2 changes the letter's last line: one scenario fails, and the document's lines show what changed.
  await page.goto("/admin/guides");
  await page.getByLabel("A new version of").selectOption({ label: `Letters check (${guideId})` });
  await page.getByLabel("Guide file").setInputFiles(zipUpload("letters-v2.zip", scenarioGuideZip("Letters check", "Please pay within 7 days.")));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/guides/${guideId}/versions/2$`));
  await expect(page.getByRole("region", { name: "Health check" })).toContainText("No problems found.");
  const scenarios = page.getByRole("region", { name: "Test scenarios" });
  await expect(scenarios).toContainText("1 of 2 scenarios fail. Documents are compared with version 1, the one published before.");
  const failing = page.getByRole("region", { name: "Pays within 14 days: fails" });
  await expect(failing).toContainText('Fails: A document contains "Please pay within 14 days." (no document contains this text)');
  const diff = failing.getByRole("table", { name: "Document “Letter of demand”: changed from version 1 (version 2)" });
  await expect(diff.getByRole("row").filter({ hasText: "Removed" })).toHaveText(/Please pay within 14 days\./);
  await expect(diff.getByRole("row").filter({ hasText: "Added" })).toHaveText(/Please pay within 7 days\./);
  // The other scenario passes: its letter changed the same way, which its expectations allow.
  const passing = page.getByRole("region", { name: "Names the person: passes" });
  await expect(passing.getByRole("table", { name: "Document “Letter of demand”: changed from version 1 (version 2)" }).getByRole("row").filter({ hasText: "Unchanged" })).toHaveText([/Dear Sir or Madam,/, /I, Grace, ask you to pay 90 dollars\./]);
  await axe();

  // Publishing needs the box ticked; the audit says it was published with the failing scenario.
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("alert")).toContainText("A test scenario fails (Pays within 14 days): tick the box to publish anyway.");
  await expect(page.getByLabel("Publish although a scenario fails")).toHaveAttribute("aria-invalid", "true");
  await axe();
  await page.getByLabel("Publish although a scenario fails").check();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText("Version 2 is published: new interviews run it.");

  await page.goto("/admin/audit");
  const audit = page.getByRole("row").filter({ hasText: guideId }).filter({ hasText: admin });
  await expect(audit.filter({ hasText: "Added a test scenario to a guide" })).toHaveCount(2);
  await expect(audit.filter({ hasText: "Published a guide version" }).filter({ hasText: `${guideId} (version 2, confirmed with failing scenarios: Pays within 14 days)` })).toHaveCount(1);
  await axe();
});
