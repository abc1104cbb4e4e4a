import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, withE2eDatabase } from "./support";
import { fillDate, press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// An A2J Author 4 guide (root <TEMPLATE>), our own (app/a2j/__fixtures__/a2j4), imported by the operator command
// of the built bundle as cli.spec.ts runs it, then answered by a person in the viewer.
const folder = "app/a2j/__fixtures__/a2j4";
const NO_CHOICES = "This question cannot be answered yet: its list of choices is missing from the interview. Please tell the organisation that runs this interview.";

test("an operator imports an A2J 4 guide zip; a person answers it to the end, its missing court list told plainly", async ({ page, axe }, testInfo) => {
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-e2e-a2j4-"));
  const issueId = testInfo.project.name === "js" ? 940 : 941;
  const guideId = `a2j4-${testInfo.project.name}`;
  try {
    withE2eDatabase((db) => {
      db.prepare(
        "insert into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (?, 1, 'Repairs (A2J 4)', '', null, null, 'gpt-3.5-turbo', '') on conflict do nothing",
      ).run(issueId);
    });
    const zip = path.join(dir, "repair-request.zip");
    writeFileSync(zip, zipSync(Object.fromEntries(readdirSync(folder).map((name) => [`repair-request/${name}`, readFileSync(path.join(folder, name))]))));
    const imported = cli("guide", "import", zip, "--id", guideId, "--issue", String(issueId));
    expect(imported, imported.output).toMatchObject({ status: 0, output: expect.stringContaining(`guide "Repair request (A2J 4 test guide)" imported as ${guideId} (version 1) with 1 file(s)`) });
    expect(imported.output).toContain('warning: page "3 Contact" field "Court:": the pick list file "courts.xml" is not among the guide\'s files');
    expect(imported.output).toContain(`attached to issue ${issueId}`);

    await plantSignedIn(page, uniqueEmail("a2j4"));
    await page.goto(`/issues/${issueId}/interviews`);
    const frame = viewer(page);
    await expect(frame.locator("#viewer-heading")).toContainText("This interview writes a letter asking your landlord for repairs.");
    await press(frame, "Continue");
    await frame.getByLabel(/^First name/).fill("Ann");
    await frame.getByLabel(/^Last name/).fill("Lee");
    await press(frame, "Continue");

    await expect(frame.locator("#viewer-heading")).toContainText("How can the landlord reach you, Ann?");
    // The county list came in the zip, the state list is the copy saved in the guide, the court list is missing.
    await frame.getByLabel(/^Phone/).fill("5551234567");
    await frame.getByLabel(/^Zip code/).fill("12345");
    await frame.getByLabel(/^County/).selectOption("River");
    await frame.getByLabel(/^State/).selectOption("NS");
    await expect(frame.getByText(NO_CHOICES)).toBeVisible();
    await expect(frame.locator('[name="court mc"]')).toHaveCount(0);
    await axe();
    await page.screenshot({ path: testInfo.outputPath("no-court-list-1280.png"), fullPage: true });
    await press(frame, "Continue");

    await frame.getByLabel(/^Monthly rent/).fill("1200");
    await frame.getByLabel(/^People in your home/).fill("3");
    await press(frame, "Continue");
    await frame.getByLabel("No heat").check();
    await frame.getByLabel("Urgent", { exact: true }).check();
    await press(frame, "Continue");
    await fillDate(frame, /Since/, { day: "15", month: "1", year: "2024" });
    await press(frame, "Continue");
    await press(frame, "List them");
    await expect(frame.locator("#viewer-heading")).toContainText("What is the first repair?");
    await frame.getByLabel(/^Repair/).fill("Boiler");
    await press(frame, "That is all");
    await expect(frame.locator("#viewer-heading")).toContainText("Thank you, Ann.");
    await press(frame, "Finish");
    await frame.getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an A2J 4 guide imported without its county list: the question refuses to go on and says why", async ({ page, axe }, testInfo) => {
  const guideId = `a2j4-alone-${testInfo.project.name}`;
  const imported = cli("guide", "import", path.join(folder, "Repair-request_Interview.xml"), "--id", guideId);
  expect(imported, imported.output).toMatchObject({ status: 0 });
  expect(imported.output).toContain('warning: page "3 Contact" field "County:": the pick list file "counties.xml" is not among the guide\'s files, so people cannot answer this question. Add counties.xml to the guide and import it again.');

  await plantSignedIn(page, uniqueEmail("a2j4-alone"));
  await page.goto(`/preview/${guideId}`);
  const frame = viewer(page);
  await press(frame, "Continue");
  await frame.getByLabel(/^First name/).fill("Ann");
  await frame.getByLabel(/^Last name/).fill("Lee");
  await press(frame, "Continue");
  await expect(frame.getByText('For the guide\'s author: the pick list file "counties.xml" is not among the guide\'s files. Add it to the guide and import it again.')).toBeVisible();
  await frame.getByLabel(/^Phone/).fill("5551234567");
  await frame.getByLabel(/^Zip code/).fill("12345");
  await frame.getByLabel(/^State/).selectOption("SS");
  await press(frame, "Continue", { stays: true });
  const summary = frame.getByRole("alert");
  await expect(summary.getByRole("link", { name: NO_CHOICES })).toBeVisible();
  await axe();
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: testInfo.outputPath(`no-county-list-${width}.png`), fullPage: true });
  }
});
