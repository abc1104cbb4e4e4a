import { readFileSync } from "node:fs";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { plantGuide, withE2eDatabase } from "./support";
import { fillDate, press, viewer } from "./viewer";

// Issue 29, part 5: date and number limits people can meet. In a real public A2J guide a date field allowed only
// December 2014, and a person who typed a date in 1990 was told only the author's generic prompt. Here the hint
// says the limits before anyone errs, and a date outside them gets the author's prompt and the reason.
// The guide: tests/fixtures/guides/field-limits (a date limited to December 2014, a number limited to 1 to 10).

const PROMPT = "You must enter a month, day and year in the highlighted spaces before you can continue.";
const DATE_LIMITS = "A date between 1 December 2014 and 31 December 2014";
const DATE_REASON = "Please enter a date between 1 December 2014 and 31 December 2014.";

/** An issue of Singapore's (dates in the long day-first style) running the guide; the database's next id. */
function plantLimitsIssue(name: string): number {
  const source = readFileSync("tests/fixtures/guides/field-limits/Guide.json", "utf8");
  return withE2eDatabase((db) => {
    plantGuide(db, "field-limits", "Field limits (test guide)", source);
    return Number(
      db
        .prepare("insert into issues (category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (1, ?, '', 'field-limits', 'field-limits/Guide.json', 'gpt-3.5-turbo', '')")
        .run(name).lastInsertRowid,
    );
  });
}

test("a date field says its limits before anyone errs; a date outside them gets the author's prompt and the limits, a number the same", async ({ browser, javaScriptEnabled }, testInfo) => {
  const issueId = plantLimitsIssue(`Field limits (${testInfo.project.name})`);
  const person = await signedInPerson(browser, javaScriptEnabled, "field-limits");
  const { page } = person;
  const axe = () => expectNoAxeViolations(page, javaScriptEnabled);
  try {
    await page.goto(`/issues/${issueId}/interviews`);
    const frame = viewer(page);
    // Asked anew each time: with script the frame takes over from the page in place at the first step.
    const date = () => frame.getByRole("group", { name: /Date of the hearing/ });
    const children = () => frame.getByLabel(/^Number of children/);

    // Before anything is typed: the limits in each hint, in Singapore's style, read with the question.
    await expect(frame.getByText(DATE_LIMITS, { exact: true })).toBeVisible();
    await expect(date()).toHaveAccessibleDescription(`${DATE_LIMITS} For example, 27 3 2007`);
    await expect(children()).toHaveAccessibleDescription("A number from 1 to 10");
    await axe();
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`limits-${width}.png`), fullPage: true });
    }

    // A full date in 1990, and 11 children: the author's prompt stays, and the reason follows it.
    await fillDate(frame, /Date of the hearing/, { day: "13", month: "1", year: "1990" });
    await children().fill("11");
    await press(frame, "Continue", { stays: true });
    const summary = frame.getByRole("alert");
    await expect(summary).toContainText(`Date of the hearing: ${PROMPT} ${DATE_REASON}`);
    await expect(summary).toContainText("Number of children: Please enter a number between 1 and 10.");
    await expect(date()).toHaveAccessibleDescription(`${DATE_LIMITS} For example, 27 3 2007 ${PROMPT} ${DATE_REASON}`);
    await expect(children()).toHaveAccessibleDescription("A number from 1 to 10 Please enter a number between 1 and 10.");
    await expect(children()).toHaveAttribute("aria-invalid", "true");
    // What was typed is still there.
    await expect(date().getByLabel("Year")).toHaveValue("1990");
    await expect(children()).toHaveValue("11");
    await axe();
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: testInfo.outputPath(`limits-errors-${width}.png`), fullPage: true });
    }

    // Inside the limits, the interview goes on.
    await fillDate(frame, /Date of the hearing/, { day: "15", month: "12", year: "2014" });
    await children().fill("2");
    await press(frame, "Continue");
    await expect(frame.getByText("Your hearing was on 15 December 2014.")).toBeVisible();
  } finally {
    await person.context.close();
  }
});
