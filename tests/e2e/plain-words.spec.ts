import { getDocumentProxy } from "unpdf";
import { textSizes } from "~/documents/test-structure";
import { signUpToRecoveryCodes, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, plantInterviews, setInterviewVars } from "./support";

// Issue 25, finding 8: words people and administrators read are plain and true; a document is named after what it
// is and prints no text smaller than 10 pt.

const text = (name: string, ...values: (string | number)[]) => ({
  name,
  type: /NU$/.test(name) ? "Number" : /DA$/.test(name) ? "Date" : "Text",
  repeating: values.length > 1,
  values: [null, ...values],
});

/** A case-summary interview's answers, as its pages and scripts leave them. */
const summaryAnswers = {
  "first name te": text("First name TE", "Ana"),
  "last name te": text("Last name TE", "Lim"),
  "full name te": text("Full name TE", "Ana Lim"),
  "issue title te": text("Issue title TE", "My landlord kept my bond"),
  "event count nu": text("Event count NU", 1),
  "event date da": text("Event date DA", "06/03/2023"),
  "event description te": text("Event description TE", "I moved out and returned the keys."),
  "first event da": text("First event DA", "06/03/2023"),
  "days since first event nu": text("Days since first event NU", 1271),
  "time since first event te": text("Time since first event TE", "more than 3 years"),
  "summary date da": text("Summary date DA", "11/25/2026"),
};

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push((content.items as { str?: string }[]).map((item) => item.str ?? "").join(" "));
  }
  return pages.join("\n").replace(/\s+/g, " ");
}

test("the recovery codes, My data, the not-found page, the AI calls and a document say what is true, in plain words", async ({ page, axe }) => {
  const email = uniqueEmail("plain-words");
  await signUpToRecoveryCodes(page, email);
  // The codes stay until "I have saved them", and the page says so; after it they are not shown again.
  await expect(page.getByText("They stay on this page until you choose “I have saved them”; after that they are never shown again")).toBeVisible();
  await expect(page.getByText("shown only now")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await page.getByRole("button", { name: "I have saved them" }).click();
  await page.goto("/account/recovery-codes");
  await expect(page.getByRole("list", { name: "Your recovery codes" })).toHaveCount(0);

  await page.goto("/account/my-data");
  await expect(page.getByRole("main")).toContainText("answers.json and answers.anx) that other legal interview software, such as A2J Author and HotDocs, can open again");
  await expect(page.getByRole("main")).not.toContainText("ANX answer file");
  await axe();

  await page.goto("/no/such/page");
  await expect(page).toHaveTitle("Page not found | Legal Self-Help");
  await axe();

  // A document: named after its issue, what it is and the day it was completed; its text at 10 pt or more; how
  // long ago in words, not "1271 days".
  const [summary, sensitive] = plantInterviews(email, [
    { issueId: 1, status: "Completed", daysAgo: 0 },
    { issueId: 3, status: "Completed", daysAgo: 1 },
  ]);
  setInterviewVars(summary!, summaryAnswers);
  setInterviewVars(sensitive!, summaryAnswers);
  const download = await page.request.get(`/account/interview/${summary}/download`);
  expect(download.status()).toBe(200);
  const disposition = download.headers()["content-disposition"]!;
  const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
  expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!)).toBe(`Divorce and separation – Summary of my situation – ${day}.pdf`);
  expect(disposition).toContain(`filename="Divorce and separation - Summary of my situation - ${day}.pdf"`);
  const bytes = await download.body();
  expect(await pdfText(bytes)).toContain("The first event was on 3 June 2023, more than 3 years before this summary.");
  const sizes = (await textSizes(new Uint8Array(bytes))).map((piece) => piece.size);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(9.99);

  // A sensitive issue's name stays out of the file's name, which a downloads list shows.
  const hidden = await page.request.get(`/account/interview/${sensitive}/download`);
  const hiddenName = decodeURIComponent(hidden.headers()["content-disposition"]!.split("filename*=UTF-8''")[1]!);
  expect(hiddenName).toMatch(/^Summary of my situation – \d{1,2} [A-Z][a-z]+ \d{4}\.pdf$/);

  // The AI calls page explains the setting it names.
  expect(cli("admin", "grant", email)).toMatchObject({ status: 0 });
  await page.goto("/admin/ai-calls");
  await expect(page.getByRole("main")).toContainText("No personal text is kept: transcripts are off. Whoever runs the server can turn them on (the AI_TRANSCRIPTS setting in the README).");
  await axe();
});
