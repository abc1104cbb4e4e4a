import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { SIGNING_GUIDE_ID, SIGNING_ISSUE_ID, signingGuide, signingGuideFiles } from "../support/signing-guide";
import { emailedLink, uniqueEmail } from "./accounts";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { plantSignedIn } from "./people";
import { outboxMessages, plantGuide, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";

// Signing (issue 30, docs/decisions/0055): the person signs after "Confirm and finish" (typing without scripts,
// drawing too with them) and names the other parent, who signs through the emailed link and a one-time code; the
// signed document carries both signatures and the record page, and is sealed; changing an answer gives a new,
// unsigned version; a signer declines with a reason the person sees. One test per project, its set-up shared.

function plantSigningIssue() {
  withE2eDatabase((db) => {
    plantGuide(db, SIGNING_GUIDE_ID, "Joint application", JSON.stringify(signingGuide()));
    const file = db.prepare("insert into guide_version_files (guide_id, version, path, content_type, content) values (?, 1, ?, ?, ?) on conflict do nothing");
    for (const f of signingGuideFiles()) file.run(SIGNING_GUIDE_ID, f.path, f.content_type, f.content);
    db.prepare(
      "insert into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (?, 1, 'Joint application', '', ?, ?, 'gpt-3.5-turbo', '') on conflict do nothing",
    ).run(SIGNING_ISSUE_ID, SIGNING_GUIDE_ID, `${SIGNING_GUIDE_ID}/Guide.json`);
  });
}

/** The latest one-time code emailed to `email`. */
function emailedCode(email: string): string {
  const codes = outboxMessages()
    .filter((m) => m.to_address === email && m.subject === "Your code to sign the document")
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  return codes.at(-1)!.text.match(/Your code is (\d{6})\./)![1]!;
}

async function atBothWidths(page: Page, javaScriptEnabled: boolean, name: string) {
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page, javaScriptEnabled);
    await page.screenshot({ path: `/tmp/signing-${name}-${width}-${test.info().project.name}.png`, fullPage: true });
  }
}

/** Finishes the interview with `name` (from its first page, or with a Change on Check your answers). */
async function finish(page: Page, name: string) {
  const frame = viewer(page);
  await frame.getByLabel(/Full name/).fill(name);
  await press(frame, "Finish");
  await frame.getByRole("button", { name: "Confirm and finish" }).click();
  await expect(page).toHaveURL(/\/account\/interview\/[\w-]+\/sign$/);
}

/** The other signer, in a browser of their own, through the emailed link and the code: returns their page. */
async function openAsSigner(page: Page, email: string, javaScriptEnabled: boolean, owner: string, axe = true): Promise<Page> {
  const context = await page.context().browser()!.newContext({ javaScriptEnabled });
  const signer = await context.newPage();
  await signer.goto(emailedLink(email, "/sign?code="));
  await expect(signer.getByRole("heading", { level: 1 })).toHaveText("A document to sign");
  await expect(signer.getByText(`${owner} asks you to sign the document "Joint application" as Other parent.`)).toBeVisible();
  if (axe) await expectNoAxeViolations(signer, javaScriptEnabled);
  await signer.getByRole("button", { name: "Send me a code" }).click();
  await expect(signer.getByRole("status").filter({ hasText: "We sent you a code." })).toBeVisible();
  await signer.getByLabel("Code from the email").fill("000000" === emailedCode(email) ? "111111" : "000000");
  await signer.getByRole("button", { name: "Continue" }).click();
  await expect(signer.getByText("That code is not right. You can try 4 more times.").first()).toBeVisible();
  if (axe) await expectNoAxeViolations(signer, javaScriptEnabled);
  await signer.getByLabel("Code from the email").fill(emailedCode(email));
  await signer.getByRole("button", { name: "Continue" }).click();
  await expect(signer.getByRole("link", { name: "Read the document (PDF)" })).toBeVisible();
  return signer;
}

test("signing: the person signs, the other parent signs through the link and code; the sealed PDF; a new version is unsigned; a decline", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  plantSigningIssue();
  const ana = uniqueEmail("signing-ana");
  const ben = uniqueEmail("signing-ben");
  await plantSignedIn(page, ana, { firstName: "Ana", lastName: "Lim" });

  // After "Confirm and finish", the signing page.
  await page.goto(`/issues/${SIGNING_ISSUE_ID}/interviews`);
  await finish(page, "Ana Lim");
  const signPage = page.url();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign your document");
  const unsigned = await page.request.get(await page.getByRole("link", { name: "Read the document (PDF)" }).getAttribute("href").then((href) => href!));
  expect(unsigned.headers()["content-type"]).toBe("application/pdf");
  await atBothWidths(page, javaScriptEnabled, "own");

  // Nothing filled: the error summary names each field.
  await page.getByRole("button", { name: "Sign the document" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
  await expect(summary).toBeVisible();
  await expect(summary.getByRole("link")).toHaveText([/Full name of Other parent/, /Email address of Other parent/, /Your full name/, /I mean this to be my signature/]);
  await expectNoAxeViolations(page, javaScriptEnabled);

  await page.getByLabel("Full name of Other parent").fill("Ben Ong");
  await page.getByLabel("Email address of Other parent").fill(ben);
  await page.getByLabel("Your full name").fill("Ana Lim");
  if (javaScriptEnabled) {
    // The drawn way, beside the typed name: a stroke across the box.
    const pad = page.getByRole("img", { name: "Box to draw your signature in" });
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 20 + i * 20, box.y + box.height / 2 + (i % 2 ? -15 : 15));
    await page.mouse.up();
    await expect(page.locator("input[name=drawing]")).toHaveValue(/^data:image\/png;base64,/);
  } else {
    await expect(page.getByRole("img", { name: "Box to draw your signature in" })).toHaveCount(0);
  }
  await page.getByLabel("I mean this to be my signature on this document.").check();
  await page.getByRole("button", { name: "Sign the document" }).click();
  await expect(page.getByText("You signed the document. We emailed the others a link to sign it.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signatures");
  // Typed, "/s/ Ana Lim"; drawn, the drawing goes in the document.
  await expect(page.getByText("/s/ Ana Lim")).toHaveCount(javaScriptEnabled ? 0 : 1);
  await expect(page.getByText(/^Signed electronically by Ana Lim on /)).toBeVisible();
  await expect(page.getByText(`Waiting for their signature. We emailed ${ben}`)).toBeVisible();
  await atBothWidths(page, javaScriptEnabled, "waiting");

  // The other parent: the link, the code (a wrong one first), the document, and signing by typing.
  const signer = await openAsSigner(page, ben, javaScriptEnabled, "Ana Lim");
  const toRead = await signer.request.get((await signer.getByRole("link", { name: "Read the document (PDF)" }).getAttribute("href"))!);
  expect(toRead.headers()["content-type"]).toBe("application/pdf");
  await atBothWidths(signer, javaScriptEnabled, "signer");
  await signer.getByLabel("Your full name").fill("Ben Ong");
  await signer.getByLabel("I mean this to be my signature on this document.").check();
  await signer.getByRole("button", { name: "Sign the document" }).click();
  await expect(signer.getByRole("heading", { level: 1 })).toHaveText("Thank you for signing");
  await expectNoAxeViolations(signer, javaScriptEnabled);
  // The link was for one use: the document is no longer behind it.
  expect((await signer.request.get((await signer.url()).replace("/sign?", "/sign/document?"))).status()).toBe(404);
  await signer.context().close();

  // Everyone signed: the person is told, and downloads the sealed document.
  expect(outboxMessages().some((m) => m.to_address === ana && m.subject === "Everyone has signed your document")).toBe(true);
  await page.goto(signPage);
  await expect(page.getByText("Everyone has signed. Your signed document is ready.")).toBeVisible();
  await expectNoAxeViolations(page, javaScriptEnabled);
  const download = await page.request.get((await page.getByRole("link", { name: "Download the signed document" }).getAttribute("href"))!);
  expect(download.headers()["content-type"]).toBe("application/pdf");
  const pdf = await download.body();
  const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString();
  // Both signatures in their places (Ana's drawn with scripts, typed without; Ben's typed), then the record page.
  expect(text).toContain(javaScriptEnabled ? "Signed electronically by Ana Lim on" : "/s/ Ana Lim");
  expect(text).toContain("/s/ Ben Ong");
  expect(text).toContain("Signing record");
  expect(text).toContain(javaScriptEnabled ? "drew their signature" : "typed their name");
  expect(text).toContain(ben);
  expect(text).toContain(ana);
  const folder = mkdtempSync(path.join(tmpdir(), "signed-"));
  const file = path.join(folder, "signed.pdf");
  writeFileSync(file, pdf);
  writeFileSync(`/tmp/signing-signed-${test.info().project.name}.pdf`, pdf);
  const checked = spawnSync("pdfsig", [file], { encoding: "utf8" });
  test.info().annotations.push({ type: "pdfsig", description: checked.stdout });
  expect(checked.stdout).toContain("Signature Validation: Signature is Valid.");
  expect(checked.stdout).toMatch(/Signed Ranges?:|Total document signed/);
  // One byte changed inside the signed content: the signature no longer holds.
  const changed = Buffer.from(pdf);
  const at = changed.indexOf(Buffer.from("/s/ Ben Ong")) >= 0 ? changed.indexOf(Buffer.from("/s/ Ben Ong")) : Math.floor(changed.length / 4);
  changed[at] = changed[at]! ^ 0x01;
  writeFileSync(file, changed);
  expect(spawnSync("pdfsig", [file], { encoding: "utf8" }).stdout).not.toContain("Signature Validation: Signature is Valid.");

  // Changing an answer after signing: a new, unsigned version, and the page says so.
  await page.getByRole("button", { name: "Change answers" }).click();
  await expect(page.getByText("This is a new version of your answers. It is not signed: the signed document stays as it was.")).toBeVisible();
  await press(viewer(page), /^Change/);
  await finish(page, "Ana May Lim");
  expect(page.url()).not.toBe(signPage);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign your document");
  // The signed one is unchanged.
  expect((await page.request.get(signPage.replace(/\/sign$/, "/signed"))).status()).toBe(200);

  // The new version, sent to the other parent, who declines with a reason the person sees.
  await page.getByLabel("Full name of Other parent").fill("Ben Ong");
  await page.getByLabel("Email address of Other parent").fill(ben);
  await page.getByLabel("Your full name").fill("Ana May Lim");
  await page.getByLabel("I mean this to be my signature on this document.").check();
  await page.getByRole("button", { name: "Sign the document" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signatures");
  const decliner = await openAsSigner(page, ben, javaScriptEnabled, "Ana May Lim", false);
  await decliner.getByRole("button", { name: "Decline to sign" }).click();
  await expect(decliner.getByRole("alert").filter({ hasText: "There is a problem" })).toBeVisible();
  await decliner.getByLabel("Tell Ana May Lim why you will not sign").fill("The address of the children is wrong.");
  await decliner.getByRole("button", { name: "Decline to sign" }).click();
  await expect(decliner.getByRole("heading", { level: 1 })).toHaveText("You declined to sign");
  await decliner.context().close();
  await page.reload();
  await expect(page.getByText(/^Declined to sign on .+\. Their reason:$/)).toBeVisible();
  await expect(page.getByText("The address of the children is wrong.")).toBeVisible();
  await atBothWidths(page, javaScriptEnabled, "declined");

  // My interviews says where each stands, and leads to its signing page.
  await page.goto("/account/interview");
  await expect(page.getByRole("link", { name: "Signed by everyone" })).toHaveAttribute("href", new URL(signPage).pathname);
  await expect(page.getByRole("link", { name: "Someone declined to sign" })).toBeVisible();
});
