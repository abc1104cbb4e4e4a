import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { zipSync } from "fflate";
import { extractText } from "unpdf";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, withE2eDatabase } from "./support";
import { axeOnViewer, press, viewer, type ViewerScope } from "./viewer";
import { plantSignedIn } from "./people";

// Interviews in the person's language (issue 27; docs/decisions/0048-guides-per-language.md and 0047): the guide in
// their language when the issue has one, else the issue's guide with a note in their language; the viewer's own
// words in the guide's language, right to left for Arabic; the document in the guide's language.

const FIXTURES = "tests/fixtures/guides";

/** A guide folder of tests/fixtures/guides, zipped as A2J Author publishes it. */
function folderZip(folder: string): Buffer {
  const dir = path.join(FIXTURES, folder);
  return Buffer.from(zipSync(Object.fromEntries(readdirSync(dir).map((name) => [name, new Uint8Array(readFileSync(path.join(dir, name)))]))));
}

/**
 * An issue of its own per project (both run at once on the same server), with no guide yet. Its id is the
 * database's next: a fixed one could already be taken by an issue another test made in the administration.
 */
function plantIssue(countryId: number, name: string): number {
  return withE2eDatabase((db) =>
    Number(
      db
        .prepare("insert into issues (category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (?, ?, '', null, null, 'gpt-3.5-turbo', '')")
        .run(countryId, name).lastInsertRowid,
    ),
  );
}

/** As an administrator: uploads a fixture guide as a new guide and publishes it. */
async function uploadAndPublish(page: Page, guideId: string, folder: string) {
  await page.goto("/admin/guides");
  await page.getByLabel("New guide id").fill(guideId);
  await page.getByLabel("Guide file").setInputFiles({ name: `${folder}.zip`, mimeType: "application/zip", buffer: folderZip(folder) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/guides/${guideId}/versions/1$`));
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText("Version 1 is published: new interviews run it.");
}

async function attach(page: Page, guideId: string, issueLabel: string, issueName: string) {
  await page.goto(`/admin/guides/${guideId}`);
  await page.getByLabel("Issue").selectOption({ label: issueLabel });
  await page.getByRole("button", { name: "Attach" }).click();
  await expect(page.getByRole("status")).toHaveText(`${issueName} now runs this guide.`);
}

/** Types a date into the date question named `question`, its boxes labelled in the guide's language. */
async function fillDateIn(frame: ViewerScope, question: string | RegExp, labels: [string, string, string], date: [string, string, string]) {
  const group = frame.getByRole("group", { name: question });
  for (let i = 0; i < 3; i++) await group.getByLabel(labels[i]!, { exact: true }).fill(date[i]!);
}

/** The document of a completed interview, as text. */
async function documentText(page: Page, interviewId: string): Promise<string> {
  const document = await page.request.get(`/account/interview/${interviewId}/download`);
  expect(document.headers()["content-type"]).toBe("application/pdf");
  return (await extractText(new Uint8Array(await document.body()), { mergePages: true })).text;
}

async function interviewIdOf(frame: ViewerScope): Promise<string> {
  const id = await frame.locator("[data-viewer]").getAttribute("data-interview-id");
  if (!id) throw new Error("the interview is not saved yet");
  return id;
}

test.describe("interviews in the person's language", () => {
  test("a French guide imported for an issue as the translation of its English guide runs in French end to end", async ({ page, browser, axe }, testInfo) => {
    // Two people, two uploads, eleven pages, on a machine that may be busy.
    test.setTimeout(300_000);
    const project = testInfo.project.name;
    const issueName = `Small claims in Quebec (${project})`;
    const [englishId, frenchId] = [`small-claims-en-${project}`, `small-claims-fr-${project}`];
    const issueId = plantIssue(4, issueName);
    const admin = uniqueEmail("languages-admin");
    await plantSignedIn(page, admin, { role: "administrator" });

    await uploadAndPublish(page, englishId, "en-small-claims");
    await attach(page, englishId, `Canada: ${issueName}`, issueName);
    await uploadAndPublish(page, frenchId, "fr-small-claims");
    // The French guide says it is in French; the administrator says it is the English guide's translation.
    await page.goto(`/admin/guides/${frenchId}`);
    await expect(page.getByLabel("The guide's language")).toHaveValue("fr");
    await page.getByLabel("The same interview as").selectOption({ label: `Claiming money: the demand letter (Quebec) (${englishId}, English)` });
    await page.getByRole("button", { name: "Save the language" }).click();
    await expect(page.getByRole("status")).toHaveText("The guide is in French.");
    await expect(page.locator(".summary-list")).toContainText("French: the same interview as Claiming money: the demand letter (Quebec)");
    await axe();

    // A person who reads French gets the French guide, with no note, and the viewer's own words in French.
    const context = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
    const person = await context.newPage();
    try {
      await plantSignedIn(person, uniqueEmail("languages-fr"));
      await person.goto(`/issues/${issueId}/interviews?lang=fr`);
      await expect(person.locator("html")).toHaveAttribute("lang", "fr");
      await expect(person.getByRole("note").filter({ hasText: "Cette entrevue est en" })).toHaveCount(0);
      const frame = viewer(person);
      await expect(frame.getByText(/Ce questionnaire vous aide/)).toBeVisible();
      await expect(frame.locator("[data-viewer]")).toHaveAttribute("lang", "fr");
      await press(frame, "Commencer");

      // Nothing typed: the error summary in French, the author's French prompt at the field.
      await press(frame, "Continuer", { stays: true });
      await expect(frame.getByRole("alert")).toContainText("Il y a un problème");
      await expect(frame.getByRole("alert")).toContainText("Veuillez écrire votre nom complet.");
      await expect(frame.getByLabel(/Votre nom complet/)).toHaveAttribute("aria-invalid", "true");
      await axeOnViewer(person, axe);
      await frame.getByLabel(/Votre nom complet/).fill("Marie Tremblay");
      // A month typed in French words is read ("mars"); the boxes are Jour, Mois, Année.
      await fillDateIn(frame, /Votre date de naissance/, ["Jour", "Mois", "Année"], ["14", "mars", "1985"]);
      await press(frame, "Continuer");
      await frame.getByLabel(/^Nom/).fill("Rénovations Lavoie inc.");
      await press(frame, "Continuer");

      // A pick list, and a date two months ago.
      await frame.getByLabel(/Choisissez ce qui décrit le mieux/).selectOption("un travail mal fait ou non terminé");
      const due = new Date(Date.now() - 60 * 86_400_000);
      await fillDateIn(frame, /Date à laquelle on devait vous payer/, ["Jour", "Mois", "Année"], [String(due.getUTCDate()), String(due.getUTCMonth() + 1), String(due.getUTCFullYear())]);
      await press(frame, "Continuer");

      // The loop: two sums, one page each; the amount typed the French way, with a decimal comma.
      await frame.getByLabel(/Nombre de sommes/).selectOption("2");
      await press(frame, "Continuer");
      for (const [description, amount] of [["Facture 102", "1200,00"], ["Prêt du 3 mars", "345,50"]] as const) {
        await frame.getByLabel(/À quoi correspond cette somme/).fill(description);
        await frame.getByLabel(/Montant en dollars/).fill(amount);
        await press(frame, "Continuer");
      }
      await expect(frame.getByText(/1545[,.]50/)).toBeVisible();
      await press(frame, "C'est exact");
      await press(frame, "Oui");
      await frame.getByLabel(/Nombre de jours/).fill("10");
      await press(frame, "Continuer");
      await press(frame, "Créer ma mise en demeure");

      // Check your answers, in French, with the date as French writes it.
      await expect(frame.locator("#viewer-heading")).toHaveText("Vérifier vos réponses");
      await expect(frame.getByText("14 mars 1985")).toBeVisible();
      // Amounts with the decimal comma they were typed with.
      await expect(frame.getByText("345,5", { exact: true })).toBeVisible();
      await expect(frame.getByRole("button", { name: /^Modifier/ }).first()).toBeVisible();
      await axeOnViewer(person, axe);
      const interviewId = await interviewIdOf(frame);
      await frame.getByRole("button", { name: "Confirmer et terminer" }).click();
      await expect(person.getByRole("heading", { name: "Félicitations" })).toBeVisible();

      // The letter is in French: the answers, the sums, and dates as French writes them.
      const text = await documentText(person, interviewId);
      for (const words of ["Marie Tremblay", "Rénovations Lavoie inc.", "Mise en demeure", "Facture 102", "1545,50 $"]) expect(text).toContain(words);
      expect(text).toMatch(/Le \d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4}/);
    } finally {
      await context.close();
    }
    // The usage counts it in French.
    await page.goto(`/admin/usage/${issueId}`);
    await expect(page.getByRole("region", { name: "Interviews and downloads by language" }).getByRole("row", { name: /French/ })).toContainText("1");
  });

  test("an Arabic guide runs right to left, inside an English page that says which language it is in, its dates in the digits the country chose", async ({ page, browser, axe }, testInfo) => {
    test.setTimeout(240_000);
    const project = testInfo.project.name;
    const issueName = `Rental bond in Arabic (${project})`;
    const guideId = `bond-ar-${project}`;
    const issueId = plantIssue(3, issueName);
    const admin = uniqueEmail("languages-admin-ar");
    await plantSignedIn(page, admin, { role: "administrator" });
    await uploadAndPublish(page, guideId, "ar-tenancy");
    await attach(page, guideId, `Australia: ${issueName}`, issueName);
    // The organisation writes Arabic dates in Australia with Arabic digits ("Digits in dates"; English dates keep
    // theirs, so the other tests on Australian issues are not concerned).
    withE2eDatabase((db) => db.prepare("update categories set date_digits = 'native' where id = 3").run());

    const context = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled });
    const person = await context.newPage();
    try {
      await plantSignedIn(person, uniqueEmail("languages-ar"));
      await person.goto(`/issues/${issueId}/interviews`);
      await expect(person.locator("html")).toHaveAttribute("dir", "ltr");
      await expect(person.getByRole("note")).toContainText("This interview is in Arabic. We do not have it in your language yet.");
      const frame = viewer(person);
      await expect(frame.locator("[data-viewer]")).toHaveAttribute("dir", "rtl");
      await expect(frame.locator("[data-viewer]")).toHaveAttribute("lang", "ar");
      await axe();
      await press(frame, "ابدأ");

      // Errors in Arabic, then the page answered.
      await press(frame, "متابعة", { stays: true });
      await expect(frame.getByRole("alert")).toContainText("توجد مشكلة");
      await axeOnViewer(person, axe);
      await frame.getByLabel("اسمك الكامل").fill("ليلى حداد");
      await frame.getByLabel(/اسم المالك/).fill("Harbour Realty");
      await fillDateIn(frame, /تاريخ انتهاء الإيجار/, ["اليوم", "الشهر", "السنة"], ["31", "8", "2026"]);
      await press(frame, "متابعة");
      await frame.getByLabel("يريد المالك الاحتفاظ بجزء من مبلغ التأمين").check();
      // Digits typed on an Arabic keyboard are read.
      await frame.getByLabel(/مبلغ التأمين الذي دفعته/).fill("١٨٠٠");
      await press(frame, "متابعة");
      await press(frame, "أنشئ رسالتي");
      await expect(frame.locator("#viewer-heading")).toHaveText("راجع إجاباتك");
      await expect(frame.getByText("٣١ أغسطس ٢٠٢٦")).toBeVisible();
      await axeOnViewer(person, axe);
      const interviewId = await interviewIdOf(frame);
      await frame.getByRole("button", { name: "تأكيد وإنهاء" }).click();
      await expect(person.getByRole("heading", { name: "Congratulations" })).toBeVisible();

      // The letter's Arabic comes back in logical order, the year inside it too.
      const text = await documentText(person, interviewId);
      for (const words of ["ليلى حداد", "Harbour Realty", "2026", "أغسطس", "٢٠٢٦"]) expect(text).toContain(words);
    } finally {
      await context.close();
    }
  });

  test("a person who reads Chinese, on an issue with no guide in Chinese: the English guide, said so in Chinese, inside a Chinese page", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("zh-reader"));
    await page.goto("/issues/2/interviews?lang=zh-Hans");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    // The page around the interview is in Chinese; the note says which language the interview is in, in Chinese.
    await expect(page.getByRole("navigation", { name: "当前位置" }).getByRole("link", { name: "首页" })).toBeVisible();
    await expect(page.getByRole("note").filter({ hasText: "本问卷为英语" })).toContainText("我们暂时还没有您的语言版本");
    await axe();
    // The interview itself is the English guide, in English.
    const frame = viewer(page);
    await expect(frame.locator("#viewer-heading")).toContainText("Re-Entry");
    // (the viewer's own words and lang: decision 0047)
    await axeOnViewer(page, axe);
    await press(frame, "Continue");
    // Resumed later, it is still the English guide, and still says so.
    await page.goto("/account/interview");
    await page.getByRole("link", { name: /编辑/ }).first().click();
    await expect(page.getByRole("note").filter({ hasText: "本问卷为英语" })).toBeVisible();
  });
});
