import { readFileSync } from "node:fs";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { signedInPerson } from "./people";
import { interviewVars, plantGuide, plantInterviews, setInterviewVars, withE2eDatabase } from "./support";
import { viewer } from "./viewer";

// Issue 29, parts 1 and 2: a new interview is offered the answers the person gave before to variables of the same
// name (reviewed, ticked or not), and an interview starts from an answer file, checked against its guide.

const smallClaims = readFileSync("tests/fixtures/guides/en-small-claims/Guide.json", "utf8");
const courtForm = readFileSync("tests/fixtures/guides/en-court-form/Guide.json", "utf8");
const complete = JSON.parse(readFileSync("tests/fixtures/guides/scenarios/en-small-claims/complete.json", "utf8")) as Parameters<typeof setInterviewVars>[1];

/** Two issues: one running the small claims guide, one the court form that shares five of its variables. */
function plantIssues(project: string): { claims: number; court: number } {
  return withE2eDatabase((db) => {
    plantGuide(db, "reuse-small-claims", "Small claims (reuse test)", smallClaims);
    plantGuide(db, "reuse-court-form", "Court form (reuse test)", courtForm);
    const insert = db.prepare("insert into issues (category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (1, ?, '', ?, ?, 'gpt-3.5-turbo', '')");
    return {
      claims: Number(insert.run(`Small claims ${project}`, "reuse-small-claims", "reuse-small-claims/Guide.json").lastInsertRowid),
      court: Number(insert.run(`Court form ${project}`, "reuse-court-form", "reuse-court-form/Guide.json").lastInsertRowid),
    };
  });
}

const interviewCount = (email: string) =>
  withE2eDatabase((db) => (db.prepare("select count(*) as n from interviews where user_id = (select id from users where email = ?)").get(email) as { n: number }).n);

const newInterviewId = (url: string) => /\/interviews\/([0-9a-f-]{36})$/.exec(new URL(url).pathname)?.[1] ?? "";

test("answers from before are offered, reviewed and used; an answer file starts an interview; a wrong one is refused", async ({ browser, javaScriptEnabled }) => {
  const project = test.info().project.name;
  const { claims, court } = plantIssues(project);
  const person = await signedInPerson(browser, javaScriptEnabled, "reuse-answers", { firstName: "Mary", lastName: "Tremblay" });
  const page = person.page;
  try {
    // The first interview, finished: the small claims letter with every answer.
    const [first] = plantInterviews(person.email, [{ issueId: claims, status: "Completed", daysAgo: 1 }]);
    setInterviewVars(first!, complete);

    // The court form shares five variables: they are offered, each with where it came from.
    await page.goto(`/issues/${court}/interviews`);
    await expect(page.getByRole("note").filter({ hasText: "You can start with 5 answers from your other interviews or your profile." })).toBeVisible();
    await page.getByRole("link", { name: "Choose which answers to use" }).click();
    await expect(page).toHaveURL(`/issues/${court}/interviews/start`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Start your interview");
    const offered = page.getByRole("group", { name: "Which answers do you want to use?" });
    await expect(offered.getByRole("checkbox")).toHaveCount(5);
    for (const box of await offered.getByRole("checkbox").all()) await expect(box).toBeChecked();
    const address = offered.getByRole("checkbox", { name: /Your postal address/ });
    await expect(offered.getByText("123 Main Street, Sherbrooke, Quebec")).toBeVisible();
    await expect(offered).toContainText(`From your interview “Small claims ${project}”`);
    await expectNoAxeViolations(page, javaScriptEnabled);

    // Four confirmed, the address not: the interview starts with the four, the address stays empty.
    await address.uncheck();
    await page.getByRole("button", { name: "Use the ticked answers" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/${court}/interviews/[0-9a-f-]{36}$`));
    const second = newInterviewId(page.url());
    const vars = interviewVars(second);
    expect(vars["nom te"]?.values).toEqual([null, "Mary Tremblay"]);
    expect(vars["date naissance da"]?.values).toEqual([null, "03/14/1985"]);
    expect(vars["type reclamation mc"]?.values).toEqual([null, "work that was done badly or not finished"]);
    expect(vars["delai nu"]?.values).toEqual([null, 10]);
    expect(vars["adresse te"]?.values ?? [null]).toEqual([null]);
    await expect(viewer(page).getByLabel(/Your full name/)).toHaveValue("Mary Tremblay");
    await expect(viewer(page).getByLabel(/Your postal address/)).toHaveValue("");

    // The answer file of the first interview starts a third, after review.
    const anx = await (await person.context.request.get(`/interviews/${first}/answers`)).text();
    expect(anx).toContain("Mary Tremblay");
    await page.goto(`/issues/${claims}/interviews`);
    await page.getByRole("link", { name: "Start from an answer file" }).click();
    await page.getByLabel("Answer file", { exact: true }).setInputFiles({ name: "small-claims.anx", mimeType: "application/xml", buffer: Buffer.from(anx) });
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check the answers from your file");
    const fromFile = page.getByRole("group", { name: "Which answers do you want to use?" });
    await expect(fromFile).toContainText("Lavoie Renovations Inc.");
    await expect(fromFile).toContainText("From your answer file");
    await expectNoAxeViolations(page, javaScriptEnabled);
    await page.getByRole("button", { name: "Use the ticked answers" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/${claims}/interviews/[0-9a-f-]{36}$`));
    const third = interviewVars(newInterviewId(page.url()));
    for (const key of Object.keys(complete)) expect(third[key]?.values, key).toEqual(complete[key]!.values);

    // An answer file into the interview under way: the address the person left out comes from it.
    await page.goto(`/issues/${court}/interviews/${second}`);
    await page.getByRole("link", { name: "Add answers from a file" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add answers from a file");
    const address2 = `<AnswerSet><Answer name="Adresse TE"><TextValue>9 Rue du Port, Gaspé</TextValue></Answer></AnswerSet>`;
    await page.getByLabel("Answer file", { exact: true }).setInputFiles({ name: "address.anx", mimeType: "application/xml", buffer: Buffer.from(address2) });
    await page.getByRole("button", { name: "Check the file" }).click();
    await expect(page.getByRole("group", { name: "Which answers do you want to use?" })).toContainText("9 Rue du Port, Gaspé");
    await page.getByRole("button", { name: "Use the ticked answers" }).click();
    await expect(page).toHaveURL(`/issues/${court}/interviews/${second}`);
    expect(interviewVars(second)["adresse te"]?.values).toEqual([null, "9 Rue du Port, Gaspé"]);
    expect(interviewVars(second)["nom te"]?.values).toEqual([null, "Mary Tremblay"]);

    // A wrong answer file is refused with its problems listed, and nothing starts.
    const before = interviewCount(person.email);
    const wrong = `<?xml version="1.0" encoding="UTF-8"?>
<AnswerSet title="Wrong">
<Answer name="Nom TE"><TextValue>Mary Tremblay</TextValue></Answer>
<Answer name="Favourite colour TE"><TextValue>blue</TextValue></Answer>
<Answer name="Delai NU"><NumValue>soon</NumValue></Answer>
<Answer name="Type reclamation MC"><MCValue><SelValue>a dragon ate my fence</SelValue></MCValue></Answer>
</AnswerSet>`;
    await page.goto(`/issues/${court}/interviews/start`);
    await page.getByLabel("Answer file", { exact: true }).setInputFiles({ name: "wrong.anx", mimeType: "application/xml", buffer: Buffer.from(wrong) });
    await page.getByRole("button", { name: "Check the file" }).click();
    const summary = page.getByRole("alert");
    await expect(summary).toContainText("We did not use this file. It has 3 problems:");
    await expect(summary.getByRole("listitem")).toHaveText([
      "Type reclamation MC: “a dragon ate my fence” is not one of the choices",
      "Delai NU: “soon” is not a number",
      "Favourite colour TE: this interview has no question for this answer",
    ]);
    await expect(page).toHaveTitle(/^Error: /);
    await expectNoAxeViolations(page, javaScriptEnabled);
    expect(interviewCount(person.email)).toBe(before);

    // Turned off on the profile page: nothing from before is offered.
    await page.goto("/account/edit-profile");
    await page.getByRole("checkbox", { name: "Offer my earlier answers when I start a new interview" }).uncheck();
    await page.getByRole("button", { name: "Save this choice" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your choice is saved." })).toBeVisible();
    await expectNoAxeViolations(page, javaScriptEnabled);
    await page.goto(`/issues/${court}/interviews`);
    await expect(page.getByRole("link", { name: "Start from an answer file" })).toBeVisible();
    await expect(page.getByText("from your other interviews or your profile")).toHaveCount(0);
    await page.goto(`/issues/${court}/interviews/start`);
    await expect(page.getByRole("group", { name: "Which answers do you want to use?" })).toHaveCount(0);
  } finally {
    await person.context.close();
  }
});
