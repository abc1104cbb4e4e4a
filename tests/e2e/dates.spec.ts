import type { Page } from "@playwright/test";
import { extractText } from "unpdf";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { interviewVars, moveInterviewTo, openedColumn, sealedColumn, withE2eDatabase } from "./support";
import { axeOnViewer, press, viewer, type ViewerScope } from "./viewer";
import { plantSignedIn } from "./people";

/** The interview's id, from the frame the viewer is in. */
async function interviewIdOf(frame: ViewerScope): Promise<string> {
  const id = await frame.locator("[data-viewer]").getAttribute("data-interview-id");
  if (!id) throw new Error("the interview is not saved yet");
  return id;
}

/** The date boxes of the About-you page, in the order the page shows them. */
const boxLabels = (frame: ViewerScope) => frame.getByRole("group", { name: /Date of birth/ }).locator("label").allTextContents();

/**
 * axe on the viewer's page in an error state, opened as the whole page (a frame's own state cannot be
 * replayed on the no-js project; without script the interview page already shows the viewer's page in
 * place): `fill` makes the errors there.
 */
async function axeOnViewerErrors(page: Page, axe: () => Promise<void>, fill: (viewerPage: Page) => Promise<void>) {
  const host = page.url();
  const frame = page.frames().find((f) => f.url().includes("/viewer?") && f !== page.mainFrame());
  if (frame) await page.goto(frame.url());
  await fill(page);
  await expect(page.getByRole("alert")).toBeVisible();
  await axe();
  await page.goto(host);
}

test.describe("dates in the person's order", () => {
  test("a Singapore issue: Day 13, Month 1, Year 1990 is stored as A2J's 01/13/1990 and printed as 13 January 1990; a wrong day is named", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("dates-sg"));
    await page.goto("/issues/1/interviews");
    const frame = viewer(page);
    await press(frame, "Start");

    // The boxes in the person's order, with the hint; the guide's "(month/day/year)" gives way to them.
    await expect(frame.getByRole("group", { name: "Date of birth (optional)" })).toBeVisible();
    expect(await boxLabels(frame)).toEqual(["Day", "Month", "Year"]);
    await expect(frame.getByText("For example, 27 3 2007")).toBeVisible();
    await expect(frame.getByLabel("Day")).toHaveAttribute("inputmode", "numeric");
    await expect(frame.locator(".viewer__step")).toHaveText("Step 2 of 6: About you");
    // Text fields say the guide's limit before anything is sent.
    await expect(frame.getByLabel(/^First name/)).toHaveAttribute("maxlength", "60");
    await axe();
    await axeOnViewer(page, axe);

    await frame.getByLabel(/^First name/).fill("Ann");
    await frame.getByLabel(/^Last name/).fill("Lee");
    await frame.getByLabel("Day").fill("32");
    await frame.getByLabel("Month").fill("1");
    await frame.getByLabel("Year").fill("1990");
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("The day must be a number from 1 to 31.");
    // Only the wrong box is marked; what was typed is still there.
    await expect(frame.getByLabel("Day")).toHaveAttribute("aria-invalid", "true");
    await expect(frame.getByLabel("Month")).not.toHaveAttribute("aria-invalid", /.*/);
    await expect(frame.getByLabel("Year")).toHaveValue("1990");
    await expect(frame.getByRole("group", { name: /Date of birth/ })).toHaveAccessibleDescription(/For example, 27 3 2007 The day must be a number from 1 to 31\./);

    await frame.getByLabel("Day").fill("13");
    await press(frame, "Continue");
    const id = await interviewIdOf(frame);
    expect(interviewVars(id)["birth date da"]!.values[1]).toBe("01/13/1990");
    // The ANX answer file (getDataUrl), built from the stored answers, writes ANX's day/month/year.
    expect(await (await page.request.get(`/interviews/${id}/answers`)).text()).toContain("<DateValue>13/01/1990</DateValue>");

    // Back shows the stored date in the boxes again.
    await press(frame, "Back");
    await expect(frame.getByLabel("Day")).toHaveValue("13");
    await expect(frame.getByLabel("Month")).toHaveValue("1");
    await expect(frame.getByLabel("Year")).toHaveValue("1990");

    await axeOnViewerErrors(page, axe, async (top) => {
      await top.getByLabel("Month").fill("13");
      await top.getByRole("button", { name: "Continue", exact: true }).click();
      await expect(top.getByRole("alert")).toContainText("The month must be a number from 1 to 12, or its name.");
      await expect(top.getByLabel("Month")).toHaveAttribute("aria-invalid", "true");
    });

    // "Check your answers" shows the date the country's way, and a loop's entry by its noun ("Event 1", from
    // the guide's EventIndex). The interview is planted at its finishing page, with one event on the way.
    withE2eDatabase((db) => {
      const row = db.prepare("select vars, engine_state from interviews where id = ?").get(id) as { vars: string; engine_state: string };
      const vars = JSON.parse(openedColumn("vars", id, row.vars)) as Record<string, unknown>;
      vars["event date da"] = { name: "Event date DA", type: "Date", repeating: true, values: [null, "03/27/2025"] };
      const state = JSON.parse(openedColumn("engine_state", id, row.engine_state)) as { history: { interviewPage: string; repeatVarValue: number | null; outerLoopVarValue: null }[] };
      state.history.push({ interviewPage: "07-Event", repeatVarValue: 1, outerLoopVarValue: null }, { interviewPage: "13-Review", repeatVarValue: null, outerLoopVarValue: null });
      db.prepare("update interviews set vars = ?, engine_state = ? where id = ?").run(
        sealedColumn("vars", id, JSON.stringify(vars)),
        sealedColumn("engine_state", id, JSON.stringify(state)),
        id,
      );
    });
    await page.goto(`/issues/1/interviews/${id}`);
    const finishing = viewer(page);
    await press(finishing, "Create my summary");
    await expect(finishing.locator("#viewer-heading")).toHaveText("Check your answers");
    const birth = finishing.locator(".answer-summary__row", { hasText: "Date of birth" });
    await expect(birth.locator("dt")).toHaveText("Date of birth (optional)");
    await expect(birth.locator("dd").first()).toHaveText("13 January 1990");
    const event = finishing.locator(".answer-summary__entry", { hasText: "Event 1" });
    await expect(event.getByRole("heading", { level: 3 })).toHaveText("Event 1");
    await expect(event.locator(".answer-summary__row").first().locator("dt")).toHaveText("Date");
    await expect(event.locator(".answer-summary__row").first().locator("dd").first()).toHaveText("27 March 2025");
    await expect(finishing.getByText("01/13/1990")).toHaveCount(0);
    await finishing.getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();

    // The document prints the date the country's way.
    expect(withE2eDatabase((db) => (db.prepare("select status from interviews where id = ?").get(id) as { status: string }).status)).toBe("Completed");
    const document = await page.request.get(`/account/interview/${id}/download`);
    expect(document.headers()["content-type"]).toBe("application/pdf");
    const { text } = await extractText(new Uint8Array(await document.body()), { mergePages: true });
    expect(text).toContain("13 January 1990");
    expect(text).not.toContain("01/13/1990");
  });

  test("a US issue keeps month/day/year", async ({ page, axe }) => {
    // A country the content does not describe writes dates as A2J does (db/migrations/0008_country_dates.ts).
    withE2eDatabase((db) => {
      db.prepare("insert or ignore into categories (id, name, sort_order) values (90, 'United States', 90)").run();
      db.prepare(
        "insert or ignore into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (90, 90, 'Case summary (US)', 'A guide imported for a US issue.', 'case-summary', 'case-summary/Guide.json', 'gpt-3.5-turbo', '')",
      ).run();
    });
    await plantSignedIn(page, uniqueEmail("dates-us"));
    await page.goto("/issues/90/interviews");
    const frame = viewer(page);
    await press(frame, "Start");
    expect(await boxLabels(frame)).toEqual(["Month", "Day", "Year"]);
    await expect(frame.getByText("For example, 3 27 2007")).toBeVisible();
    await axeOnViewer(page, axe);
    await frame.getByLabel(/^First name/).fill("Ann");
    await frame.getByLabel(/^Last name/).fill("Lee");
    await frame.getByLabel("Month").fill("1");
    await frame.getByLabel("Day").fill("13");
    await frame.getByLabel("Year").fill("1990");
    await press(frame, "Continue");
    const id = await interviewIdOf(frame);
    expect(interviewVars(id)["birth date da"]!.values[1]).toBe("01/13/1990");

    // A loop's page says which entry it is.
    moveInterviewTo(id, "07-Event", 2);
    await page.goto(`/issues/90/interviews/${id}`);
    await expect(viewer(page).locator(".viewer__step")).toHaveText("Step 4 of 6: What happened – Event 2");
    await axe();
  });
});
