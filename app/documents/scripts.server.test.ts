/**
 * Documents in every script (decision 0046): text and overlay templates in Chinese, Tamil, Arabic, Hebrew,
 * Vietnamese and Russian print in their fonts and read back, with poppler's `pdftotext`, in logical order.
 * Set DOCUMENT_SCRIPTS_OUT=<folder> to keep each PDF there (to render and look at: `pdftoppm -png -r 100`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDict, PDFDocument, PDFName } from "@cantoo/pdf-lib";
import { getDocumentProxy } from "unpdf";
import { afterAll, describe, expect, it } from "vitest";
import type { Answers, AnswerValue } from "~/a2j";
import { assembleDocument, type ReadGuideFile } from "./assemble.server";
import { paragraphLevels, shapedRightToLeft, textForShaping, visualOrder } from "./scripts";
import { readStructure } from "./test-structure";

const work = mkdtempSync(path.join(tmpdir(), "document-scripts-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The text poppler's pdftotext reads from a PDF (the tool is required: poppler-utils). */
function pdftotext(pdf: Uint8Array, name: string): string {
  const file = path.join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  if (process.env.DOCUMENT_SCRIPTS_OUT) writeFileSync(path.join(process.env.DOCUMENT_SCRIPTS_OUT, `${name}.pdf`), pdf);
  try {
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error("these tests need poppler's pdftotext: apt-get install poppler-utils");
    throw error;
  }
}

/** Text without white space and without the embedding marks pdftotext puts around right-to-left text. */
const letters = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e\s]/g, "");
/** Text with white space collapsed. */
const words = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e]/g, "").replace(/\s+/g, " ").trim();

function answers(vars: Record<string, AnswerValue>): Answers {
  const out: Answers = {};
  for (const [name, v] of Object.entries(vars)) out[name.toLowerCase()] = { name, type: "Text", repeating: false, values: [null, v] };
  return out;
}

function guide(files: Record<string, string | Uint8Array>): ReadGuideFile {
  return async (file) => {
    const f = files[file];
    return f === undefined ? null : typeof f === "string" ? new TextEncoder().encode(f) : f;
  };
}

function textTemplate(html: string): string {
  return JSON.stringify({
    templateId: 1,
    title: "Document",
    active: true,
    rootNode: { tag: "a2j-template", state: { fontFamily: "times-new-roman", fontSize: 12 }, children: [{ tag: "a2j-rich-text", state: { userContent: html } }] },
  });
}

async function fontNames(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const names = new Set<string>();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.get(PDFName.of("Type")) === PDFName.of("Font")) names.add(String(object.get(PDFName.of("BaseFont"))));
  }
  return [...names];
}

/** The right edge of the rightmost text on the first page, and the left edge of the leftmost, in points. */
async function textExtent(pdf: Uint8Array): Promise<{ left: number; right: number; pageWidth: number }> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const items = (content.items as { str?: string; transform?: number[]; width?: number }[]).filter((i) => i.str?.trim() && i.transform);
  return {
    left: Math.min(...items.map((i) => i.transform![4]!)),
    right: Math.max(...items.map((i) => i.transform![4]! + (i.width ?? 0))),
    pageWidth: page.view[2]!,
  };
}

// The same sentence of a court document in each script: a date's year, a Latin name, punctuation.
const SAMPLES = {
  ar: "يطلب المدعي من المحكمة في عام 2026 النظر في قضية شركة Acme وإصدار الحكم.",
  he: "התובע מבקש מבית המשפט בשנת 2026 לדון בתביעה נגד חברת Acme ולתת פסק דין.",
  ta: "மனுதாரர் 2026 ஆம் ஆண்டு நீதிமன்றத்தில் விண்ணப்பித்தார்; கொடுத்த தீர்ப்பை ஸ்ரீ க்ஷேத்திரம் கை ஒப்புக்கொண்டது.",
  "zh-Hans": "原告于2026年1月13日向人民法院提起诉讼，请求判令被告Acme公司支付欠款。",
  "zh-Hant": "原告於2026年1月13日向法院提起訴訟，請求判決被告Acme公司支付欠款。",
  vi: "Nguyên đơn yêu cầu Tòa án nhân dân giải quyết vụ việc vào ngày 13 tháng 1 năm 2026.",
  ru: "Истец просит суд рассмотреть иск к компании Acme 13 января 2026 года.",
} as const;
type Lang = keyof typeof SAMPLES;
const RIGHT_TO_LEFT: Lang[] = ["ar", "he"];
/** The font each script prints in (its PostScript name, after the subset's tag). */
const FONT: Record<Lang, RegExp> = {
  ar: /NotoNaskhArabic/,
  he: /Tinos/,
  ta: /NotoSansTamil/,
  "zh-Hans": /NotoSansCJKsc/,
  "zh-Hant": /NotoSansCJKsc/,
  vi: /Tinos/,
  ru: /Tinos/,
};

describe("text templates in every script", () => {
  for (const lang of Object.keys(SAMPLES) as Lang[]) {
    it(`${lang}: prints in its font, tagged in its language, and pdftotext reads it back in logical order`, async () => {
      const sample = SAMPLES[lang];
      const result = await assembleDocument({
        title: "Document",
        lang,
        answers: answers({ "Client name TE": sample }),
        readFile: guide({
          "templates.json": '{"templateIds":[1]}',
          "template1.json": textTemplate(`<p>${sample}</p><p><strong><a2j-variable name="Client name TE"></a2j-variable></strong></p>`),
        }),
      });
      if (!result.ok) throw new Error(result.reason);
      const pdf = result.pdf!;
      const text = pdftotext(pdf, `text-${lang}`);
      if (RIGHT_TO_LEFT.includes(lang)) {
        // pdftotext reorders a right-to-left line itself (poppler's reorderText), and moves the spaces next to a
        // number or a Latin word: the letters, in order, are the test.
        expect(letters(text)).toBe(letters(sample + sample));
      } else if (lang.startsWith("zh")) expect(letters(text)).toBe(letters(sample + sample));
      else expect(words(text)).toBe(`${sample} ${sample}`);
      expect((await fontNames(pdf)).some((name) => FONT[lang].test(name))).toBe(true);
      expect((await readStructure(pdf)).lang).toBe(lang);
      const extent = await textExtent(pdf);
      const margin = 10 * (72 / 25.4);
      // A right-to-left paragraph starts at the right margin; the others at the left one.
      if (RIGHT_TO_LEFT.includes(lang)) expect(extent.right).toBeCloseTo(extent.pageWidth - margin, 0);
      else expect(extent.left).toBeCloseTo(margin, 0);
    });
  }

  it("an Arabic list is indented from the right, its markers on the right of its items", async () => {
    const result = await assembleDocument({
      title: "Document",
      lang: "ar",
      answers: {},
      readFile: guide({ "templates.json": '{"templateIds":[1]}', "template1.json": textTemplate("<p>الطلبات:</p><ul><li>إلزام المدعى عليه بالدفع</li><li>المصاريف</li></ul>") }),
    });
    if (!result.ok) throw new Error(result.reason);
    const doc = await getDocumentProxy(new Uint8Array(result.pdf!));
    const items = ((await (await doc.getPage(1)).getTextContent()).items as { str: string; transform: number[]; width: number }[]).filter((i) => i.str.trim());
    const markers = items.filter((i) => i.str === "•");
    const texts = items.filter((i) => i.str !== "•");
    expect(markers).toHaveLength(2);
    const textRight = Math.max(...texts.filter((t) => Math.abs(t.transform[5]! - markers[0]!.transform[5]!) < 1).map((t) => t.transform[4]! + t.width));
    // The item's text ends an indent (40 px, 24 pt) before the right margin; the marker sits in that indent.
    expect(markers[0]!.transform[4]!).toBeGreaterThan(textRight);
    expect(textRight).toBeCloseTo(595.28 - 10 * (72 / 25.4) - 24, 0);
  });

  it("a word wider than the line, in an Arabic paragraph, is cut to stay inside the margins", async () => {
    const address = "https://example.org/" + "a".repeat(200);
    const result = await assembleDocument({
      title: "Document",
      lang: "ar",
      answers: {},
      readFile: guide({ "templates.json": '{"templateIds":[1]}', "template1.json": textTemplate(`<p>العنوان: ${address}</p>`) }),
    });
    if (!result.ok) throw new Error(result.reason);
    const extent = await textExtent(result.pdf!);
    const margin = 10 * (72 / 25.4);
    expect(extent.left).toBeGreaterThanOrEqual(margin - 0.5);
    expect(extent.right).toBeLessThanOrEqual(extent.pageWidth - margin + 0.5);
    expect(letters(pdftotext(result.pdf!, "text-ar-long-word"))).toContain(address);
  });

  it("a long Chinese paragraph breaks between characters, never before closing punctuation, and stays on its lines", async () => {
    const sentence = "当事人有权委托代理人，提出回避申请，收集、提供证据，进行辩论，请求调解，提起上诉，申请执行。";
    const result = await assembleDocument({
      title: "Document",
      lang: "zh-Hans",
      answers: {},
      readFile: guide({ "templates.json": '{"templateIds":[1]}', "template1.json": textTemplate(`<p>${sentence.repeat(6)}</p>`) }),
    });
    if (!result.ok) throw new Error(result.reason);
    const lines = pdftotext(result.pdf!, "text-zh-long").split("\n").filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(3);
    expect(letters(lines.join(""))).toBe(sentence.repeat(6));
    for (const line of lines.slice(1)) expect(line).not.toMatch(/^[，。、]/);
  });
});

describe("PDF overlay templates in every script", () => {
  const overlayTemplate = (variables: string[]) =>
    JSON.stringify({
      templateId: 1,
      title: "Form",
      active: true,
      rootNode: {
        tag: "a2j-pdf",
        pages: [{ domSize: { width: 612, height: 792 }, pdfSize: { width: 612, height: 792 } }],
        boxes: variables.map((variable, i) => ({ id: variable, page: 0, area: { top: 60 + i * 60, left: 40, width: 530, height: 40 }, variable })),
        documentOptions: { fontSize: "12" },
      },
    });

  it("writes each value in its font, shaped and in visual order, and pdftotext reads every one back in logical order", async () => {
    const blank = await PDFDocument.create();
    blank.addPage([612, 792]);
    const langs = Object.keys(SAMPLES) as Lang[];
    const names = langs.map((lang) => `Value ${lang} TE`);
    const result = await assembleDocument({
      title: "Form",
      lang: "en",
      answers: answers(Object.fromEntries(langs.map((lang, i) => [names[i]!, SAMPLES[lang]]))),
      readFile: guide({ "templates.json": '{"templateIds":[1]}', "template1.json": overlayTemplate(names), "template1.pdf": await blank.save() }),
    });
    if (!result.ok) throw new Error(result.reason);
    const fonts = await fontNames(result.pdf!);
    for (const name of [/NotoNaskhArabic/, /NotoSansTamil/, /NotoSansCJKsc/, /DejaVuSans/]) expect(fonts.some((f) => name.test(f))).toBe(true);
    // One value a page, so that pdftotext decides each page's direction by its own text.
    for (const lang of langs) {
      const one = await assembleDocument({
        title: "Form",
        lang,
        answers: answers({ [`Value ${lang} TE`]: SAMPLES[lang] }),
        readFile: guide({ "templates.json": '{"templateIds":[1]}', "template1.json": overlayTemplate([`Value ${lang} TE`]), "template1.pdf": await blank.save() }),
      });
      if (!one.ok) throw new Error(one.reason);
      const text = pdftotext(one.pdf!, `overlay-${lang}`);
      if (RIGHT_TO_LEFT.includes(lang) || lang.startsWith("zh")) expect(letters(text), lang).toBe(letters(SAMPLES[lang]));
      else expect(words(text), lang).toBe(SAMPLES[lang]);
    }
  });
});

describe("bidi: levels and visual order", () => {
  it("a number and a Latin word inside Arabic keep their own order, and the line runs right to left", () => {
    const text = "في عام 2026 شركة Acme";
    const { levels, base } = paragraphLevels(text, "ar");
    expect(base).toBe(1);
    // Runs of one level, as the writers cut them.
    const runs: { text: string; level: number }[] = [];
    for (let i = 0; i < text.length; i++) {
      const last = runs[runs.length - 1];
      if (last && last.level === levels[i]) last.text += text[i];
      else runs.push({ text: text[i]!, level: levels[i]! });
    }
    expect(visualOrder(runs).map((r) => r.text.trim()).filter(Boolean)).toEqual(["Acme", "شركة", "2026", "في عام"]);
  });

  it("hands fontkit each run so that it comes out in visual order", () => {
    expect(shapedRightToLeft("مرحبا")).toBe(true);
    expect(shapedRightToLeft("2026")).toBe(false);
    // A bracket in right-to-left text is mirrored and reversed here (fontkit lays neutral text left to right).
    expect(textForShaping("(", 1)).toBe(")");
    expect(textForShaping("2026", 2)).toBe("2026");
    expect(textForShaping("مرحبا", 1)).toBe("مرحبا");
    // Arabic-Indic digits at an even level: fontkit would reverse them, so they are reversed first.
    expect(textForShaping("٢٠٢٦", 2)).toBe("٦٢٠٢");
  });

  it("a paragraph takes its first strong character's direction, or the document's language when it has none", () => {
    expect(paragraphLevels("Hello עולם", "en").base).toBe(0);
    expect(paragraphLevels("עולם Hello", "en").base).toBe(1);
    expect(paragraphLevels("Acme شركة", "ar").base).toBe(1);
    expect(paragraphLevels("Acme", "ar").base).toBe(0);
    expect(paragraphLevels("2026", "ar").base).toBe(1);
  });
});
