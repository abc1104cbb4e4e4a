import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { PDFDocument, rgb, StandardFonts } from "@cantoo/pdf-lib";
import { aiStandInUrl } from "../../playwright.config";
import type { ChatRequest } from "../support/ai-stand-in";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { interviewVars, moveInterviewTo, plantInterviews } from "./support";
import { viewer } from "./viewer";
import { plantSignedIn } from "./people";

// "Use a document I have": issue 6 runs the tenancy-deposit guide, whose page "06-Bond" asks for the bond's amount
// and number. The AI stand-in answers from the document's "Label: value" lines (tests/support/ai-stand-in.ts).
const ISSUE = 6;

/** A one-page PDF whose text is these lines; with none, a page with only a drawing (as a scan has no text). */
async function pdfOf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, index) => page.drawText(line, { x: 50, y: 780 - index * 20, size: 12, font }));
  if (!lines.length) page.drawRectangle({ x: 50, y: 500, width: 300, height: 200, color: rgb(0.6, 0.6, 0.6) });
  return Buffer.from(await pdf.save());
}

/** Letters only: a marker that redaction never touches, to find this test's request among the stand-in's. */
const letterMarker = () => Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join("");

async function aiRequestsWith(marker: string): Promise<ChatRequest[]> {
  const all = (await (await fetch(`${aiStandInUrl}/requests`)).json()) as ChatRequest[];
  return all.filter((request) => request.body.messages?.some((m) => m.role === "user" && m.content.includes(marker)));
}

async function bondPage(page: Page): Promise<string> {
  const email = uniqueEmail("document");
  await plantSignedIn(page, email);
  const [id] = plantInterviews(email, [{ issueId: ISSUE, status: "Draft", daysAgo: 0 }]);
  moveInterviewTo(id!, "06-Bond");
  return id!;
}

async function upload(page: Page, name: string, bytes: Buffer, mimeType = "application/pdf") {
  await page.getByLabel("Your document").setInputFiles({ name, mimeType, buffer: bytes });
  await page.getByRole("button", { name: "Read my document" }).click();
}

test("a letter's answers are proposed beside their quotes, and accepted one by one into the interview", async ({ page, axe }) => {
  const id = await bondPage(page);
  await page.goto(`/issues/${ISSUE}/interviews/${id}`);
  // A button of the page's form (what was typed is kept), opening the page in the whole window.
  await viewer(page).getByRole("button", { name: "Use a document I have" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Use a document I have");
  await expect(page.getByRole("listitem").filter({ hasText: "Bond amount ($)" })).toBeVisible();
  await axe();

  const marker = letterMarker();
  await upload(
    page,
    "letter.pdf",
    await pdfOf([`Reference ${marker}`, "Dear Jo Tenant,", "Bond amount: $1,200.00", "Bond number: RB-20931", "Contact: jo.tenant@example.org or 0412 345 678"]),
  );
  const amount = page.getByRole("group", { name: "Bond amount ($)" });
  const number = page.getByRole("group", { name: /Bond number/ });
  await expect(amount.getByRole("blockquote")).toHaveText("Bond amount: $1,200.00");
  await expect(amount.getByLabel("Proposed answer")).toHaveValue("1200");
  await expect(number.getByRole("blockquote")).toHaveText("Bond number: RB-20931");
  await axe();
  // What left the server: no email, no phone number.
  const [sent] = await aiRequestsWith(marker);
  const body = JSON.stringify(sent!.body.messages);
  expect(body).not.toContain("jo.tenant@example.org");
  expect(body).not.toContain("0412 345 678");
  expect(body).toContain("[EMAIL_1]");
  // Nothing is saved before the person accepts.
  expect(interviewVars(id)["bond amount nu"]?.values[1] ?? null).toBeNull();

  await amount.getByRole("button", { name: /^Accept/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved in your interview" })).toContainText("Bond amount ($): 1200");
  expect(interviewVars(id)["bond amount nu"]!.values[1]).toBe(1200);
  // The second, edited first.
  await number.getByLabel("Proposed answer").fill("RB-20931-A");
  await number.getByRole("button", { name: /^Accept/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved in your interview" })).toContainText("RB-20931-A");
  expect(interviewVars(id)["bond number te"]!.values[1]).toBe("RB-20931-A");
  await expect(page.getByText("There are no more proposed answers.")).toBeVisible();
  await axe();
  await page.getByRole("link", { name: "Back to the interview" }).click();
  await expect(page).toHaveURL(new RegExp(`/issues/${ISSUE}/interviews/${id}$`));
});

test("a proposal can be rejected, and one the page would refuse is not saved", async ({ page, axe }) => {
  const id = await bondPage(page);
  await page.goto(`/ai/document/${id}`);
  await upload(page, "letter.pdf", await pdfOf(["Bond amount: $950", "Bond number: 77-1"]));
  await page.getByRole("group", { name: /Bond number/ }).getByRole("button", { name: /^Reject/ }).click();
  await expect(page.getByRole("group", { name: /Bond number/ })).toHaveCount(0);
  const amount = page.getByRole("group", { name: "Bond amount ($)" });
  await amount.getByLabel("Proposed answer").fill("a lot");
  await amount.getByRole("button", { name: /^Accept/ }).click();
  await expect(page.getByRole("alert")).toContainText("Bond amount ($)");
  await expect(page.getByRole("group", { name: "Bond amount ($)" }).getByLabel("Proposed answer")).toHaveAttribute("aria-invalid", "true");
  expect(interviewVars(id)["bond amount nu"]?.values[1] ?? null).toBeNull();
  await axe();
});

test("a scanned PDF, a file of another kind, made-up quotes and prose are each told clearly", async ({ page, axe }) => {
  const id = await bondPage(page);
  await page.goto(`/ai/document/${id}`);
  await upload(page, "scan.pdf", await pdfOf([]));
  await expect(page.getByRole("alert")).toContainText("This file has no text we can read.");
  await expect(page).toHaveTitle(/^Error: /);
  await axe();
  await upload(page, "notes.txt", Buffer.from("Bond amount: $5"), "text/plain");
  await expect(page.getByRole("alert")).toContainText("The file must be a PDF or a Word (.docx) file.");
  await upload(page, "letter.pdf", await pdfOf(["[[made-up-quote]]", "Bond amount: $300"]));
  await expect(page.getByRole("alert")).toContainText("We found nothing in this document that answers the questions on this page.");
  await upload(page, "letter.pdf", await pdfOf(["[[not-json]]", "Bond amount: $300"]));
  await expect(page.getByRole("alert")).toContainText("The AI's answer could not be checked, so nothing is proposed.");
  await axe();
  expect(interviewVars(id)["bond amount nu"]?.values[1] ?? null).toBeNull();
});
