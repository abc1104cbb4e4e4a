import { randomUUID } from "node:crypto";
import PDFDocument from "pdfkit";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, withE2eDatabase } from "./support";
import { plantSignedIn } from "./people";

// Sources (issue 18, part 1): an administrator adds the organisation's sources, reads their passages, deletes one.

function pdf(text: string): Promise<Buffer> {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.fontSize(11).text(text);
  doc.end();
  return done;
}

const passagesOf = (title: string) =>
  withE2eDatabase((db) => (db.prepare("select count(*) as n from passages p join sources s on s.id = p.source_id where s.title = ?").get(title) as { n: number }).n);

test("an administrator adds a markdown and a PDF source, reads their passages and deletes one; mistakes are named at their field", async ({ page, axe }) => {
  // A long journey with axe on every page (replayed with script for the no-js project): three times the time.
  test.slow();
  const lead = uniqueEmail("sources-lead");
  const run = randomUUID().slice(0, 8);
  await plantSignedIn(page, lead, { role: "administrator" });

  await page.goto("/admin");
  await page.getByRole("link", { name: "Sources" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sources");
  // The seed's fact sheets are there from the start.
  await expect(page.getByRole("link", { name: "Getting your rental bond back (fact sheet)" })).toBeVisible();
  await axe();

  await page.getByRole("link", { name: "Add a source" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add a source");
  await axe();

  // Nothing filled in: each missing field is named in the summary and marked.
  await page.getByRole("button", { name: "Add source" }).click();
  const summary = page.getByRole("alert");
  await expect(summary).toContainText("Title: Enter the source's title.");
  await expect(summary).toContainText("Public link: Enter the source's public link.");
  await expect(summary).toContainText("Country: Choose a country.");
  await expect(summary).toContainText("File: Upload a file or paste the text of the source.");
  await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();

  // A link that is not a web address.
  await page.getByLabel("Title").fill(`Renting guide ${run}`);
  await page.getByLabel("Public link").fill("javascript:alert(1)");
  await page.getByLabel("Country").selectOption({ label: "Australia" });
  await page.getByLabel("Or paste the text").fill("# Notice\n\nA landlord must give written notice.");
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(summary).toContainText("Public link: Enter a link that starts with http:// or https://");
  await expect(page.getByLabel("Public link")).toHaveAttribute("aria-invalid", "true");
  await axe();

  // A file that cannot be read: said at the file field; what was typed stays.
  await page.getByLabel("Public link").fill("https://www.example.org/renting");
  await page.getByLabel("Or paste the text").fill("");
  await page.getByLabel("File").setInputFiles({ name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\nnot really a pdf") });
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(summary).toContainText("File: This PDF is incomplete");
  await expect(page.getByLabel("File")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Title")).toHaveValue(`Renting guide ${run}`);
  await axe();

  // Markdown pasted in, for one issue.
  await page.getByLabel("File").setInputFiles([]);
  await page.getByLabel("Issue").selectOption({ label: "Australia: Getting your rental bond back" });
  await page
    .getByLabel("Or paste the text")
    .fill(`# Renting ${run}\n\n## Notice to vacate\n\nA landlord must give written notice to vacate.\n\n## Urgent repairs\n\nA burst water service is an urgent repair.`);
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByRole("status")).toHaveText(`Renting guide ${run} was added: 2 passages.`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Renting guide ${run}`);
  await expect(page.getByRole("heading", { name: "Notice to vacate" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Urgent repairs" })).toBeVisible();
  await expect(page.getByText("A burst water service is an urgent repair.")).toBeVisible();
  await axe();
  expect(passagesOf(`Renting guide ${run}`)).toBe(2);

  // A PDF for every issue of the country: its passage notes the page.
  await page.goto("/admin/sources/new");
  await page.getByLabel("Title").fill(`Bond guide ${run}`);
  await page.getByLabel("Public link").fill("https://www.example.org/bond");
  await page.getByLabel("Country").selectOption({ label: "Australia" });
  await page.getByLabel("File").setInputFiles({ name: "bond.pdf", mimeType: "application/pdf", buffer: await pdf(`The bond authority pays the bond ${run} back when both sign the claim.`) });
  await page.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByRole("status")).toHaveText(`Bond guide ${run} was added: 1 passage.`);
  await expect(page.getByRole("heading", { name: "page 1" })).toBeVisible();
  await expect(page.getByText(`The bond authority pays the bond ${run} back`)).toBeVisible();
  await expect(page.getByText("bond.pdf")).toBeVisible();
  await axe();

  await page.getByRole("link", { name: "All sources" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: `Bond guide ${run}` })).toContainText("For every issue · 1 passage");
  await expect(page.getByRole("listitem").filter({ hasText: `Renting guide ${run}` })).toContainText("For Getting your rental bond back · 2 passages");
  await axe();

  // Edited: its details alone keep its passages; new text replaces them; a file and text at once is refused.
  await page.getByRole("link", { name: `Renting guide ${run}` }).click();
  await page.getByRole("link", { name: "Edit this source" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Edit Renting guide ${run}`);
  await expect(page.getByLabel("Title")).toHaveValue(`Renting guide ${run}`);
  await expect(page.getByLabel("Issue")).toHaveValue(/\d+/);
  await axe();
  await page.getByLabel("Title").fill(`Renting in Australia ${run}`);
  await page.getByLabel("Issue").selectOption({ label: "Every issue of the country" });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText(`Renting in Australia ${run} was saved.`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Renting in Australia ${run}`);
  expect(passagesOf(`Renting in Australia ${run}`)).toBe(2);
  await page.getByRole("link", { name: "Edit this source" }).click();
  await page.getByLabel("New file").setInputFiles({ name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("# Notes\n\nSome notes.") });
  await page.getByLabel("Or paste new text").fill(`# Repairs ${run}\n\nA tenant may arrange urgent repairs up to a limit.`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("alert")).toContainText("Or paste new text: Upload a file or paste text, not both.");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();
  await page.getByLabel("New file").setInputFiles([]);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText(`Renting in Australia ${run} was saved. Its text is replaced: 1 passage.`);
  await expect(page.getByText("A tenant may arrange urgent repairs up to a limit.")).toBeVisible();
  await expect(page.getByText("A burst water service is an urgent repair.")).toHaveCount(0);
  expect(passagesOf(`Renting in Australia ${run}`)).toBe(1);

  // Deleted after a confirmation: gone from the list and from search.
  await page.getByRole("link", { name: "All sources" }).click();
  await page.getByRole("link", { name: `Bond guide ${run}` }).click();
  await page.getByRole("link", { name: "Delete this source" }).click();
  await expect(page.getByRole("heading", { name: `Are you sure you want to delete Bond guide ${run}?` })).toBeVisible();
  await axe();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("status")).toHaveText(`Bond guide ${run} was deleted.`);
  await expect(page.getByRole("link", { name: `Bond guide ${run}` })).toHaveCount(0);
  expect(passagesOf(`Bond guide ${run}`)).toBe(0);

  await page.goto("/admin/audit");
  const rows = page.getByRole("row").filter({ hasText: lead });
  await expect(rows.filter({ hasText: "Added a source" }).filter({ hasText: `Bond guide ${run}` })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Deleted a source" }).filter({ hasText: `Bond guide ${run}` })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Changed a source" }).filter({ hasText: `Renting in Australia ${run}` })).toHaveCount(2);
});

test("a person who is not an administrator, and a visitor, get the not-found page on every sources page and form", async ({ page, browser }) => {
  const person = uniqueEmail("sources-not");
  await plantSignedIn(page, person);
  const sourceId = withE2eDatabase((db) => (db.prepare("select id from sources order by id limit 1").get() as { id: number }).id);
  const before = withE2eDatabase((db) => (db.prepare("select count(*) as n from sources").get() as { n: number }).n);
  const visitor = await browser.newContext();
  try {
    for (const client of [page.request, visitor.request]) {
      for (const path of ["/admin/sources", "/admin/sources/new", `/admin/sources/${sourceId}`, `/admin/sources/${sourceId}/delete`, "/admin/sources.data"]) {
        const response = await client.get(path);
        expect(response.status(), path).toBe(404);
      }
      const headers = { Origin: new URL(page.url()).origin };
      const add = await client.post("/admin/sources/new", {
        headers,
        multipart: { title: "Sneaky", url: "https://example.org", countryId: "3", markdown: "# Sneaky\n\nText." },
      });
      expect(add.status()).toBe(404);
      expect((await client.post(`/admin/sources/${sourceId}/delete`, { headers, form: {} })).status()).toBe(404);
    }
  } finally {
    await visitor.close();
  }
  expect(withE2eDatabase((db) => (db.prepare("select count(*) as n from sources").get() as { n: number }).n)).toBe(before);
});
