/**
 * PDF overlay templates (`a2j-pdf`, docs/a2j-formats.md) with pdf-lib: the answers are written into the template
 * PDF's boxes. Box coordinates are the editor's pixels, scaled by pdfSize/domSize. By variable type:
 * Text/Number/Date → text in the box (several boxes of one variable → the text flows from box to box); a
 * repeating variable → one value per box, in order; TF → a check mark when true (isInverted flips it);
 * MC → text, or a check mark on the box whose variableValue is the answer. Text that does not fit is cut
 * ("clip-overflow"), or with "overflow-to-addendum" replaced by "See addendum" and printed in full on an
 * addendum page after the template's pages, as A2J does.
 *
 * Text in other scripts (decision 0046): Tamil, Arabic and Chinese go to their Noto fonts (embedded, subset,
 * only when a value needs them), a script's words drawn whole so that fontkit (pdf-lib's shaper) joins and
 * reorders them; each line is put in visual order by the Unicode Bidirectional Algorithm, and a right-to-left
 * line starts at the box's right. Tamil words carry /ActualText (their vowel signs are drawn first).
 */
import * as fontkit from "fontkit";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  PDFRef,
  StandardFonts,
  beginText,
  endMarkedContent,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from "@cantoo/pdf-lib";
import type { AnswerValue, Answers, DateLocale } from "~/a2j";
import { SCRIPT_FONTS, fontBytes, scriptCoverage, scriptFontBytes } from "./fonts.server";
import { hasRightToLeft, needsActualText, paragraphLevels, type ScriptFont, scriptFontOf, shapedRightToLeft, textForShaping, visualOrder } from "./scripts";
import { fillOf, type SignatureFill, type SignatureFills } from "./signatures";
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

/** The overlay's fonts: Helvetica or DejaVu Sans, and the script fonts its values need. */
interface OverlayFonts {
  main: PDFFont;
  scripts: Partial<Record<ScriptFont, PDFFont>>;
}

/** Text cut by the font that draws it (spaces stay with the text before them, so a script's words stay whole). */
function overlayPieces(fonts: OverlayFonts, text: string): { text: string; font: PDFFont }[] {
  const pieces: { text: string; font: PDFFont }[] = [];
  let font = fonts.main;
  let current = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    let next = font;
    if (!/\s/.test(ch)) {
      const script = scriptFontOf(cp);
      const scriptFont = script ? fonts.scripts[script] : undefined;
      next = script && scriptFont && scriptCoverage(script, "regular").has(cp) ? scriptFont : fonts.main;
    }
    if (current && next !== font) {
      pieces.push({ text: current, font });
      current = "";
    }
    font = next;
    current += ch;
  }
  if (current) pieces.push({ text: current, font });
  return pieces;
}

/** The width of text at a size, each piece in its font. */
function measure(fonts: OverlayFonts, text: string, size: number): number {
  return overlayPieces(fonts, text).reduce((sum, p) => sum + p.font.widthOfTextAtSize(p.text, size), 0);
}

/** Text drawn in a marked-content span inside its text object, with /ActualText (see text-pdf.server.ts). */
function drawWithActualText(page: PDFPage, font: PDFFont, text: string, actual: string, x: number, y: number, size: number) {
  const key = page.node.newFontDictionary(font.name, font.ref);
  let hex = "FEFF";
  for (let i = 0; i < actual.length; i++) hex += actual.charCodeAt(i).toString(16).padStart(4, "0");
  page.pushOperators(
    pushGraphicsState(),
    setFillingRgbColor(0, 0, 0),
    beginText(),
    // pdf-lib's operand type has no dictionary, but a BDC's property list is one, and it is written as one.
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of("Span"), page.doc.context.obj({ ActualText: PDFHexString.of(hex) }) as unknown as PDFName]),
    setFontAndSize(key, size),
    setTextMatrix(1, 0, 0, 1, x, y),
    showText(font.encodeText(text)),
    endMarkedContent(),
    endText(),
    popGraphicsState(),
  );
}

/**
 * One line of text from `x` (or, when it runs right to left, ending at `right`), in visual order: the line's
 * words and spaces by bidi level, reordered (UAX #9, L2); each word shaped by its font.
 */
function drawLine(page: PDFPage, fonts: OverlayFonts, line: string, x: number, right: number, y: number, size: number, lang: string | undefined) {
  if (fonts.main.name === StandardFonts.Helvetica || (!hasRightToLeft(line) && !Object.keys(fonts.scripts).length)) {
    page.drawText(line, { x, y, size, font: fonts.main, color: rgb(0, 0, 0) });
    return;
  }
  const { levels, base } = paragraphLevels(line, lang);
  const tokens: { text: string; font: PDFFont; level: number; space: boolean; width: number }[] = [];
  let offset = 0;
  for (const piece of overlayPieces(fonts, line)) {
    let current = "";
    let level = 0;
    let space = false;
    const push = () => {
      if (current) tokens.push({ text: current, font: piece.font, level, space, width: piece.font.widthOfTextAtSize(current, size) });
      current = "";
    };
    for (const ch of piece.text) {
      const l = levels[offset] ?? base;
      const s = ch === " ";
      if (current && (l !== level || s !== space)) push();
      level = l;
      space = s;
      current += ch;
      offset += ch.length;
    }
    push();
  }
  const visual = visualOrder(tokens);
  const total = visual.reduce((sum, t) => sum + t.width, 0);
  let at = base === 1 ? Math.max(x, right - total) : x;
  for (const token of visual) {
    if (!token.space) {
      const shaped = textForShaping(token.text, token.level);
      const mirrored = token.level % 2 === 1 && !shapedRightToLeft(token.text) && shaped !== token.text;
      if (needsActualText(token.text) || mirrored) drawWithActualText(page, token.font, shaped, token.text, at, y, size);
      else page.drawText(shaped, { x: at, y, size, font: token.font, color: rgb(0, 0, 0) });
    }
    at += token.width;
  }
}

function drawCheck(fonts: OverlayFonts, at: Placed) {
  const font = fonts.main;
  const size = Math.max(6, Math.min(at.height, at.width) * 0.85);
  const w = font.widthOfTextAtSize(CHECK, size);
  at.page.drawText(CHECK, { x: at.x + (at.width - w) / 2, y: at.y + (at.height - size * 0.75) / 2, size, font, color: rgb(0, 0, 0) });
}

/** Lines of text into a box, from its top, at `size`. Returns how many lines it took. */
function drawLines(fonts: OverlayFonts, at: Placed, lines: string[], size: number, lang: string | undefined) {
  const leading = size * 1.15;
  const capacity = Math.max(1, Math.floor(at.height / leading));
  const shown = lines.slice(0, capacity);
  // A single line sits in the middle of its box; several start at the top.
  const top = shown.length === 1 ? at.y + (at.height + size * 0.7) / 2 : at.y + at.height - size;
  shown.forEach((line, i) => drawLine(at.page, fonts, line, at.x + 2, at.x + at.width - 2, top - i * leading, size, lang));
  return shown.length;
}

function fitsIn(fonts: OverlayFonts, boxes: Placed[], text: string, size: number) {
  let lines = wrap(text, Math.max(1, (boxes[0]?.width ?? 0) - 4), (s) => measure(fonts, s, size));
  for (const at of boxes) {
    const capacity = Math.max(1, Math.floor(at.height / (size * 1.15)));
    lines = lines.slice(capacity);
  }
  return lines.length === 0;
}

/** Fills a text value into a variable's boxes, in order; returns false when it did not fit. */
function drawText(fonts: OverlayFonts, boxes: Placed[], text: string, size: number, lang: string | undefined): boolean {
  let rest = text;
  for (const at of boxes) {
    if (!rest) break;
    const lines = wrap(rest, Math.max(1, at.width - 4), (s) => measure(fonts, s, size));
    const used = drawLines(fonts, at, lines, size, lang);
    rest = lines.slice(used).join(" ");
  }
  return rest === "";
}

/** Text the standard Helvetica prints (WinAnsi): no font to embed. */
const WIN_ANSI = /^[\x20-\x7e\xa0-\xff\n\r\t\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]*$/;

/** Every text the overlay may write: each value as printed (a date in the guide's language may be in its script). */
function overlayTexts(template: PdfTemplate, answers: Answers, dates: DateLocale | undefined, fills?: SignatureFills): string[] {
  const texts: string[] = [SEE_ADDENDUM];
  for (const fill of fills?.values() ?? []) {
    if (fill.kind === "typed") texts.push(fill.signature, fill.caption);
    else if (fill.kind === "date") texts.push(fill.text);
  }
  for (const box of template.boxes) {
    const v = lookup(answers, box.variable);
    if (!v) continue;
    // A value printed whole (`variableText`) is these joined with WinAnsi words ("a, b and c").
    for (const x of v.values) if (x !== null && x !== undefined && x !== "") texts.push(formatValue(v.type, x, dates));
  }
  return texts;
}

/**
 * Helvetica when every value is WinAnsi text and nothing is checked (nothing to embed, the usual case);
 * otherwise DejaVu Sans, embedded as a subset, for accented and non-Latin text and the check mark, with the
 * Noto font of each script (Tamil, Arabic, Chinese) a value is written in.
 */
async function overlayFonts(doc: PDFDocument, template: PdfTemplate, answers: Answers, dates: DateLocale | undefined, fills?: SignatureFills): Promise<OverlayFonts> {
  const texts = overlayTexts(template, answers, dates, fills);
  const checks = template.boxes.some((box) => {
    const type = lookup(answers, box.variable)?.type;
    return type === "TF" || type === "MC";
  });
  if (!checks && texts.every((t) => WIN_ANSI.test(t))) return { main: await doc.embedFont(StandardFonts.Helvetica), scripts: {} };
  const main = await doc.embedFont(fontBytes("sans", "regular"), { subset: true });
  const scripts: OverlayFonts["scripts"] = {};
  const needed = new Set<ScriptFont>();
  for (const text of texts) {
    for (const ch of text) {
      const script = scriptFontOf(ch.codePointAt(0)!);
      if (script) needed.add(script);
    }
  }
  for (const script of SCRIPT_FONTS) if (needed.has(script)) scripts[script] = await doc.embedFont(scriptFontBytes(script, "regular"), { subset: true });
  return { main, scripts };
}

/** The template PDF with the answers written in. */
export async function overlayPdf(template: PdfTemplate, pdf: Uint8Array, answers: Answers, dates?: DateLocale, lang: string | undefined = dates?.language, fills?: SignatureFills): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  doc.registerFontkit(fontkit);
  const font = await overlayFonts(doc, template, answers, dates, fills);
  const size = Math.min(24, Math.max(6, template.fontSize || 12));

  const byVariable = new Map<string, PdfBox[]>();
  for (const box of template.boxes) {
    const key = box.variable.toLowerCase();
    byVariable.set(key, [...(byVariable.get(key) ?? []), box]);
  }
  const addendum: { label: string; text: string }[] = [];

  for (const [key, boxes] of byVariable) {
    const fill = fillOf(fills, key);
    if (fill) {
      await drawSignature(doc, font, boxes.map((box) => place(doc, template, box)).filter((p): p is Placed => p !== null), fill, size, lang);
      continue;
    }
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
        if (at && value !== null && value !== undefined && value !== "") drawText(font, [at], formatValue(v.type, value, dates), size, lang);
      });
      continue;
    }
    const text = v ? (variableText(answers, key, undefined, dates) ?? "") : "";
    if (!text) continue;
    const placed = boxes.map((box) => place(doc, template, box)).filter((p): p is Placed => p !== null);
    if (!placed.length) continue;
    if (options?.overflowStyle === "overflow-to-addendum" && !fitsIn(font, placed, text, size)) {
      drawText(font, placed.slice(0, 1), SEE_ADDENDUM, size, lang);
      addendum.push({ label: options.addendumLabel || v?.name || key, text });
      continue;
    }
    drawText(font, placed, text, size, lang);
  }

  if (addendum.length) writeAddendum(doc, font, addendum, size, lang);
  tagOverlay(doc);
  return doc.save();
}

/**
 * A signature place's boxes (issue 30): a drawn signature as its image, fitted into the first box; a typed one
 * as "/s/ Full Name" and the words under it, flowing from box to box like any text; its date as text. An
 * unsigned place stays empty: a form's own line is where a pen signs.
 */
async function drawSignature(doc: PDFDocument, fonts: OverlayFonts, boxes: Placed[], fill: SignatureFill, size: number, lang: string | undefined) {
  if (!boxes.length || fill.kind === "blank") return;
  if (fill.kind === "date") drawText(fonts, boxes, fill.text, size, lang);
  else if (fill.kind === "typed") drawText(fonts, boxes, `${fill.signature}\n${fill.caption}`, size, lang);
  else {
    const at = boxes[0]!;
    const image = await doc.embedPng(fill.png);
    const scale = Math.min(at.width / fill.width, at.height / fill.height);
    const width = fill.width * scale;
    const height = fill.height * scale;
    at.page.drawImage(image, { x: at.x, y: at.y + (at.height - height) / 2, width, height });
    // The words under it go in the next box, when the template gives one.
    if (boxes.length > 1) drawText(fonts, boxes.slice(1), fill.caption, size, lang);
  }
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

function writeAddendum(doc: PDFDocument, fonts: OverlayFonts, entries: { label: string; text: string }[], size: number, lang: string | undefined) {
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
    drawLine(page, fonts, text, margin, width - margin, y, s, lang);
    y -= s * 1.3;
  };
  line("Addendum", size * 1.4);
  y -= leading / 2;
  for (const entry of entries) {
    line(`${entry.label}:`, size);
    for (const l of wrap(entry.text, width - 2 * margin, (s) => measure(fonts, s, size))) line(l, size);
    y -= leading / 2;
  }
}
