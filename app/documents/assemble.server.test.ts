import { readFile } from "node:fs/promises";
import path from "node:path";
import { PDFDocument } from "@cantoo/pdf-lib";
import { extractText, extractTextItems, getMeta } from "unpdf";
import { describe, expect, it } from "vitest";
import type { Answers, AnswerValue } from "~/a2j";
import { assembleDocument, type ReadGuideFile } from "./assemble.server";
import { blocksText, layoutTextTemplate, richTextBlocks } from "./layout";
import { overlayPdf } from "./overlay-pdf.server";
import { parseTemplate, type PdfTemplate } from "./template";
import { docx, docxText } from "./test-docx";
import { textDocumentToPdf } from "./text-pdf.server";

const GUIDES = path.resolve(import.meta.dirname, "../../db/seed/guides");

function folder(name: string): ReadGuideFile {
  return async (file) => readFile(path.join(GUIDES, name, file)).then((b) => new Uint8Array(b)).catch(() => null);
}

function answers(vars: Record<string, AnswerValue | AnswerValue[]>, types: Record<string, string> = {}): Answers {
  const out: Answers = {};
  for (const [name, v] of Object.entries(vars)) {
    const type = types[name] ?? (/ TF$/.test(name) ? "TF" : / DA$/.test(name) ? "Date" : / NU$/.test(name) ? "Number" : / MC$/.test(name) ? "MC" : "Text");
    out[name.toLowerCase()] = { name, type: type as never, repeating: Array.isArray(v), values: [null, ...(Array.isArray(v) ? v : [v])] };
  }
  return out;
}

/** The text of each page, white space collapsed. */
async function pages(pdf: Uint8Array): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: false });
  return (text as string[]).map((t) => t.replace(/\s+/g, " ").trim());
}

const reentry = {
  everything: answers({
    "User name full TE": "Zoë Ångström-Ñúñez",
    "Client first name TE": "Zoë",
    "Company name TE": "Łódź Logistics",
    "Boss name TE": "Σωκράτης Παπαδόπουλος",
    "Today DA": "3/4/2026",
    "Job start date DA": "1/15/2024",
    "Have job TF": true,
    "PAP needed TF": true,
    "Need housing info TF": true,
    "Need job info TF": false,
    "Need testing facility info TF": true,
    "Need drug testing or meetings TF": true,
  }),
  jobOnly: answers({
    "User name full TE": "Homer Simpson",
    "Client first name TE": "Homer",
    "Company name TE": "Springfield Nuclear",
    "Boss name TE": "Montgomery Burns",
    "Job start date DA": "12/1/1989",
    "Have job TF": true,
    "PAP needed TF": false,
    "Need drug testing or meetings TF": false,
  }),
  planOnly: answers({
    "User name full TE": "Иван Петров",
    "Have job TF": false,
    "PAP needed TF": true,
    "Need housing info TF": false,
    "Need job info TF": true,
    "Need testing facility info TF": false,
    "Need drug testing or meetings TF": "false",
  }),
};

describe("Re-Entry Navigator documents", () => {
  it("everything: the overlay first, then the employment letter and the plan with the sections asked for", async () => {
    const result = await assembleDocument({ title: "Re-Entry Navigator", lang: "en", answers: reentry.everything, readFile: folder("re-entry-navigator") });
    expect(result).toMatchObject({ ok: true, templates: [2, 3, 4] });
    if (!result.ok) return;
    expect(Buffer.from(result.pdf!.subarray(0, 5)).toString()).toBe("%PDF-");
    const text = await pages(result.pdf!);
    // template2.pdf is one page with the user's name in its box
    expect(text[0]).toContain("Zoë Ångström-Ñúñez");
    expect(text[0]).not.toContain("Employment Verification");
    expect(text[1]).toContain("Employment Verification");
    expect(text[1]).toContain("This certifies that Zoë Ångström-Ñúñez is currently employed at Łódź Logistics");
    expect(text[1]).toContain("since 01/15/2024");
    expect(text[1]).toContain("03/04/2026");
    expect(text[1]).toContain("Σωκράτης Παπαδόπουλος");
    const all = text.join(" ");
    expect(all).toContain("Zoë Ångström-Ñúñez's Personalized Action Plan");
    expect(all).toContain("Housing Information");
    expect(all).toContain("Drug Testing Facilities");
    expect(all).not.toContain("Make sure that you have a current resume");
    const meta = await getMeta(new Uint8Array(result.pdf!));
    expect(meta.info.Title).toBe("Re-Entry Navigator");
    expect(meta.info.Language).toBe("en");
  });

  it("a job and nothing else: only the employment letter", async () => {
    const result = await assembleDocument({ title: "Re-Entry Navigator", lang: "en", answers: reentry.jobOnly, readFile: folder("re-entry-navigator") });
    expect(result).toMatchObject({ ok: true, templates: [3] });
    if (!result.ok) return;
    const text = await pages(result.pdf!);
    // the trailing page break of the template prints no blank page
    expect(text).toHaveLength(1);
    expect(text[0]).toContain("This certifies that Homer Simpson is currently employed at Springfield Nuclear. Homer has worked at Springfield Nuclear since 12/01/1989");
    expect(text[0]).toContain("Montgomery Burns");
    expect(text[0]).not.toContain("Personalized Action Plan");
  });

  it("the plan only, with the employment section and not the others", async () => {
    const result = await assembleDocument({ title: "Re-Entry Navigator", lang: "en", answers: reentry.planOnly, readFile: folder("re-entry-navigator") });
    expect(result).toMatchObject({ ok: true, templates: [4] });
    if (!result.ok) return;
    const all = (await pages(result.pdf!)).join(" ");
    expect(all).toContain("Иван Петров's Personalized Action Plan");
    expect(all).toContain("Employment");
    expect(all).toContain("Make sure that you have a current resume");
    // a long address wraps at its slash (the extractor puts a space at the line end)
    expect(all.replace(/\/ /g, "/")).toContain("https://does.dc.gov/page/job-seeker-resources");
    expect(all).not.toContain("Housing Information");
    expect(all).not.toContain("Drug Testing Facilities");
    expect(all).not.toContain("Employment Verification");
  });

  it("no template applies: an empty result, not a blank PDF", async () => {
    const result = await assembleDocument({ title: "x", lang: "en", answers: answers({ "Have job TF": false }), readFile: folder("re-entry-navigator") });
    expect(result).toEqual({ ok: false, empty: true, reason: "no template applies to these answers" });
  });

  it("appends attachments", async () => {
    const attachment = await PDFDocument.create();
    attachment.addPage().drawText("ATTACHED PAGE");
    const bytes = await attachment.save();
    const result = await assembleDocument({ title: "x", lang: "en", answers: reentry.jobOnly, readFile: folder("re-entry-navigator"), attachments: [{ name: "a.pdf", bytes }] });
    expect(result).toMatchObject({ ok: true, attachments: 1 });
    if (result.ok) expect(await pages(result.pdf!)).toEqual([expect.stringContaining("Homer Simpson"), "ATTACHED PAGE"]);
  });

  it("delivers the rest when an attachment cannot be merged, naming it on a last page", async () => {
    const attachment = await PDFDocument.create();
    attachment.addPage().drawText("ATTACHED PAGE");
    const bytes = await attachment.save();
    const result = await assembleDocument({
      title: "x",
      lang: "en",
      answers: reentry.jobOnly,
      readFile: folder("re-entry-navigator"),
      attachments: [
        { name: "bank statement.pdf", bytes: new TextEncoder().encode("%PDF-1.4 garbage") },
        { name: "a.pdf", bytes },
        { name: "Zoë's lease.pdf", bytes: null },
      ],
    });
    if (!result.ok) throw new Error(result.reason);
    expect(result).toMatchObject({ attachments: 1, notIncluded: ["bank statement.pdf", "Zoë's lease.pdf"] });
    const text = await pages(result.pdf!);
    expect(text).toEqual([expect.stringContaining("Homer Simpson"), "ATTACHED PAGE", expect.stringContaining("These files could not be included: • bank statement.pdf • Zoë's lease.pdf")]);

    // Only attachments, none readable: the note page alone, not a failure.
    const only = await assembleDocument({ title: "x", lang: "en", answers: reentry.jobOnly, readFile: async () => null, attachments: [{ name: "b.pdf", bytes: new Uint8Array([37, 80, 68, 70]) }] });
    if (!only.ok) throw new Error(only.reason);
    expect(await pages(only.pdf!)).toEqual([expect.stringContaining("These files could not be included: • b.pdf")]);
  });

  it("a missing template file is a reason, not an exception", async () => {
    const read: ReadGuideFile = async (file) => (file === "template3.json" ? null : folder("re-entry-navigator")(file));
    expect(await assembleDocument({ title: "x", lang: "en", answers: reentry.jobOnly, readFile: read })).toMatchObject({ ok: false, reason: expect.stringContaining("template3.json is missing") });
  });
});

describe("PDF overlay", () => {
  const pdfTemplate = (boxes: unknown[], variableOptions: Record<string, unknown> = {}): PdfTemplate => {
    const t = parseTemplate({
      templateId: 9,
      rootNode: {
        tag: "a2j-pdf",
        pages: [0, 1].map(() => ({ domSize: { width: 765, height: 990 }, pdfSize: { width: 612, height: 792 } })),
        boxes,
        documentOptions: { fontSize: "12", variableOptions },
      },
    });
    if (!t.ok || t.value.kind !== "pdf") throw new Error("bad");
    return t.value;
  };
  const twoPages = async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    doc.addPage([612, 792]);
    return doc.save();
  };
  const box = (variable: string, page: number, top: number, extra: Record<string, unknown> = {}) => ({ id: variable, page, area: { top, left: 50, width: 300, height: 25 }, variable, ...extra });

  it("puts each value on its page, check marks for TF and MC, repeating values one per box", async () => {
    const t = pdfTemplate([
      box("Name TE", 1, 100),
      box("Agree TF", 0, 100),
      box("Refuse TF", 0, 150, { isInverted: true }),
      box("Colour MC", 0, 200, { variableValue: "Red" }),
      box("Colour MC", 0, 250, { variableValue: "Blue" }),
      box("Kid TE", 1, 300),
      box("Kid TE", 1, 330),
    ]);
    const a = answers({ "Name TE": "Zoë Ørsted", "Agree TF": true, "Refuse TF": false, "Colour MC": "Blue", "Kid TE": ["Bart", "Lisa"] });
    const text = await pages(await overlayPdf(t, await twoPages(), a));
    expect(text[0]).toBe("✔ ✔ ✔"); // Agree, inverted Refuse, Blue
    expect(text[1]).toContain("Zoë Ørsted");
    expect(text[1]).toContain("Bart");
    expect(text[1]).toContain("Lisa");
  });

  it("sends text that does not fit to an addendum page, or cuts it", async () => {
    const long = "word ".repeat(200).trim() + " END";
    const overflow = pdfTemplate([box("Story TE", 0, 100)], { "story te": { overflowStyle: "overflow-to-addendum", addendumLabel: "My story" } });
    const withAddendum = await pages(await overlayPdf(overflow, await twoPages(), answers({ "Story TE": long })));
    expect(withAddendum).toHaveLength(3);
    expect(withAddendum[0]).toBe("See addendum");
    expect(withAddendum[2]).toContain("Addendum My story: word word");
    expect(withAddendum[2]).toContain("END");
    const clip = pdfTemplate([box("Story TE", 0, 100)]);
    const clipped = await pages(await overlayPdf(clip, await twoPages(), answers({ "Story TE": long })));
    expect(clipped).toHaveLength(2);
    expect(clipped[0]).toMatch(/^word word/);
    expect(clipped[0]).not.toContain("END");
  });
});

describe("text layout", () => {
  const items = async (html: string) => {
    const blocks = richTextBlocks(html, { answers: {}, size: 12 });
    const pdf = await textDocumentToPdf({ title: "x", pageSize: "a4", font: "sans", size: 12, blocks, header: [], footer: [], hideHeaderOnFirstPage: false, hideFooterOnFirstPage: false }, { title: "x", lang: "en" });
    const { items } = (await extractTextItems(pdf)) as unknown as { items: { str: string; x: number; y: number; width: number }[][] };
    return items[0]!.filter((i) => i.str.trim());
  };

  it("centres and right-aligns lines of several styles without the pieces overlapping", async () => {
    const centred = await items('<p style="text-align:center">Hello there <strong>World</strong> <span style="font-size:20px">again</span></p>');
    expect(centred.map((i) => i.str)).toEqual(["Hello there", "World", "again"]);
    for (let k = 1; k < centred.length; k++) expect(centred[k]!.x).toBeGreaterThanOrEqual(centred[k - 1]!.x + centred[k - 1]!.width - 0.01);
    const left = centred[0]!.x;
    const right = centred.at(-1)!.x + centred.at(-1)!.width;
    // A4 with equal side margins: the page's middle
    expect(Math.abs((left + right) / 2 - 595.28 / 2)).toBeLessThan(1);
    expect(new Set(centred.map((i) => i.y.toFixed(1))).size).toBe(1); // one baseline
    const flushRight = await items('<p style="text-align:right">Signed by <em>Zoë</em></p>');
    expect(flushRight.at(-1)!.x + flushRight.at(-1)!.width).toBeCloseTo(595.28 - 10 * (72 / 25.4), 0);
  });
});

describe("Word templates", () => {
  const files: Record<string, Uint8Array> = {
    "templates.json": new TextEncoder().encode('{"templateIds":[1,2,3]}'),
    "template1.json": new TextEncoder().encode(JSON.stringify({ title: "Letter", rootNode: { tag: "a2j-template", children: [{ tag: "a2j-rich-text", state: { userContent: '<p>Dear <a2j-variable name="Name TE"></a2j-variable></p>' } }] } })),
    "template2.docx": docx(["Word for {Name TE}"]),
    "template3.json": new TextEncoder().encode(JSON.stringify({ title: "Never", rootNode: { tag: "a2j-docx", state: { hasConditionalLogic: true, operator: "is-true", leftOperand: "Flag TF" } } })),
    "template3.docx": docx(["never"]),
  };
  const read: ReadGuideFile = async (file) => files[file] ?? null;

  it("fills a Word template beside the PDF, and skips one whose condition fails", async () => {
    const result = await assembleDocument({ title: "x", lang: "en", answers: answers({ "Name TE": "Zoë", "Flag TF": false }), readFile: read });
    expect(result).toMatchObject({ ok: true, templates: [1, 2] });
    if (!result.ok) return;
    expect(await pages(result.pdf!)).toEqual(["Dear Zoë"]);
    expect(result.word.map((w) => [w.templateId, docxText(w.bytes)])).toEqual([[2, ["Word for Zoë"]]]);
    const flagged = await assembleDocument({ title: "x", lang: "en", answers: answers({ "Name TE": "Zoë", "Flag TF": true }), readFile: read });
    expect(flagged).toMatchObject({ ok: true, templates: [1, 2, 3] });
  });

  it("Word alone gives no PDF; a broken Word template is a reason", async () => {
    const only: ReadGuideFile = async (file) => (file === "templates.json" ? new TextEncoder().encode('{"templateIds":[2]}') : read(file));
    expect(await assembleDocument({ title: "x", lang: "en", answers: {}, readFile: only })).toMatchObject({ ok: true, pdf: null, word: [{ templateId: 2 }] });
    const broken: ReadGuideFile = async (file) => (file === "template2.docx" ? docx(["{#Open"]) : only(file));
    expect(await assembleDocument({ title: "x", lang: "en", answers: {}, readFile: broken })).toMatchObject({ ok: false, reason: expect.stringContaining("template2.docx") });
  });
});

describe("our guides' templates", () => {
  it("letter of demand: the business branch and its loop table", async () => {
    const a = answers({
      "User full name TE": "Tan Wei Ling",
      "User address TE": "1 Orchard Road",
      "User email TE": "wei@example.test",
      "Letter date DA": "11/2/2026",
      "Debtor type MC": "Business",
      "Debtor name TE": "Acme Pte Ltd",
      "Has UEN TF": true,
      "Debtor UEN TE": "201912345K",
      "Debtor address TE": "2 Shenton Way",
      "Has contact TF": false,
      "Debtor contact TE": "Mr Nobody",
      "Item count NU": 3,
      "Item description TE": ["Unpaid salary for March", "Loan of 1 May", "Electricity bill"],
      "Item amount TE": ["S$2,000.00", "S$500.00", "S$80.25"],
      "Item due date DA": ["3/31/2026", "6/1/2026", "7/15/2026"],
      "Total owed TE": "2,580.25",
      "Pay by DA": "12/1/2026",
    });
    const result = await assembleDocument({ title: "Letter of demand", lang: "en", answers: a, readFile: folder("letter-of-demand") });
    expect(result).toMatchObject({ ok: true, templates: [1] });
    if (!result.ok) return;
    const all = (await pages(result.pdf!)).join(" ");
    for (const expected of ["Tan Wei Ling", "Acme Pte Ltd", "UEN: 201912345K", "Amounts owed", "What it is for", "Unpaid salary for March", "S$2,000.00", "03/31/2026", "Electricity bill", "S$80.25", "07/15/2026", "Letter of demand: prepared with a sample interview"]) {
      expect(all).toContain(expected);
    }
    expect(all).not.toContain("Mr Nobody");
  });

  it("a 200-row loop table runs over pages with its header repeated", async () => {
    const t = parseTemplate(await readFile(path.join(GUIDES, "letter-of-demand/template1.json"), "utf8"));
    if (!t.ok || t.value.kind !== "text") throw new Error("bad");
    const n = 200;
    const a = answers({
      "Item count NU": n,
      "Item description TE": Array.from({ length: n }, (_, i) => `Item number ${i + 1}`),
      "Item amount TE": Array.from({ length: n }, () => "S$1.00"),
      "Item due date DA": Array.from({ length: n }, () => "1/1/2026"),
    });
    const doc = layoutTextTemplate(t.value, a);
    expect(blocksText(doc.blocks)).toContain("Item number 200");
    const text = await pages(await textDocumentToPdf(doc, { title: "x", lang: "en" }));
    expect(text.length).toBeGreaterThan(3);
    expect(text.at(-2)! + text.at(-1)!).toContain("Item number 200");
    expect(text.filter((p) => p.includes("What it is for")).length).toBeGreaterThan(2);
    // the footer is on every page
    expect(text.every((p) => p.includes("Letter of demand: prepared with a sample interview"))).toBe(true);
  });

  it.each(["case-summary", "tenancy-deposit"])("%s assembles with no answers at all", async (guide) => {
    const result = await assembleDocument({ title: guide, lang: "en", answers: {}, readFile: folder(guide) });
    expect(result).toMatchObject({ ok: true });
  });
});
