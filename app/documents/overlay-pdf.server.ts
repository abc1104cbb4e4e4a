/**
 * PDF overlay templates (`a2j-pdf`, docs/a2j-formats.md) with pdf-lib: the answers are written into the template
 * PDF's boxes. Box coordinates are the editor's pixels, scaled by pdfSize/domSize. By variable type:
 * Text/Number/Date → text in the box (several boxes of one variable → the text flows from box to box); a
 * repeating variable → one value per box, in order; TF → a check mark when true (isInverted flips it);
 * MC → text, or a check mark on the box whose variableValue is the answer. Text that does not fit is cut
 * ("clip-overflow"), or with "overflow-to-addendum" replaced by "See addendum" and printed in full on an
 * addendum page after the template's pages, as A2J does.
 */
import * as fontkit from "fontkit";
import { PDFArray, PDFDict, PDFDocument, type PDFFont, PDFName, PDFNumber, PDFOperator, PDFOperatorNames, type PDFPage, PDFRef, StandardFonts, rgb } from "@cantoo/pdf-lib";
import type { AnswerValue, Answers, DateLocale } from "~/a2j";
import { fontBytes } from "./fonts.server";
import type { PdfBox, PdfTemplate } from "./template";
import { formatValue, variableText } from "./values";

const CHECK = "✔";
const SEE_ADDENDUM = "See addendum";

function lookup(answers: Answers, name: string) {
  const key = name.trim().toLowerCase();
  return Object.hasOwn(answers, key) ? answers[key] : undefined;
}

function isTrue(v: AnswerValue | undefined): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false;
  return !(typeof v === "string" && v.trim().toLowerCase() === "false");
}

/** Words wrapped into lines no wider than `width` (a word longer than a line is cut by characters). */
export function wrap(text: string, width: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = "";
      let rest = word;
      while (measure(rest) > width && rest.length > 1) {
        let n = rest.length - 1;
        while (n > 1 && measure(rest.slice(0, n)) > width) n--;
        lines.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      line = rest;
    }
    lines.push(line);
  }
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

interface Placed {
  page: PDFPage;
  x: number;
  y: number; // bottom
  width: number;
  height: number;
}

function place(doc: PDFDocument, template: PdfTemplate, box: PdfBox): Placed | null {
  const page = doc.getPages()[box.page];
  if (!page) return null;
  const { width: pw, height: ph } = page.getSize();
  const sizes = template.pages[box.page];
  const sx = sizes && sizes.domSize.width > 0 ? (sizes.pdfSize.width || pw) / sizes.domSize.width : 1;
  const sy = sizes && sizes.domSize.height > 0 ? (sizes.pdfSize.height || ph) / sizes.domSize.height : 1;
  const height = box.area.height * sy;
  return { page, x: box.area.left * sx, y: ph - box.area.top * sy - height, width: box.area.width * sx, height };
}

function drawCheck(font: PDFFont, at: Placed) {
  const size = Math.max(6, Math.min(at.height, at.width) * 0.85);
  const w = font.widthOfTextAtSize(CHECK, size);
  at.page.drawText(CHECK, { x: at.x + (at.width - w) / 2, y: at.y + (at.height - size * 0.75) / 2, size, font, color: rgb(0, 0, 0) });
}

/** Lines of text into a box, from its top, at `size`. Returns how many lines it took. */
function drawLines(font: PDFFont, at: Placed, lines: string[], size: number) {
  const leading = size * 1.15;
  const capacity = Math.max(1, Math.floor(at.height / leading));
  const shown = lines.slice(0, capacity);
  // A single line sits in the middle of its box; several start at the top.
  const top = shown.length === 1 ? at.y + (at.height + size * 0.7) / 2 : at.y + at.height - size;
  shown.forEach((line, i) => at.page.drawText(line, { x: at.x + 2, y: top - i * leading, size, font, color: rgb(0, 0, 0) }));
  return shown.length;
}

function fitsIn(font: PDFFont, boxes: Placed[], text: string, size: number) {
  let lines = wrap(text, Math.max(1, (boxes[0]?.width ?? 0) - 4), (s) => font.widthOfTextAtSize(s, size));
  for (const at of boxes) {
    const capacity = Math.max(1, Math.floor(at.height / (size * 1.15)));
    lines = lines.slice(capacity);
  }
  return lines.length === 0;
}

/** Fills a text value into a variable's boxes, in order; returns false when it did not fit. */
function drawText(font: PDFFont, boxes: Placed[], text: string, size: number): boolean {
  let rest = text;
  for (const at of boxes) {
    if (!rest) break;
    const lines = wrap(rest, Math.max(1, at.width - 4), (s) => font.widthOfTextAtSize(s, size));
    const used = drawLines(font, at, lines, size);
    rest = lines.slice(used).join(" ");
  }
  return rest === "";
}

/** Text the standard Helvetica prints (WinAnsi): no font to embed. */
const WIN_ANSI = /^[\x20-\x7e\xa0-\xff\n\r\t\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]*$/;

/**
 * Helvetica when every value is WinAnsi text and nothing is checked (nothing to embed, the usual case);
 * otherwise DejaVu Sans, embedded as a subset, for accented and non-Latin text and the check mark.
 */
async function overlayFont(doc: PDFDocument, template: PdfTemplate, answers: Answers): Promise<PDFFont> {
  const plain = template.boxes.every((box) => {
    const v = lookup(answers, box.variable);
    if (!v) return true;
    if (v.type === "TF" || v.type === "MC") return false;
    return v.values.every((x) => x === null || x === undefined || WIN_ANSI.test(String(x)));
  });
  return plain ? doc.embedFont(StandardFonts.Helvetica) : doc.embedFont(fontBytes("sans", "regular"), { subset: true });
}

/** The template PDF with the answers written in. */
export async function overlayPdf(template: PdfTemplate, pdf: Uint8Array, answers: Answers, dates?: DateLocale): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  doc.registerFontkit(fontkit);
  const font = await overlayFont(doc, template, answers);
  const size = Math.min(24, Math.max(6, template.fontSize || 12));

  const byVariable = new Map<string, PdfBox[]>();
  for (const box of template.boxes) {
    const key = box.variable.toLowerCase();
    byVariable.set(key, [...(byVariable.get(key) ?? []), box]);
  }
  const addendum: { label: string; text: string }[] = [];

  for (const [key, boxes] of byVariable) {
    const v = lookup(answers, key);
    const options = Object.hasOwn(template.variableOptions, key) ? template.variableOptions[key] : undefined;
    const type = v?.type ?? "Text";
    const raw = v?.values[1] ?? null;
    if (type === "TF") {
      for (const box of boxes) {
        const at = place(doc, template, box);
        if (at && isTrue(raw) !== box.isInverted) drawCheck(font, at);
      }
      continue;
    }
    if (type === "MC" && (options?.isCheck || boxes.some((b) => b.variableValue !== null && b.variableValue !== ""))) {
      for (const box of boxes) {
        const at = place(doc, template, box);
        const match = raw !== null && String(raw) === (box.variableValue ?? "");
        if (at && match !== box.isInverted) drawCheck(font, at);
      }
      continue;
    }
    if (v?.repeating) {
      // A table column: one value per box, in order.
      boxes.forEach((box, i) => {
        const at = place(doc, template, box);
        const value = v.values[i + 1];
        if (at && value !== null && value !== undefined && value !== "") drawText(font, [at], formatValue(v.type, value, dates), size);
      });
      continue;
    }
    const text = v ? (variableText(answers, key, undefined, dates) ?? "") : "";
    if (!text) continue;
    const placed = boxes.map((box) => place(doc, template, box)).filter((p): p is Placed => p !== null);
    if (!placed.length) continue;
    if (options?.overflowStyle === "overflow-to-addendum" && !fitsIn(font, placed, text, size)) {
      drawText(font, placed.slice(0, 1), SEE_ADDENDUM, size);
      addendum.push({ label: options.addendumLabel || v?.name || key, text });
      continue;
    }
    drawText(font, placed, text, size);
  }

  if (addendum.length) writeAddendum(doc, font, addendum, size);
  tagOverlay(doc);
  return doc.save();
}

/**
 * When the template PDF is tagged, what we wrote on each page (its values, check marks, the addendum) becomes
 * one paragraph of the structure, after the form's own elements: otherwise assistive technology, which reads
 * only tagged content of a tagged PDF, would skip the person's answers. An untagged template stays untagged;
 * a tree whose parent tree is not a flat number list is left as it is.
 */
function tagOverlay(doc: PDFDocument) {
  const N = (name: string) => PDFName.of(name);
  const root = doc.catalog.lookup(N("StructTreeRoot"));
  if (!(root instanceof PDFDict)) return;
  const parentTree = root.lookup(N("ParentTree"));
  const nums = parentTree instanceof PDFDict ? parentTree.lookup(N("Nums")) : undefined;
  if (!(nums instanceof PDFArray) || (parentTree as PDFDict).has(N("Kids"))) return;
  // The answers go into the form's top element (its Document), or the root itself.
  const k = root.get(N("K"));
  const topRef = k instanceof PDFArray ? k.get(0) : k;
  const top = topRef instanceof PDFRef ? doc.context.lookup(topRef) : undefined;
  const parentRef = top instanceof PDFDict && topRef instanceof PDFRef ? topRef : null;
  const parent = parentRef ? (top as PDFDict) : root;
  const nextKey = root.lookup(N("ParentTreeNextKey"));
  let next = nextKey instanceof PDFNumber ? nextKey.asNumber() : 0;
  const entry = (key: number): PDFArray | null => {
    for (let i = 0; i + 1 < nums.size(); i += 2) {
      const n = nums.lookup(i);
      if (n instanceof PDFNumber && n.asNumber() === key) {
        const value = nums.lookup(i + 1);
        return value instanceof PDFArray ? value : null;
      }
      if (n instanceof PDFNumber) next = Math.max(next, n.asNumber() + 1);
    }
    return null;
  };
  for (const page of doc.getPages()) {
    const stream = (page as unknown as { contentStream?: { operators: PDFOperator[] } }).contentStream;
    if (!stream?.operators.length) continue;
    const key = page.node.lookup(N("StructParents"));
    let marks = key instanceof PDFNumber ? entry(key.asNumber()) : null;
    if (!marks) {
      if (key instanceof PDFNumber) continue; // a key whose entry is not an array: leave the page alone
      entry(-1); // moves `next` past every key in use
      marks = doc.context.obj([]);
      page.node.set(N("StructParents"), PDFNumber.of(next));
      nums.push(PDFNumber.of(next));
      nums.push(marks);
      next++;
    }
    const mcid = marks.size();
    const element = doc.context.register(doc.context.obj({ Type: "StructElem", S: "P", P: parentRef ?? doc.catalog.get(N("StructTreeRoot")), Pg: page.ref, K: mcid }));
    marks.push(element);
    const kids = parent.get(N("K"));
    if (kids instanceof PDFArray) kids.push(element);
    else parent.set(N("K"), doc.context.obj(kids ? [kids, element] : [element]));
    // pdf-lib's operand type has no dictionary, but a BDC's property list is one, and it is written as one.
    stream.operators.unshift(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [N("P"), doc.context.obj({ MCID: mcid }) as unknown as PDFName]));
    stream.operators.push(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  }
  root.set(N("ParentTreeNextKey"), PDFNumber.of(next));
}

function writeAddendum(doc: PDFDocument, font: PDFFont, entries: { label: string; text: string }[], size: number) {
  const first = doc.getPages()[0];
  const [width, height] = first ? [first.getWidth(), first.getHeight()] : [612, 792];
  const margin = 72;
  const leading = size * 1.3;
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const line = (text: string, s: number) => {
    if (y < margin) {
      page = doc.addPage([width, height]);
      y = height - margin;
    }
    page.drawText(text, { x: margin, y, size: s, font, color: rgb(0, 0, 0) });
    y -= s * 1.3;
  };
  line("Addendum", size * 1.4);
  y -= leading / 2;
  for (const entry of entries) {
    line(`${entry.label}:`, size);
    for (const l of wrap(entry.text, width - 2 * margin, (s) => font.widthOfTextAtSize(s, size))) line(l, size);
    y -= leading / 2;
  }
}
