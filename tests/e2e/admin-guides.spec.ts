import { unzipSync } from "fflate";
import { versionedGuideZip } from "../support/guide-fixtures";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";
import { plantSignedIn } from "./people";

// Guides as an administrator runs them: upload a zip, read its import report, publish, preview, attach to an
// issue, and replace it with a second version while a person's interview on the first goes on.

/**
 * An issue of its own per project (both run at once on the same server), with no guide yet. Its id is the
 * database's next: a fixed one could already be taken by an issue another test made in the administration.
 */
function plantIssue(name: string): number {
  return withE2eDatabase((db) =>
    Number(
      db
        .prepare("insert into issues (category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (1, ?, '', null, null, 'gpt-3.5-turbo', '')")
        .run(name).lastInsertRowid,
    ),
  );
}

const zipUpload = (name: string, bytes: Uint8Array) => ({ name, mimeType: "application/zip", buffer: Buffer.from(bytes) });

test("an administrator uploads a guide, reads its warnings, publishes, previews, attaches it, and replaces it while an interview goes on", async ({ page, browser, axe }, testInfo) => {
  // A long journey (two people, two uploads) on a machine that may be busy.
  test.setTimeout(240_000);
  const project = testInfo.project.name;
  const guideId = `e2e-guide-${project}`;
  const issueName = `Guide upload test (${project})`;
  const issueId = plantIssue(issueName);
  const admin = uniqueEmail("guides-admin");
  await plantSignedIn(page, admin, { role: "administrator" });

  await page.goto("/admin");
  await page.getByRole("link", { name: "Guides" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Guides");
  await axe();

  // A file that is no guide: said on the form, nothing kept.
  await page.getByLabel("New guide id").fill(guideId);
  await page.getByLabel("Guide file").setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip at all") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert")).toContainText("This guide cannot be read. The file is not a readable zip");
  await expect(page.getByLabel("Guide file")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();
  // No id and no guide chosen.
  await page.getByLabel("New guide id").fill("");
  await page.getByLabel("Guide file").setInputFiles(zipUpload("guide.zip", versionedGuideZip("Upload journey", 1, true)));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert")).toContainText("Give the new guide an id, or choose the guide this is a new version of.");
  await axe();

  // Version 1, with one problem of each kind: the report says what they are, and nothing runs yet.
  await page.getByLabel("New guide id").fill(guideId);
  await page.getByLabel("Guide file").setInputFiles(zipUpload("guide.zip", versionedGuideZip("Upload journey", 1, true)));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/guides/${guideId}/versions/1$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Upload journey, version 1");
  await expect(page.getByRole("heading", { name: "5 warnings" })).toBeVisible();
  for (const [group, text] of <[string, string][]>[
    ["Script errors", 'page "Your name" codeBefore line 1'],
    ["Unknown functions", 'unknown function "SHOUT"'],
    ["Pick lists", 'the pick list file "counties.xml" is not among the guide\'s files'],
    ["Templates", "templates.json lists template 2"],
    ["Media too large", '"welcome.mp4" is 1.2 MB'],
  ]) {
    await expect(page.getByRole("region", { name: group })).toContainText(text);
  }
  await expect(page.getByText("Waiting to be published")).toBeVisible();
  await axe();

  // The pending version can be previewed by the administrator.
  await page.getByRole("link", { name: "Preview version 1" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Preview: Upload journey (version 1, not published)");
  await expect(viewer(page).getByText("Version 1: what is your name?")).toBeVisible();
  await axe();
  await page.goBack();

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText("Version 1 is published: new interviews run it.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Upload journey");
  await axe();

  // Attached to an existing issue; an issue not chosen is said at its field.
  await page.getByRole("button", { name: "Attach" }).click();
  await expect(page.getByRole("alert")).toContainText("Choose an issue.");
  await axe();
  await page.getByLabel("Issue").selectOption({ label: `Singapore: ${issueName}` });
  await page.getByRole("button", { name: "Attach" }).click();
  await expect(page.getByRole("status")).toHaveText(`${issueName} now runs this guide.`);

  // A person starts the interview on version 1 and answers the first page.
  const personContext = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
  const person = await personContext.newPage();
  try {
    await plantSignedIn(person, uniqueEmail("guides-person"));
    await person.goto(`/issues/${issueId}/interviews`);
    const frame = viewer(person);
    await expect(frame.getByText("Version 1: what is your name?")).toBeVisible();
    await frame.getByLabel("First name").fill("Ada");
    await press(frame, "Continue");
    await expect(frame.getByText("Version 1: thank you, Ada.")).toBeVisible();
    const interviewUrl = person.url().replace(/#.*$/, "");

    // Version 2 is uploaded as a new version of the guide and published.
    await page.goto("/admin/guides");
    await page.getByLabel("A new version of").selectOption({ label: `Upload journey (${guideId})` });
    await page.getByLabel("Guide file").setInputFiles(zipUpload("guide-v2.zip", versionedGuideZip("Upload journey, revised", 2)));
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/guides/${guideId}/versions/2$`));
    await expect(page.getByText("No warnings.")).toBeVisible();
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toHaveText("Version 2 is published: new interviews run it.");

    // The person's interview goes on in version 1: the page again, back, and on.
    await person.goto(interviewUrl);
    const resumed = viewer(person);
    await expect(resumed.getByText("Version 1: thank you, Ada.")).toBeVisible();
    await press(resumed, "Back");
    await expect(resumed.getByText("Version 1: what is your name?")).toBeVisible();
    await press(resumed, "Continue");
    await expect(resumed.getByText("Version 1: thank you, Ada.")).toBeVisible();
    // What starts now runs version 2.
    await person.goto(`/preview/${guideId}`);
    await expect(viewer(person).getByText("Version 2: what is your name?")).toBeVisible();
    // Not the pending or earlier versions by number: those are for administrators.
    expect((await person.request.get(`/preview/${guideId}?version=1`)).status()).toBe(404);
  } finally {
    await personContext.close();
  }

  // The history: both versions, who uploaded them, which is published.
  await page.goto(`/admin/guides/${guideId}`);
  const rows = page.getByRole("row");
  await expect(rows.filter({ hasText: "Version 2" }).filter({ hasText: admin }).filter({ hasText: "Published" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Version 1" }).filter({ hasText: admin }).filter({ hasText: "Was published" })).toHaveCount(1);
  await expect(page.getByRole("listitem").filter({ hasText: issueName }).getByRole("link", { name: `Detach from ${issueName}` })).toBeVisible();
  await axe();

  // Version 1 downloads as a zip of its Guide.json and files.
  await page.getByRole("link", { name: "Version 1", exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download version 1 as a zip" }).click()]);
  expect(download.suggestedFilename()).toBe(`${guideId}-version-1.zip`);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const entries = unzipSync(new Uint8Array(Buffer.concat(chunks)));
  expect(Object.keys(entries).sort()).toEqual(["Guide.json", "template1.json", "templates.json", "welcome.mp4"]);
  expect(new TextDecoder().decode(entries["Guide.json"])).toContain("Version 1: what is your name?");

  // A third upload thrown away: it never runs, and the history says so.
  await page.goto("/admin/guides");
  await page.getByLabel("A new version of").selectOption({ label: `Upload journey, revised (${guideId})` });
  await page.getByLabel("Guide file").setInputFiles(zipUpload("guide-v3.zip", versionedGuideZip("Upload journey, third", 3)));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/guides/${guideId}/versions/3$`));
  await page.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByRole("status")).toHaveText(`Version 3 of ${guideId} is discarded.`);
  await page.goto(`/admin/guides/${guideId}`);
  await expect(page.getByRole("row").filter({ hasText: "Version 3" }).filter({ hasText: "Discarded" })).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Upload journey, revised");

  // The id reads whole at 1280 px, on one line (it may break only at its hyphens, never inside a word).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/admin/guides");
  const id = page.locator("code.guide-id", { hasText: guideId });
  expect((await id.boundingBox())!.height).toBeLessThan(30);

  // Detached from the issue, after a question (with or without script): the issue runs no guide any more.
  await page.goto(`/admin/guides/${guideId}`);
  await page.getByRole("link", { name: `Detach from ${issueName}` }).click();
  const confirm = page.getByRole("region", { name: `Detach this guide from ${issueName}?` });
  await expect(confirm).toBeFocused();
  await axe();
  await confirm.getByRole("button", { name: "Yes, detach" }).click();
  await expect(page.getByRole("status")).toHaveText(`${issueName} no longer runs this guide.`);
  await expect(page.getByRole("definition").filter({ hasText: "None" })).toBeVisible();
  expect(withE2eDatabase((db) => (db.prepare("select guide_id from issues where id = ?").get(issueId) as { guide_id: string | null }).guide_id)).toBeNull();
  await axe();

  // Every action is in the audit.
  await page.goto("/admin/audit");
  const audit = page.getByRole("row").filter({ hasText: guideId }).filter({ hasText: admin });
  await expect(audit.filter({ hasText: "Detached a guide from an issue" })).toHaveCount(1);
  await expect(audit.filter({ hasText: "Uploaded a guide version" })).toHaveCount(3);
  await expect(audit.filter({ hasText: "Discarded a guide version" })).toHaveCount(1);
  await expect(audit.filter({ hasText: "Published a guide version" })).toHaveCount(2);
  await expect(audit.filter({ hasText: "Attached a guide to an issue" }).filter({ hasText: `${guideId} (version 1, issue ${issueName})` })).toHaveCount(1);
  await expect(audit.filter({ hasText: "Published a guide version" }).filter({ hasText: `${guideId} (version 2)` })).toHaveCount(1);
  await axe();
});

test("a non-administrator gets the not-found page on every /admin/guides page and form", async ({ page, browser }) => {
  await plantSignedIn(page, uniqueEmail("guides-not"));
  const visitor = await browser.newContext();
  const origin = new URL(page.url()).origin;
  const paths = [
    "/admin/guides",
    "/admin/guides/letter-of-demand",
    "/admin/guides/letter-of-demand/versions/1",
    "/admin/guides/letter-of-demand/versions/1/download",
    "/admin/guides/no-such-guide/versions/9",
  ];
  try {
    for (const client of [page.request, visitor.request]) {
      for (const path of paths) {
        const response = await client.get(path);
        expect(response.status(), path).toBe(404);
        // The download is a file, not a page: its 404 has no page to show.
        if (!path.endsWith("/download")) expect(await response.text(), path).toContain("couldn&#x27;t find this page");
      }
      const posts: [string, Parameters<typeof client.post>[1]][] = [
        ["/admin/guides", { multipart: { guideId: "sneaky", file: zipUpload("g.zip", versionedGuideZip("Sneaky", 1)) }, headers: { Origin: origin } }],
        ["/admin/guides/letter-of-demand", { form: { issueId: "1" }, headers: { Origin: origin } }],
        ["/admin/guides/letter-of-demand/versions/1", { form: { intent: "publish" }, headers: { Origin: origin } }],
        ["/admin/guides/letter-of-demand/versions/1", { form: { intent: "discard" }, headers: { Origin: origin } }],
        ["/admin/guides/letter-of-demand/versions/1", { form: { intent: "check" }, headers: { Origin: origin } }],
        ["/admin/guides/letter-of-demand", { multipart: { intent: "add-scenario", name: "Sneaky", expectations: "outcome: SUCCESS", answers: { name: "a.json", mimeType: "application/json", buffer: Buffer.from("{}") } }, headers: { Origin: origin } }],
      ];
      for (const [path, options] of posts) expect((await client.post(path, options)).status(), `POST ${path}`).toBe(404);
    }
    expect((await page.request.get("/preview/letter-of-demand?version=1")).status()).toBe(404);
  } finally {
    await visitor.close();
  }
  expect(withE2eDatabase((db) => db.prepare("select count(*) as n from guides where id = 'sneaky'").get())).toEqual({ n: 0 });
});
