import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, plantAtFinish, plantInterviews, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// How the service is used (issue 17, part 4): counted as people use it, shown per issue to administrators only.
// Each run plants an issue of its own that runs the Re-Entry Navigator (issue 2's guide), so its numbers are exact
// whatever else the other tests do.
function plantUsageIssue(): { id: number; name: string } {
  const id = 20_000 + Math.floor(Math.random() * 1_000_000);
  const name = `Usage test ${id}`;
  withE2eDatabase((db) =>
    db
      .prepare(
        "insert into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) select ?, category_id, ?, content, guide_id, guide_path, model_ai, rephrase_content from issues where id = 2",
      )
      .run(id, name),
  );
  return { id, name };
}

/** The page an interview is at, as stored: a keyed token, not the page's name. */
const lastPageOf = (interviewId: string) =>
  withE2eDatabase((db) => (db.prepare("select last_page from interviews where id = ?").get(interviewId) as { last_page: string | null }).last_page);
const stopPage = "1-Name and gender";

test("a person stops on a page, another finishes and downloads; the administrator's usage page shows the numbers and the stop page", async ({
  page,
  browser,
  axe,
}) => {
  // A long journey with axe on every page (replayed with script for the no-js project): three times the time.
  test.slow();
  const issue = plantUsageIssue();
  /** Runs `use` with a page of a browser context of its own (a second person), closed afterwards. */
  async function asAnotherPerson<T>(use: (other: typeof page) => Promise<T>): Promise<T> {
    const context = await browser.newContext();
    try {
      return await use(await context.newPage());
    } finally {
      await context.close();
    }
  }

  // One person starts the interview and stops on its name page; four more stopped there (planted): five, so
  // the page may be named.
  const stopper = uniqueEmail("usage-stop");
  const stopToken = await asAnotherPerson(async (person) => {
    await plantSignedIn(person, stopper);
    await person.goto(`/issues/${issue.id}/interviews`);
    const frame = viewer(person);
    await press(frame, "Continue");
    await press(frame, "Continue");
    await press(frame, "Get Started");
    await expect(frame.getByLabel(/^First/)).toBeVisible();
    const stoppedId = await frame.locator("[data-viewer]").getAttribute("data-interview-id");
    // A person who is not an administrator gets the not-found page on the usage pages.
    for (const path of ["/admin/usage", `/admin/usage/${issue.id}`, `/admin/usage/${issue.id}.data`]) {
      expect((await person.request.get(path)).status(), path).toBe(404);
    }
    return lastPageOf(stoppedId!);
  });
  expect(stopToken).toMatch(/^[\w-]{22}$/);
  const planted = plantInterviews(stopper, Array.from({ length: 4 }, () => ({ issueId: issue.id, status: "Draft" as const, daysAgo: 0 })));
  withE2eDatabase((db) => {
    const update = db.prepare("update interviews set last_page = ? where id = ?");
    for (const id of planted) update.run(stopToken, id);
  });

  // Another finishes and downloads the document.
  await asAnotherPerson(async (person) => {
    const email = uniqueEmail("usage-finish");
    await plantSignedIn(person, email);
    const id = plantAtFinish(email, issue.id);
    await person.goto(`/issues/${issue.id}/interviews/${id}`);
    await press(viewer(person), "Finish");
    await viewer(person).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(person.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    const document = await person.request.get(`/account/interview/${id}/download`);
    expect(document.headers()["content-type"]).toBe("application/pdf");
  });

  // A visitor gets the not-found page too.
  await asAnotherPerson(async (visitor) => {
    for (const path of ["/admin/usage", `/admin/usage/${issue.id}`]) expect((await visitor.request.get(path)).status(), path).toBe(404);
  });

  // The administrator.
  const email = uniqueEmail("usage-admin");
  await plantSignedIn(page, email, { role: "administrator" });
  await page.goto("/admin");
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page).toHaveURL(/\/admin\/usage$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage");
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: issue.name }) });
  // Country, then Started, Completed, Abandoned, Documents downloaded, Documents signed.
  await expect(row.getByRole("cell")).toHaveText(["United Kingdom", "6", "1", "0", "1", "0"]);
  await axe();
  await page.screenshot({ path: `/tmp/usage-list-${test.info().project.name}.png`, fullPage: true });
  // At 320 px the table scrolls sideways in its own focusable region; the page itself does not.
  await page.setViewportSize({ width: 320, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await axe();
  await page.screenshot({ path: `/tmp/usage-list-320-${test.info().project.name}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole("link", { name: issue.name }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/usage/${issue.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Usage: ${issue.name}`);
  const thisMonth = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
  const months = page.getByRole("table", { name: /by month/ });
  await expect(months.getByRole("row").filter({ has: page.getByRole("rowheader", { name: thisMonth }) }).getByRole("cell")).toHaveText(["6", "1", "0", "1", "0"]);
  const stops = page.getByRole("table", { name: /stopped on/ });
  await expect(stops.getByRole("row").filter({ has: page.getByRole("rowheader", { name: stopPage, exact: true }) }).getByRole("cell")).toHaveText(["5"]);
  // The chart pictures the table; assistive technology reads the table.
  await expect(page.locator(".usage-chart")).toHaveAttribute("aria-hidden", "true");
  await expect(page.locator(".usage-chart rect.usage-series-started")).not.toHaveCount(0);
  await axe();
  await page.screenshot({ path: `/tmp/usage-issue-${test.info().project.name}.png`, fullPage: true });
  await page.setViewportSize({ width: 320, height: 800 });
  await axe();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.screenshot({ path: `/tmp/usage-issue-320-${test.info().project.name}.png`, fullPage: true });

  // An issue that does not exist, or an address that is no issue: not found.
  for (const path of ["/admin/usage/999999999", "/admin/usage/x"]) expect((await page.request.get(path)).status(), path).toBe(404);
});
