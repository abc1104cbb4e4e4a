// Signatures in their places in the three kinds of template (issue 30), read back from the files made:
// pdftotext for PDFs, the XML for Word.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } from "@cantoo/pdf-lib";
import { strFromU8, unzipSync, zipSync } from "fflate";
import mammoth from "mammoth";
import { describe, expect, it } from "vitest";
import type { Answers } from "~/a2j";
import { assembleDocument, type ReadGuideFile } from "./assemble.server";
import { overlayPdf } from "./overlay-pdf.server";
import { type PlacedSignature, SIGNATURE_LINE, signatureFills, signatureMarkers } from "./signatures";
import { parseTemplate } from "./template";
import { docx } from "./test-docx";
import { signaturePng } from "./test-png";
import { fillWordTemplate } from "./word.server";

const dir = mkdtempSync(path.join(tmpdir(), "signatures-"));
/** The text pdftotext reads, white space collapsed. */
function pdftotext(pdf: Uint8Array): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"]).toString().replace(/\s+/g, " ").trim();
}

/** How many images the PDF's pages draw. */
async function images(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf);
  let n = 0;
  for (const page of doc.getPages()) {
    const xobjects = page.node.Resources()?.lookup(PDFName.of("XObject"));
    if (!(xobjects instanceof PDFDict)) continue;
    for (const key of xobjects.keys()) {
      const x = xobjects.lookup(key);
      if (x instanceof PDFRawStream && x.dict.get(PDFName.of("Subtype")) === PDFName.of("Image")) n++;
    }
  }
  return n;
}

/** The alternative texts of the PDF's Figure structure elements. */
async function figures(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const out: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.get(PDFName.of("S")) === PDFName.of("Figure")) {
      const alt = object.lookup(PDFName.of("Alt"));
      out.push(alt instanceof PDFString || alt instanceof PDFHexString ? alt.decodeText() : "");
    }
  }
  return out;
}

const guide = (name: string): ReadGuideFile => async (file) => readFileSync(path.resolve("db/seed/guides", name, file), { encoding: null }) as unknown as Uint8Array;
const text = (name: string, value: string, type: "Text" | "MC" | "TF" | "Number" = "Text"): Answers => ({ [name.toLowerCase()]: { name, type, repeating: false, values: [null, value] } });
const letter: Answers = { ...text("User full name TE", "Ada Lovelace"), ...text("Debtor type MC", "Person", "MC"), ...text("Debtor name TE", "Charles Babbage"), ...text("Amount owed TE", "$250.00") };
const markers = signatureMarkers({
  vars: Object.fromEntries(["User signature", "User signature date", "Other parent signature", "Other parent signature date"].map((name) => [name.toLowerCase(), { name, type: "Text" as const, repeating: false, comment: "" }])),
});
const day = () => "27 November 2026";
const at = new Date("2026-11-27T03:00:00Z");
const typed: PlacedSignature = { variable: "User signature", name: "Ada Lovelace", email: "ada@example.org", method: "typed", signedAt: at };
const drawn: PlacedSignature = { variable: "Other parent signature", name: "Charles Babbage", email: "cb@example.org", method: "drawn", image: signaturePng(), signedAt: at };

describe("signatures in a DAT text template (the letter of demand)", () => {
  const demand = signatureMarkers(JSON.parse(readFileSync("db/seed/guides/letter-of-demand/Guide.json", "utf8")) as never);

  it("unsigned: a line to sign on and a line for the date, nothing wrong", async () => {
    const made = await assembleDocument({ title: "Letter", lang: "en", answers: letter, readFile: guide("letter-of-demand"), signatures: signatureFills(demand, [], day) });
    if (!made.ok || !made.pdf) throw new Error(made.ok ? "no pdf" : made.reason);
    expect(pdftotext(made.pdf)).toContain(`Yours faithfully, ${SIGNATURE_LINE} Ada Lovelace Date signed: ${SIGNATURE_LINE}`);
    expect(await images(made.pdf)).toBe(0);
  });

  it("typed: /s/ Full Name, the words under it, the date in its place", async () => {
    const made = await assembleDocument({ title: "Letter", lang: "en", answers: letter, readFile: guide("letter-of-demand"), signatures: signatureFills(demand, [typed], day) });
    if (!made.ok || !made.pdf) throw new Error(made.ok ? "no pdf" : made.reason);
    expect(pdftotext(made.pdf)).toContain("Yours faithfully, /s/ Ada Lovelace Signed electronically by Ada Lovelace on 27 November 2026 Ada Lovelace Date signed: 27 November 2026");
  });

  it("drawn: the PNG as an image (a figure with its alternative text), the words under it", async () => {
    const made = await assembleDocument({ title: "Letter", lang: "en", answers: letter, readFile: guide("letter-of-demand"), signatures: signatureFills(demand, [{ ...drawn, variable: "User signature", name: "Ada Lovelace" }], day) });
    if (!made.ok || !made.pdf) throw new Error(made.ok ? "no pdf" : made.reason);
    expect(pdftotext(made.pdf)).toContain("Yours faithfully, Signed electronically by Ada Lovelace on 27 November 2026 Ada Lovelace Date signed: 27 November 2026");
    expect(await images(made.pdf)).toBe(1);
    expect(await figures(made.pdf)).toEqual(["Signature of Ada Lovelace"]);
  });
});

describe("signatures in an overlay PDF template", () => {
  const template = (() => {
    const t = parseTemplate({
      templateId: 2,
      rootNode: {
        tag: "a2j-pdf",
        pages: [{ domSize: { width: 612, height: 792 }, pdfSize: { width: 612, height: 792 } }],
        boxes: [
          { id: "a", page: 0, area: { top: 100, left: 50, width: 400, height: 40 }, variable: "User signature" },
          { id: "b", page: 0, area: { top: 150, left: 50, width: 200, height: 20 }, variable: "User signature date" },
          { id: "c", page: 0, area: { top: 200, left: 50, width: 200, height: 60 }, variable: "Other parent signature" },
          { id: "d", page: 0, area: { top: 300, left: 50, width: 200, height: 20 }, variable: "Other parent signature date" },
        ],
        documentOptions: { fontSize: "10", variableOptions: {} },
      },
    });
    if (!t.ok || t.value.kind !== "pdf") throw new Error("bad template");
    return t.value;
  })();
  const blank = async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    return doc.save();
  };

  it("typed in its box with the words, drawn as the image fitted to its box, the dates in theirs; unsigned boxes stay empty", async () => {
    const signed = await overlayPdf(template, await blank(), {}, undefined, "en", signatureFills(markers, [typed, drawn], day));
    expect(pdftotext(signed)).toBe("/s/ Ada Lovelace Signed electronically by Ada Lovelace on 27 November 2026 27 November 2026 27 November 2026");
    expect(await images(signed)).toBe(1);
    const unsigned = await overlayPdf(template, await blank(), {}, undefined, "en", signatureFills(markers, [], day));
    expect(pdftotext(unsigned)).toBe("");
  });
});

describe("signatures in a Word template", () => {
  const template = docx(["Signed: {User signature}", "Date: {User signature date}", "{Other parent signature}", "On {Other parent signature date}"]);
  const xml = (bytes: Uint8Array) => strFromU8(unzipSync(bytes)["word/document.xml"]!);

  it("unsigned: lines to sign on", () => {
    const filled = fillWordTemplate(template, {}, undefined, "en", signatureFills(markers, [], day));
    if (!filled.ok) throw new Error(filled.error);
    const body = xml(filled.bytes);
    expect(body).toContain(`Signed: ${SIGNATURE_LINE}`);
    expect(body).toContain(`Date: ${SIGNATURE_LINE}`);
  });

  it("typed on two lines; drawn as an inline picture in the package, with the words under it", () => {
    const filled = fillWordTemplate(template, {}, undefined, "en", signatureFills(markers, [typed, drawn], day));
    if (!filled.ok) throw new Error(filled.error);
    const files = unzipSync(filled.bytes);
    const body = strFromU8(files["word/document.xml"]!);
    expect(body).toContain('Signed: /s/ Ada Lovelace</w:t></w:r><w:r><w:br/></w:r><w:r><w:t xml:space="preserve">Signed electronically by Ada Lovelace on 27 November 2026');
    expect(body).toContain("Date: 27 November 2026");
    expect(body).toMatch(/<w:drawing><wp:inline [^>]*><wp:extent cx="\d+" cy="685800"\/><wp:docPr id="\d+" name="Signature 1" descr="Signature of Charles Babbage"\/>/);
    expect(body).toContain('<a:blip r:embed="rIdSignature1"/>');
    expect(body).toContain('</a:graphic></wp:inline></w:drawing><w:br/><w:t xml:space="preserve">Signed electronically by Charles Babbage on 27 November 2026</w:t></w:r>');
    expect(body).toMatch(/<w:document [^>]*xmlns:wp="[^"]+"[^>]*xmlns:a="[^"]+"[^>]*xmlns:pic="[^"]+"[^>]*xmlns:r="[^"]+"/);
    expect(body).not.toContain("SIGNATUREPICTURE");
    expect(Buffer.from(files["word/media/signature1.png"]!)).toEqual(Buffer.from(drawn.image!));
    expect(strFromU8(files["word/_rels/document.xml.rels"]!)).toContain('Id="rIdSignature1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/signature1.png"');
    expect(strFromU8(files["[Content_Types].xml"]!)).toContain('<Default Extension="png" ContentType="image/png"/>');
  });

  it("in a header (which has relationships of its own) a drawn signature is its words, not a picture", () => {
    const files = unzipSync(docx(["{Other parent signature}"]));
    files["word/header1.xml"] = new TextEncoder().encode(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p><w:r><w:t xml:space="preserve">Signed by {Other parent signature}</w:t></w:r></w:p></w:hdr>',
    );
    files["[Content_Types].xml"] = new TextEncoder().encode(
      strFromU8(files["[Content_Types].xml"]!).replace("</Types>", '<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/></Types>'),
    );
    const filled = fillWordTemplate(zipSync(files), {}, undefined, "en", signatureFills(markers, [drawn], day));
    if (!filled.ok) throw new Error(filled.error);
    const out = unzipSync(filled.bytes);
    const header = strFromU8(out["word/header1.xml"]!);
    expect(header).toContain('Signed by Signature of Charles Babbage</w:t><w:br/><w:t xml:space="preserve">Signed electronically by Charles Babbage on 27 November 2026</w:t>');
    expect(header).not.toContain("SIGNATUREPICTURE");
    expect(strFromU8(out["word/document.xml"]!)).toContain('r:embed="rIdSignature1"');
  });

  it("the signed Word file reads back whole: mammoth finds the picture with its alternative text", async () => {
    const filled = fillWordTemplate(template, {}, undefined, "en", signatureFills(markers, [typed, drawn], day));
    if (!filled.ok) throw new Error(filled.error);
    const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(filled.bytes) });
    expect(html).toMatch(/<img alt="Signature of Charles Babbage" src="data:image\/png;base64,/);
    expect(html).toContain("Signed: /s/ Ada Lovelace<br />Signed electronically by Ada Lovelace on 27 November 2026");
  });
});
