/**
 * The guides written for issue 27 in tests/fixtures/guides (in the form the admin import and `cli guide check` take):
 * fr-small-claims, the French translation of en-small-claims, and ar-tenancy in Arabic. Each passes the import's
 * checks and the health check without a finding, its scenario (tests/fixtures/guides/scenarios/<guide>) passes, and,
 * replayed with answers for a fixed "today", it reaches its end through its loop, pick list, yes/no and date
 * questions and assembles a document in its language, dates written as the language writes them.
 */
import { readFileSync } from "node:fs";
import { zipSync } from "fflate";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { createTestDatabase, type TestDatabase } from "../../tests/support/databases";
import { checkGuideFilesWithScenarios, readScenarioFolder } from "~/guide-checks/check-files.server";
import { checkGuideHealth } from "~/guide-checks/health.server";
import { checkGuideFiles, importGuide, readGuideFolder, readGuideUpload } from "~/guides/import.server";
import { datAssemble } from "~/documents/dat.server";
import { documentTexts } from "~/documents/document-text.server";
import { answersFromJSON, answersToJSON, formatDays, replayAnswers, replayValue, submitPage, startInterview, ymdToDays, type Answers, type Guide } from "~/a2j";

const TODAY = ymdToDays(2026, 11, 26)!;
const FIXTURES = "tests/fixtures/guides";

async function material(name: string) {
  const files = await readGuideFolder(`${FIXTURES}/${name}`);
  const checked = checkGuideFiles(files);
  const others = new Map(checked.others);
  return { files, checked, guide: checked.guide, readFile: async (path: string) => others.get(path) ?? null };
}

function scenarioAnswers(name: string, guide: Guide): Answers {
  const read = answersFromJSON(readFileSync(`${FIXTURES}/scenarios/${name}/complete.json`, "utf8"), guide);
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

describe.each([
  { name: "en-small-claims", language: "en", pages: 12 },
  { name: "fr-small-claims", language: "fr", pages: 12 },
  { name: "ar-tenancy", language: "ar", pages: 4 },
])("the $language guide $name", ({ name, language, pages }) => {
  test("is imported without a warning, and the health check finds no problem at all", async () => {
    const { checked, guide, files } = await material(name);
    expect(guide.language).toBe(language);
    expect(checked.report).toMatchObject({ pages, templates: ["template1.json", "templates.json"], warnings: [] });
    const health = await checkGuideHealth(guide, new Map(checked.others), { today: TODAY, seconds: 10 });
    expect(health.findings).toEqual([]);
    expect(health.complete).toBe(true);
    expect(health.outcomes).toEqual(["ASSEMBLE-SUCCESS"]);
    expect(health.pagesReached).toBe(health.pagesTotal);
    // What `cli guide check <folder> --scenarios <dir>` runs.
    const report = await checkGuideFilesWithScenarios(files, await readScenarioFolder(`${FIXTURES}/scenarios/${name}`), 10);
    expect(report.failed, report.lines.join("\n")).toBe(false);
    expect(report.lines.at(-1)).toBe("Result: ready.");
  });
});

/** What a translation must keep: everything but the words people read (texts, labels, prompts, options' words, comments). */
function logic(guide: Guide) {
  const script = (code: string) =>
    code
      .split(/<BR\/?>/i)
      .filter((line) => !line.trim().startsWith("//"))
      // Text a script writes (the decimal sign of an amount) is words; a GOTO's page name is logic.
      .map((line) => (/^\s*GOTO /i.test(line) ? line : line.replace(/"[^"]*"/g, '"…"')))
      .join("\n");
  return {
    firstPage: guide.firstPage,
    steps: guide.steps.length,
    vars: Object.values(guide.vars).map((v) => [v.name, v.type, v.repeating]),
    pages: Object.values(guide.pages).map((page) => ({
      name: page.name,
      step: page.step,
      repeatVar: page.repeatVar,
      fields: page.fields.map((f) => [f.type, f.name, f.required, f.min, f.max, f.maxChars, f.value, (f.listData.match(/<option/g) ?? []).length]),
      buttons: page.buttons.map((b) => [b.next, b.name, b.value, b.repeatVar, b.repeatVarSet]),
      codeBefore: script(page.codeBefore),
      codeAfter: script(page.codeAfter),
    })),
  };
}

function words(guide: Guide): string[] {
  return Object.values(guide.pages).flatMap((page) => [page.text, ...page.fields.flatMap((f) => [f.label, f.invalidPrompt, f.listData]), ...page.buttons.map((b) => b.label)]).filter(Boolean);
}

describe("the French guide is a translation of the English one", () => {
  test("the same pages, questions, buttons, variables, scripts and document, and none of the English words left", async () => {
    const english = await material("en-small-claims");
    const french = await material("fr-small-claims");
    expect(logic(french.guide)).toEqual(logic(english.guide));
    const left = new Set(words(english.guide));
    expect(words(french.guide).filter((text) => left.has(text))).toEqual([]);
    // The letters have the same parts, in the same order, printing the same answers.
    const shape = async (m: Awaited<ReturnType<typeof material>>) =>
      JSON.stringify(JSON.parse(new TextDecoder().decode((await m.readFile("template1.json"))!)).rootNode, (key, value) =>
        ["userContent", "title", "column", "loopTitle"].includes(key) ? String(value).match(/<a2j-variable name="[^"]*"/g) ?? [] : value,
      );
    expect(await shape(french)).toBe(await shape(english));
  });

  test("the same answers give the same letter in each language", async () => {
    for (const [name, expected] of [
      ["en-small-claims", ["Dear Sir or Madam,", "The total claimed is $1545.50.", "no later than 6 December 2026"]],
      ["fr-small-claims", ["Madame, Monsieur,", "Le total réclamé est de 1545,50 $.", "au plus tard le 6 décembre 2026"]],
    ] as const) {
      const { guide, readFile } = await material(name);
      const replay = replayAnswers(guide, scenarioAnswers(name, guide), TODAY);
      expect(replay.outcome).toBe("ASSEMBLE-SUCCESS");
      const made = await documentTexts(readFile, replay.answers, { order: "DMY", style: "long", language: guide.language });
      if (!made.ok) throw new Error(made.reason);
      for (const words of expected) expect(squash(made.documents[0]!.text)).toContain(words);
    }
  });
});

describe("the French guide, run end to end", () => {
  test("goes through the loop once per sum, totals them in the French way, and writes the letter in French", async () => {
    const { guide, readFile } = await material("fr-small-claims");
    const replay = replayAnswers(guide, scenarioAnswers("fr-small-claims", guide), TODAY);
    expect(replay.stopped).toBeNull();
    expect(replay.outcome).toBe("ASSEMBLE-SUCCESS");
    expect(replay.visited).toEqual([
      "01-Bienvenue", "02-Vous", "04-Defendeur", "05-Type", "06-Combien", "07-Somme", "07-Somme", "08-Total", "09-Deja demande", "10-Delai", "11-Fin",
    ]);
    expect(replayValue(replay.answers, "Somme montant TE#1")).toBe("1200,00");
    expect(replayValue(replay.answers, "Somme montant TE#2")).toBe("345,50");
    expect(replayValue(replay.answers, "Total TE")).toBe("1545,50");
    expect(replayValue(replay.answers, "Payer avant DA")).toBe("12/06/2026");

    const made = await documentTexts(readFile, replay.answers, { order: "DMY", style: "long", language: "fr" });
    if (!made.ok) throw new Error(made.reason);
    expect(made.documents.map((d) => d.title)).toEqual(["Mise en demeure"]);
    const text = squash(made.documents[0]!.text);
    for (const expected of [
      "Marie Tremblay",
      "Le 26 novembre 2026",
      "À : Rénovations Lavoie inc.",
      "Madame, Monsieur,",
      "Vous me devez une somme d'argent pour la raison suivante : un travail mal fait ou non terminé.",
      "Cette somme devait m'être payée le 15 septembre 2026",
      "Je vous ai déjà demandé de me payer, sans succès.",
      "Sommes réclamées",
      "Acompte pour la cuisine",
      "Matériaux payés d'avance",
      "1200,00",
      "345,50",
      "Le total réclamé est de 1545,50 $.",
      "au plus tard le 6 décembre 2026",
      "Veuillez agréer, Madame, Monsieur, mes salutations distinguées.",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
  });

  test("answered No, the letter asks for the first time; a minor and an old debt each get their page", async () => {
    const { guide, readFile } = await material("fr-small-claims");
    const answers = scenarioAnswers("fr-small-claims", guide);
    answers["deja demande tf"]!.values = [null, false];
    answers["date naissance da"]!.values = [null, "02/01/2010"];
    answers["date echeance da"]!.values = [null, "06/30/2023"];
    const replay = replayAnswers(guide, answers, TODAY);
    expect(replay.outcome).toBe("ASSEMBLE-SUCCESS");
    expect(replay.visited).toContain("03-Mineur");
    expect(replay.visited).toContain("05b-Prescription");
    const made = await documentTexts(readFile, replay.answers, { order: "DMY", style: "long", language: "fr" });
    if (!made.ok) throw new Error(made.reason);
    const text = squash(made.documents[0]!.text);
    expect(text).toContain("Par la présente, je vous demande de me payer.");
    expect(text).not.toContain("sans succès");
    expect(text).toContain("30 juin 2023");
  });

  test("refuses a birth date after today and a sum over the small-claims limit, in the guide's own French words", () => {
    const { guide } = checkGuideFiles(new Map([["Guide.json", readFileSync(`${FIXTURES}/fr-small-claims/Guide.json`)]]));
    const started = startInterview(guide, TODAY);
    if (!started.ok) throw new Error(started.error.message);
    const welcome = submitPage(guide, started.state, { pageName: "01-Bienvenue", buttonIndex: 0, values: {} }, TODAY);
    if (!welcome.ok) throw new Error(welcome.error.message);
    const you = submitPage(guide, welcome.state, { pageName: "02-Vous", buttonIndex: 0, values: { "nom te": "Marie", "date naissance da": "01/01/2030" } }, TODAY);
    expect(you.ok && you.outcome.kind).toBe("invalid");
    if (you.ok && you.outcome.kind === "invalid") {
      expect(you.outcome.errors).toEqual([
        // The author's prompt, and the field's limits after it (issue 29): the viewer words them in French.
        {
          fieldIndex: 2,
          inputName: "date naissance da",
          message: "Veuillez écrire votre date de naissance. Elle ne peut pas être après aujourd'hui.",
          reason: { id: "dateBetween", values: { min: "01/01/1900", max: formatDays(TODAY) } },
        },
      ]);
    }
    const answers = scenarioAnswers("fr-small-claims", guide);
    answers["somme montant nu"]!.values = [null, 1200, 20000];
    expect(replayAnswers(guide, answers, TODAY).stopped).toEqual({
      page: "07-Somme",
      // The report (in English, for the administration) adds the limits after the author's prompt.
      reason: "The answers were refused at [Somme montant NU]: Veuillez écrire un montant de 15 000 $ ou moins, par exemple 1250,50. Please enter a number between 0.01 and 15000.",
    });
  });
});

describe("the Arabic guide, run end to end", () => {
  test("writes the letter in Arabic, with the answers, the date in Arabic words and the year 2026 kept in Latin digits", async () => {
    const { guide, readFile } = await material("ar-tenancy");
    const replay = replayAnswers(guide, scenarioAnswers("ar-tenancy", guide), TODAY);
    expect(replay.stopped).toBeNull();
    expect(replay.outcome).toBe("ASSEMBLE-SUCCESS");
    expect(replay.visited).toEqual(["01-مرحبا", "02-بياناتك", "03-المشكلة", "04-الرسالة"]);
    const made = await documentTexts(readFile, replay.answers, { order: "DMY", style: "long", language: "ar" });
    if (!made.ok) throw new Error(made.reason);
    expect(made.documents.map((d) => d.title)).toEqual(["رسالة بشأن استرداد مبلغ التأمين"]);
    const text = squash(made.documents[0]!.text);
    for (const expected of [
      "ليلى حداد",
      "إلى: مكتب النخيل العقاري",
      "طلب استرداد مبلغ التأمين",
      "انتهى إيجاري في 31 أغسطس 2026",
      "دفعت مبلغ تأمين قدره 1,800.00 دولار أسترالي.",
      "أكتب إليك بشأن: مبلغ التأمين كله.",
      "لا أوافق على احتفاظك بمبلغ التأمين كله.",
      "خلال 14 يومًا",
      "في عام 2026",
    ]) {
      expect(text).toContain(expected);
    }
  });
});

describe("uploaded as a zip, as an administrator would", () => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase("sqlite");
    await migrateToLatest(handle.db);
  });
  afterAll(() => handle?.drop());

  test.each([
    { name: "fr-small-claims", expected: ["Mise en demeure", "Rénovations Lavoie inc.", "Acompte pour la cuisine", "Le total réclamé est de 1545,50 $."] },
    // Right-to-left text comes out of the PDF's text in drawing order (the last word of a line first), so its words
    // are looked for one by one. (The text template's PDF is laid out left to right, without the bidirectional
    // algorithm: the Word templates mark right-to-left paragraphs, app/documents/word-language.ts, the PDF does not.)
    { name: "ar-tenancy", expected: ["ليلى", "حداد", "النخيل", "التأمين", "1,800.00", "2026"] },
  ])("$name is imported without a warning, and POST /assemble makes its PDF with the answers", async ({ name, expected }) => {
    const folder = await readGuideFolder(`${FIXTURES}/${name}`);
    const zip = zipSync(Object.fromEntries([...folder].map(([file, bytes]) => [`${name}/${file}`, bytes])));
    const imported = await importGuide(name, readGuideUpload(`${name}.zip`, zip), handle.db);
    expect(imported).toMatchObject({ files: 2, warnings: [], version: 1 });
    const { guide } = await material(name);
    const replay = replayAnswers(guide, scenarioAnswers(name, guide), TODAY);
    const request = new Request("http://x/api/assemble", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ guideId: name, answers: JSON.stringify(answersToJSON(replay.answers)) }),
    });
    const response = await datAssemble(request, handle.db);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const { text } = await extractText(new Uint8Array(await response.arrayBuffer()), { mergePages: true });
    for (const words of expected) expect(squash(text as string)).toContain(words);
  });
});
