import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { plantInterviews, setInterviewVars, withE2eDatabase } from "./support";

// Issue 32: a person who finished an interview may give a copy of its answers, without what they typed, to test
// new versions of its guide; the administrator finds it among the guide's scenarios, naming no one.

test("a person gives a copy of a completed interview's answers; it is a scenario of the guide without their words", async ({ page, browser, javaScriptEnabled }) => {
  const person = await signedInPerson(browser, javaScriptEnabled, "give-answers", { firstName: "Ondine", lastName: "Quarrie" });
  const administrator = await signedInPerson(browser, javaScriptEnabled, "give-answers-admin", { role: "administrator" });
  try {
    const [id] = plantInterviews(person.email, [{ issueId: 2, status: "Completed", daysAgo: 0 }]);
    const text = (name: string, value: string) => ({ name, type: "Text", repeating: false, values: [null, value] });
    setInterviewVars(id!, {
      "client first name te": text("Client first name TE", "Ondine"),
      "client last name te": text("Client last name TE", "Quarrie"),
      "user gender": { name: "User Gender", type: "MC", repeating: false, values: [null, "Female"] },
      "already released tf": { name: "Already released TF", type: "TF", repeating: false, values: [null, true] },
    });

    const mine = person.page;
    await mine.goto(`/account/interview/${id}/answers`);
    const section = mine.getByRole("region", { name: "Help check this interview" });
    await expect(section).toContainText("Everything you typed in your own words, such as your name and address, is taken out first");
    await expectNoAxeViolations(mine, javaScriptEnabled);
    await section.getByRole("button", { name: "Give a copy of my answers" }).click();
    await expect(mine.getByRole("status").filter({ hasText: "Thank you. A copy of your answers, without what you typed, now helps check this interview." })).toBeVisible();
    await expect(mine).toHaveURL(`/account/interview/${id}/answers`);
    await mine.getByRole("button", { name: "Give a copy of my answers" }).click();
    await expect(mine.getByRole("status").filter({ hasText: "You have already given a copy of these answers. Thank you." })).toBeVisible();

    await expectNoAxeViolations(mine, javaScriptEnabled);

    // Only for the person's own completed interviews: a visitor is sent to sign in, someone else gets 404.
    const form = { data: "give=1", headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0, failOnStatusCode: false };
    const visitor = await page.request.post(`/account/interview/${id}/answers`, form);
    expect([visitor.status(), visitor.headers()["location"]]).toEqual([302, "/auth/sign-in"]);
    const other = await administrator.context.request.post(`/account/interview/${id}/answers`, form);
    expect(other.status()).toBe(404);

    const scenario = withE2eDatabase(
      (db) => db.prepare("select name, answers, expectations, created_by_email from guide_scenarios where guide_id = 're-entry-navigator' and created_by_email = ? order by created_at desc").get("a person's choice") as { name: string; answers: string; expectations: string; created_by_email: string },
    );
    expect(scenario.answers).not.toMatch(/Ondine|Quarrie/);
    expect(scenario.answers).toContain("Answer 1");
    const admin = administrator.page;
    await admin.goto("/admin/guides/re-entry-navigator");
    const row = admin.getByRole("row").filter({ hasText: scenario.name });
    await expect(row).toContainText("a person's choice");
    await expect(row).toContainText(scenario.expectations);
    await expect(admin.locator("main")).not.toContainText("Ondine");
    await expectNoAxeViolations(admin, javaScriptEnabled);
  } finally {
    await person.context.close();
    await administrator.context.close();
  }
});
