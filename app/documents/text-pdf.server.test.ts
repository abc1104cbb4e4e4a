import { PDFDict, PDFDocument, PDFName } from "@cantoo/pdf-lib";
import PDFKitDocument from "pdfkit";
import { extractTextItems } from "unpdf";
import { describe, expect, it } from "vitest";
import type { Answers, AnswerValue } from "~/a2j";
import { assembleDocument } from "./assemble.server";
import { layoutTextTemplate } from "./layout";
import { overlayPdf } from "./overlay-pdf.server";
import { parseTemplate, type PdfTemplate, type TextTemplate } from "./template";
import { outline, pageLines, readStructure, textSizes } from "./test-structure";
import { textDocumentToPdf } from "./text-pdf.server";

/*
 * Figures derived from A2J DAT's rules (decision 0024), written out here rather than taken from the code:
 * wkhtmltopdf's A4 page (297 mm) with DAT's 20 mm top and wkhtmltopdf's 10 mm other margins; a CSS pixel is
 * 0.75 pt shrunk by 1.25 (0.6 pt) for spacing, and for text too but never below 10 pt (decision 0041: a 12 px
 * template prints at 10 pt, not DAT's 7.2); Bootstrap's line height 20/14 and paragraph margin 10 px; Arial's
 * advance widths ("x" 1024/2048 em, space 569/2048 em); Times New Roman's space 512/2048 em.
 */
const MM = 72 / 25.4;
const PT_PER_PX = 0.75 / 1.25;
const A4_TEXT_HEIGHT = (297 - 20 - 10) * MM;
const LETTER_TEXT_HEIGHT = 792 - (20 + 10) * MM;
const A4_TEXT_WIDTH_PT = (210 - 20) * MM;
/** The printed size of text of `px` CSS pixels. */
const textPt = (px: number) => Math.max(10, px * PT_PER_PX);
const line = (px: number) => textPt(px) * (20 / 14);

function template(children: unknown[], state: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): TextTemplate {
  const parsed = parseTemplate(JSON.stringify({ templateId: 1, title: "Test", active: true, ...extra, rootNode: { tag: "a2j-template", state: { fontFamily: "arial", fontSize: 12, ...state }, children } }), 1);
  if (!parsed.ok || parsed.value.kind !== "text") throw new Error("bad template");
  return parsed.value;
}
const rich = (html: string) => ({ tag: "a2j-rich-text", id: `r${Math.random()}`, state: { userContent: html } });

async function render(t: TextTemplate, a: Answers = {}) {
  return textDocumentToPdf(layoutTextTemplate(t, a), { title: "Test document", lang: "en-GB" });
}
async function pageCount(pdf: Uint8Array) {
  return (await PDFDocument.load(pdf)).getPageCount();
}
function answers(vars: Record<string, AnswerValue | AnswerValue[]>): Answers {
  const out: Answers = {};
  for (const [name, v] of Object.entries(vars)) {
    out[name.toLowerCase()] = { name, type: / NU$/.test(name) ? "Number" : "Text", repeating: Array.isArray(v), values: [null, ...(Array.isArray(v) ? v : [v])] } as Answers[string];
  }
  return out;
}

describe("DAT layout: page, type and line height", () => {
  it("a template prints on A4, or on Letter when it says so", async () => {
    const a4 = await PDFDocument.load(await render(template([rich("<p>Hello</p>")])));
    expect(a4.getPage(0).getSize()).toEqual({ width: expect.closeTo(595.28, 1), height: expect.closeTo(841.89, 1) });
    const letter = await PDFDocument.load(await render(template([rich("<p>Hello</p>")], { pageSize: "Letter" })));
    expect(letter.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  });

  it("as many lines as DAT's line height fits on an A4 page fill exactly one page; one more starts a second", async () => {
    const fits = Math.floor(A4_TEXT_HEIGHT / line(12)); // 756.9 pt / 14.29 pt = 52 lines
    expect(fits).toBe(52);
    const lines = (n: number) => template([rich(`<p>${Array.from({ length: n }, (_, i) => `Line ${i + 1}`).join("<br>")}</p>`)]);
    const one = await render(lines(fits));
    expect(await pageCount(one)).toBe(1);
    const two = await render(lines(fits + 1));
    expect(await pageCount(two)).toBe(2);
    const [first, second] = await pageLines(two);
    expect(first!.length).toBe(fits);
    expect(second!.map((l) => l.text)).toEqual([`Line ${fits + 1}`]);
    // consecutive baselines are one line height apart
    expect(first![0]!.y - first![1]!.y).toBeCloseTo(line(12), 3);
    expect(first![0]!.y - first![fits - 1]!.y).toBeCloseTo((fits - 1) * line(12), 2);
    // the first line's top is the top margin (20 mm): its half-leading above the text
    expect(841.89 - first![0]!.y).toBeGreaterThan(20 * MM);
    expect(841.89 - first![0]!.y).toBeLessThan(20 * MM + line(12));
  });

  it("paragraphs are a line plus 10 px apart: one-line paragraphs that fit DAT's page fill one page", async () => {
    // k lines and k − 1 gaps of 10 px must fit in the text height
    const step = line(12) + 10 * PT_PER_PX;
    const fits = Math.floor((A4_TEXT_HEIGHT + 10 * PT_PER_PX) / step);
    expect(fits).toBe(37);
    const paragraphs = (n: number) => template([rich(Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1}</p>`).join(""))]);
    expect(await pageCount(await render(paragraphs(fits)))).toBe(1);
    const two = await render(paragraphs(fits + 1));
    expect(await pageCount(two)).toBe(2);
    const [first] = await pageLines(two);
    expect(first![0]!.y - first![1]!.y).toBeCloseTo(step, 3);
  });

  it("list items are a line apart, nested or not; a list ends with a paragraph's 10 px", async () => {
    const [page] = await pageLines(await render(template([rich("<ul><li>a1<ul><li>b1</li></ul></li><li>a2</li></ul><ol><li>c1</li></ol><p>after</p>")])));
    expect(page!.map((l) => l.text.replace(/\s+/g, ""))).toEqual(["•a1", "◦b1", "•a2", "1.c1", "after"]);
    const gaps = page!.slice(1).map((l, i) => page![i]!.y - l.y);
    const step = line(12);
    const after = line(12) + 10 * PT_PER_PX;
    for (const [gap, expected] of gaps.map((g, i) => [g, [step, step, after, after][i]!] as const)) expect(gap).toBeCloseTo(expected, 3);
  });

  it("on Letter, the same rules give Letter's count", async () => {
    const fits = Math.floor(LETTER_TEXT_HEIGHT / line(12));
    expect(fits).toBe(49);
    const lines = (n: number) => template([rich(`<p>${Array.from({ length: n }, (_, i) => `L${i}`).join("<br>")}</p>`)], { pageSize: "letter" });
    expect(await pageCount(await render(lines(fits)))).toBe(1);
    expect(await pageCount(await render(lines(fits + 1)))).toBe(2);
  });

  it("breaks lines where Arial's widths on DAT's 190 mm line break them (Arimo has Arial's metrics)", async () => {
    // "xxxx " words at 12 px, printed at 10 pt: 4 × 5 pt + 2.78 pt each; k words fit while 22.78 k − 2.78 ≤ 538.6 pt
    const word = 4 * 0.5 * textPt(12);
    const space = (569 / 2048) * textPt(12);
    const perLine = Math.floor((A4_TEXT_WIDTH_PT + space) / (word + space));
    expect(perLine).toBe(23);
    const words = Array.from({ length: 100 }, () => "xxxx").join(" ");
    const [page] = await pageLines(await render(template([rich(`<p>${words}</p>`)])));
    expect(page!.map((l) => l.text.trim().split(/\s+/).length)).toEqual([perLine, perLine, perLine, perLine, 100 - 4 * perLine]);
    // Times New Roman (Tinos): a narrower space, so more words fit
    // pdfkit's line wrapper counts a word's trailing space, which CSS lets hang past the line's end: 24 words fit
    // CSS's 538.6 pt (537.5 pt) but not with the 24th space (540 pt), so the line breaks a word earlier than DAT's.
    const timesSpace = (512 / 2048) * textPt(12);
    const timesPerLine = Math.floor(A4_TEXT_WIDTH_PT / (word + timesSpace));
    expect(timesPerLine).toBe(23);
    const [times] = await pageLines(await render(template([rich(`<p>${words}</p>`)], { fontFamily: "times-new-roman" })));
    expect(times![0]!.text.trim().split(/\s+/).length).toBe(timesPerLine);
  });

  it("prints no text below 10 pt: body, small print, headers and footers; larger text keeps DAT's size", async () => {
    const pdf = await render(
      template(
        [
          rich('<h1>Big title</h1><p>Body text <span style="font-size:8px">small print</span></p><h6>Small heading</h6>'),
        ],
        {},
        { header: "<p>Header line</p>", footer: "<p>Footer line</p>" },
      ),
    );
    const found = await textSizes(pdf);
    expect(found.map((piece) => piece.text.trim())).toEqual(["Big title", "Body text small print", "Small heading", "Header line", "Footer line"]);
    expect(found[0]!.size).toBeCloseTo(36 * PT_PER_PX, 1);
    for (const piece of found.slice(1)) expect(piece.size, piece.text).toBeCloseTo(10, 1);
  });

  it("prints in Arimo and Tinos, and draws what they lack with DejaVu", async () => {
    const pdf = await render(template([rich("<p>Zoë Ångström, Σωκράτης, Иван and Հայաստան</p>")]));
    const doc = await PDFDocument.load(pdf);
    const fonts = doc.getPage(0).node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
    const names = fonts.entries().map(([, ref]) => (doc.context.lookup(ref, PDFDict).lookup(PDFName.of("BaseFont")) as PDFName).decodeText());
    expect(names.some((n) => n.includes("Arimo"))).toBe(true);
    expect(names.some((n) => n.includes("DejaVuSans"))).toBe(true);
    const [page] = await pageLines(pdf);
    expect(page![0]!.text.replace(/\s+/g, " ")).toContain("Zoë Ångström, Σωκράτης, Иван and Հայաստան");
    // a centred line of one run in two fonts is still centred, its pieces side by side
    const [centred] = await pageLines(await render(template([rich('<p style="text-align:center">Αθήνα Երևան</p>')])));
    expect(centred![0]!.text.replace(/\s+/g, " ").trim()).toBe("Αθήνα Երևան");
    const { items } = (await extractTextItems(await render(template([rich('<p style="text-align:center">Αθήνα Երևան</p>')])))) as unknown as { items: { str: string; x: number; width: number }[][] };
    const shown = items[0]!.filter((i) => i.str.trim());
    const middle = (shown[0]!.x + shown.at(-1)!.x + shown.at(-1)!.width) / 2;
    expect(Math.abs(middle - 595.28 / 2)).toBeLessThan(1);
    for (let k = 1; k < shown.length; k++) expect(shown[k]!.x).toBeGreaterThanOrEqual(shown[k - 1]!.x + shown[k - 1]!.width - 0.01);
    const serif = await PDFDocument.load(await render(template([rich("<p>Times</p>")], { fontFamily: "times-new-roman" })));
    const serifFonts = serif.getPage(0).node.Resources()!.lookup(PDFName.of("Font"), PDFDict);
    expect(serifFonts.entries().map(([, ref]) => String(serif.context.lookup(ref, PDFDict).lookup(PDFName.of("BaseFont"))))).toEqual([expect.stringContaining("Tinos")]);
  });
});

describe("tagged PDF", () => {
  const loop = {
    tag: "a2j-repeat-loop",
    id: "l",
    state: {
      loopType: "variable",
      loopVariable: "Count NU",
      displayType: "table",
      tableStyle: "bordered",
      tableColumns: [
        { variable: "Item TE", column: "Item", width: 60 },
        { variable: "Amount TE", column: "Amount", width: 40 },
      ],
      loopTitle: "",
    },
  };
  const letter = template(
    [
      { tag: "a2j-section-title", id: "s1", state: { title: "Letter of demand", titleTag: "h1", underline: true } },
      rich("<p>Dear <a2j-variable name=\"Debtor TE\"></a2j-variable>,</p><p>&nbsp;</p><p></p><h3>What you owe</h3><ul><li>Rent<ul><li>March</li></ul></li><li>Bond</li></ul><ol><li>Pay</li></ol>"),
      loop,
      rich("<p>Yours faithfully</p>"),
    ],
    {},
    { header: "<p>Header text</p>", footer: "<p>Footer text</p>" },
  );
  const a = answers({ "Debtor TE": "Acme", "Count NU": 2, "Item TE": ["Rent", "Bond"], "Amount TE": ["S$10", "S$20"] });

  it("has language, title, headings, paragraphs, lists and a table with header cells, in reading order", async () => {
    const pdf = await render(letter, a);
    const s = await readStructure(pdf);
    expect(s).toMatchObject({ tagged: true, lang: "en-GB", displayTitle: true });
    expect(outline(s.root!)).toEqual([
      "StructTreeRoot",
      "  Document",
      "    H1: Letter of demand",
      "    P: Dear Acme,",
      "    H3: What you owe",
      "    L",
      "      LI",
      "        Lbl: •",
      "        LBody",
      "          P: Rent",
      "          L",
      "            LI",
      "              Lbl: ◦",
      "              LBody",
      "                P: March",
      "      LI",
      "        Lbl: •",
      "        LBody",
      "          P: Bond",
      "    L",
      "      LI",
      "        Lbl: 1.",
      "        LBody",
      "          P: Pay",
      "    Table",
      "      TR",
      "        TH: Item",
      "        TH: Amount",
      "      TR",
      "        TD: Rent",
      "        TD: S$10",
      "      TR",
      "        TD: Bond",
      "        TD: S$20",
      "    P: Yours faithfully",
    ]);
    const table = s.root!.kids[0]!.kids.find((k) => k.role === "Table")!;
    expect(table.kids[0]!.kids.map((th) => th.attributes)).toEqual([{ O: "Table", Scope: "Column" }, { O: "Table", Scope: "Column" }]);
    // the header and footer are printed, as artifacts: not in the structure
    const [page] = await pageLines(pdf);
    expect(page!.map((l) => l.text)).toEqual(expect.arrayContaining(["Header text", "Footer text"]));
    expect(JSON.stringify(s.root)).not.toMatch(/Header text|Footer text/);
  });

  it("a table over several pages repeats its header row as an artifact: the structure has it once", async () => {
    const n = 150;
    const many = answers({ "Count NU": n, "Item TE": Array.from({ length: n }, (_, i) => `Item ${i + 1}`), "Amount TE": Array.from({ length: n }, () => "S$1") });
    const pdf = await render(template([loop]), many);
    expect(await pageCount(pdf)).toBeGreaterThan(1);
    const s = await readStructure(pdf);
    const table = s.root!.kids[0]!.kids[0]!;
    expect(table.role).toBe("Table");
    expect(table.kids.length).toBe(n + 1);
    expect(table.kids.filter((tr) => tr.kids.some((c) => c.role === "TH")).length).toBe(1);
    expect(table.kids.at(-1)!.kids.map((c) => c.text.trim())).toEqual([`Item ${n}`, "S$1"]);
    const pages = await pageLines(pdf);
    expect(pages[1]!.some((l) => l.text.includes("Item") && l.text.includes("Amount"))).toBe(true);
  });

  it("an assembled document keeps each template's structure, in assembly order", async () => {
    const second = template([rich("<h2>Second</h2><p>Text</p>")]);
    const files: Record<string, string> = {
      "templates.json": JSON.stringify({ guideId: "1", templateIds: [1, 2] }),
      "template1.json": JSON.stringify({ templateId: 1, title: "One", active: true, rootNode: { tag: "a2j-template", state: { fontFamily: "arial", fontSize: 12 }, children: [rich("<h1>First</h1><p>Body</p>")] } }),
      "template2.json": JSON.stringify({ templateId: 2, title: "Two", active: true, rootNode: { tag: "a2j-template", state: { fontFamily: "arial", fontSize: 12 }, children: [rich("<h2>Second</h2><p>Text</p>")] } }),
    };
    void second;
    const result = await assembleDocument({ title: "Both", lang: "en", answers: {}, readFile: async (f) => (files[f] ? new TextEncoder().encode(files[f]) : null) });
    if (!result.ok) throw new Error(result.reason);
    const s = await readStructure(result.pdf!);
    expect(s.tagged).toBe(true);
    // one Document element, each template a Part of it
    expect(outline(s.root!)).toEqual(["StructTreeRoot", "  Document", "    Part", "      H1: First", "      P: Body", "    Part", "      H2: Second", "      P: Text"]);
  });

  it("an overlay PDF keeps the tags its base PDF has, alone and assembled", async () => {
    // A tagged base PDF, as an accessible court form would be.
    const base = await new Promise<Uint8Array>((resolve) => {
      const doc = new PDFKitDocument({ tagged: true, size: "A4", lang: "en" });
      const chunks: Buffer[] = [];
      doc.on("data", (c: Buffer) => chunks.push(c));
      doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
      const root = doc.struct("Document");
      doc.addStructure(root);
      const p = doc.struct("P");
      root.add(p);
      const content = doc.markStructureContent("P");
      doc.text("Name of applicant:", 50, 50);
      doc.endMarkedContent();
      p.add(content);
      p.end();
      root.end();
      doc.end();
    });
    const t: PdfTemplate = {
      kind: "pdf",
      templateId: 2,
      title: "Form",
      active: true,
      header: "",
      footer: "",
      hideHeaderOnFirstPage: false,
      hideFooterOnFirstPage: false,
      condition: null,
      pages: [{ domSize: { width: 595, height: 842 }, pdfSize: { width: 595, height: 842 } }],
      boxes: [{ id: "b", groupId: "", page: 0, area: { top: 60, left: 200, width: 200, height: 20 }, variable: "Name TE", variableValue: null, isInverted: false }],
      fontName: "Lato",
      fontSize: 12,
      variableOptions: {},
    };
    const overlaid = await overlayPdf(t, base, answers({ "Name TE": "Zoë" }));
    // the form's own tags, and the person's answer as a paragraph after them
    expect(outline((await readStructure(overlaid)).root!)).toEqual(["StructTreeRoot", "  Document", "    P: Name of applicant:", "    P: Zoë"]);
    const files: Record<string, Uint8Array> = {
      "templates.json": new TextEncoder().encode(JSON.stringify({ guideId: "1", templateIds: [1, 2] })),
      "template1.json": new TextEncoder().encode(JSON.stringify({ templateId: 1, title: "Cover", active: true, rootNode: { tag: "a2j-template", state: {}, children: [rich("<p>Cover letter</p>")] } })),
      "template2.json": new TextEncoder().encode(
        JSON.stringify({ templateId: 2, title: "Form", active: true, rootNode: { tag: "a2j-pdf", pages: t.pages, documentOptions: { fontSize: 12 }, children: [] } }),
      ),
      "template2.pdf": base,
    };
    const result = await assembleDocument({ title: "Both", lang: "en", answers: {}, readFile: async (f) => files[f] ?? null });
    if (!result.ok) throw new Error(result.reason);
    const s = await readStructure(result.pdf!);
    expect(outline(s.root!)).toEqual(["StructTreeRoot", "  Document", "    Part", "      P: Cover letter", "    Part", "      P: Name of applicant:"]);
    // an untagged template PDF stays untagged when overlaid
    const plain = await PDFDocument.create();
    plain.addPage([595, 842]);
    expect((await readStructure(await overlayPdf(t, await plain.save(), answers({ "Name TE": "Zoë" })))).root).toBeNull();
    expect((await PDFDocument.load(result.pdf!)).getPageCount()).toBe(2);
  });

  it("a part whose structure tree cannot be followed loses its tags, never its pages", async () => {
    const broken = await PDFDocument.create();
    broken.addPage([300, 300]).drawText("Attached letter", { x: 20, y: 250 });
    broken.catalog.set(PDFName.of("StructTreeRoot"), broken.context.obj({ Type: "StructTreeRoot", K: [], ParentTree: 5 }));
    const files: Record<string, Uint8Array> = {
      "templates.json": new TextEncoder().encode(JSON.stringify({ guideId: "1", templateIds: [1] })),
      "template1.json": new TextEncoder().encode(JSON.stringify({ templateId: 1, title: "Cover", active: true, rootNode: { tag: "a2j-template", state: {}, children: [rich("<p>Cover letter</p>")] } })),
    };
    const result = await assembleDocument({
      title: "With attachment",
      lang: "en",
      answers: {},
      readFile: async (f) => files[f] ?? null,
      attachments: [{ name: "letter.pdf", bytes: await broken.save() }],
    });
    if (!result.ok) throw new Error(result.reason);
    expect((await PDFDocument.load(result.pdf!)).getPageCount()).toBe(2);
    expect(outline((await readStructure(result.pdf!)).root!)).toEqual(["StructTreeRoot", "  Document", "    P: Cover letter"]);
    expect((await pageLines(result.pdf!))[1]!.map((l) => l.text)).toEqual(["Attached letter"]);
  });
});
