/**
 * Lays a text document out as a PDF with pdfkit: wrapped paragraphs with styled runs, lists, headings, tables
 * that continue across pages (with their header row repeated), page breaks, headers and footers. The fonts
 * are embedded (subset), the text is real text (selectable, searchable, read aloud).
 */
import PDFDocument from "pdfkit";
import { FAMILIES, STYLES, fontBytes, fontStyle } from "./fonts.server";
import type { Block, FontFamily, Run, TextDocument } from "./layout";

const PAGE = { width: 612, height: 792 }; // US Letter, as A2J DAT
const MARGIN = 72;
const HEADER_Y = 36;

type Doc = PDFKit.PDFDocument;

function fontName(family: FontFamily, bold?: boolean, italic?: boolean) {
  return `${family}-${fontStyle(bold, italic)}`;
}

function registerFonts(doc: Doc) {
  for (const family of FAMILIES) for (const style of STYLES) doc.registerFont(`${family}-${style}`, fontBytes(family, style));
}

function lineHeight(size: number) {
  return size * 1.25;
}

const INDENT = 22;

interface RunOptions {
  x: number;
  width: number;
  align: string;
  size: number;
  font: FontFamily;
}

/** DejaVu's ascender, as a share of the font size (where pdfkit puts the baseline below the top). */
const ASCENT = 0.928;

/**
 * Centred or right-aligned text of several styles, wrapped and placed line by line here: pdfkit aligns each
 * continued fragment on its own, which makes the fragments of one line overlap.
 */
function writeAlignedRuns(doc: Doc, runs: Run[], opts: RunOptions) {
  type Piece = { text: string; run: Run; size: number; width: number };
  const lines: Piece[][] = [[]];
  let lineWidth = 0;
  const setFont = (run: Run) => {
    const size = run.size ?? opts.size;
    doc.font(fontName(run.font ?? opts.font, run.bold, run.italic)).fontSize(size);
    return size;
  };
  for (const run of runs) {
    const size = setFont(run);
    run.text.split("\n").forEach((segment, k) => {
      if (k > 0) {
        lines.push([]);
        lineWidth = 0;
      }
      for (const word of segment.split(/(?<=[ \t])/)) {
        if (!word) continue;
        const width = doc.widthOfString(word);
        const line = lines[lines.length - 1]!;
        // A word fits when it does without its trailing space.
        if (line.length && word.trim() && lineWidth + doc.widthOfString(word.replace(/[ \t]+$/, "")) > opts.width) {
          lines.push([]);
          lineWidth = 0;
        }
        lines[lines.length - 1]!.push({ text: word, run, size, width });
        lineWidth += width;
      }
    });
  }
  for (const line of lines) {
    // Trailing spaces do not count for alignment.
    while (line.length && !line[line.length - 1]!.text.trim()) line.pop();
    const last = line[line.length - 1];
    if (last) {
      const size = setFont(last.run);
      const trimmed = last.text.replace(/[ \t]+$/, "");
      line[line.length - 1] = { ...last, text: trimmed, width: doc.widthOfString(trimmed), size };
    }
    const maxSize = Math.max(opts.size, ...line.map((p) => p.size));
    const height = lineHeight(maxSize);
    if (doc.y + height > bottom(doc)) doc.addPage();
    const total = line.reduce((sum, p) => sum + p.width, 0);
    let x = opts.x + (opts.align === "center" ? (opts.width - total) / 2 : opts.align === "right" ? opts.width - total : 0);
    const y = doc.y;
    for (const piece of line) {
      setFont(piece.run);
      doc.fillColor(piece.run.link ? "#1a4b8c" : "black");
      doc.text(piece.text, x, y + (maxSize - piece.size) * ASCENT, {
        lineBreak: false,
        underline: !!piece.run.underline,
        strike: !!piece.run.strike,
        link: piece.run.link ?? null,
      });
      x += piece.width;
    }
    doc.fillColor("black");
    doc.x = opts.x;
    doc.y = y + height;
  }
}

/** Writes runs as one wrapped paragraph starting at (x, doc.y) within width. */
function writeRuns(doc: Doc, runs: Run[], opts: RunOptions) {
  const visible = runs.filter((r) => r.text !== "");
  if (!visible.length) {
    doc.y += lineHeight(opts.size);
    return;
  }
  if (visible.length > 1 && (opts.align === "center" || opts.align === "right")) {
    writeAlignedRuns(doc, visible, opts);
    return;
  }
  doc.x = opts.x;
  visible.forEach((run, i) => {
    const size = run.size ?? opts.size;
    doc.font(fontName(run.font ?? opts.font, run.bold, run.italic)).fontSize(size).fillColor(run.link ? "#1a4b8c" : "black");
    const options: PDFKit.Mixins.TextOptions = {
      continued: i < visible.length - 1,
      underline: !!run.underline,
      strike: !!run.strike,
      link: run.link ?? null,
      lineGap: size * 0.2,
    };
    if (i === 0) {
      options.width = opts.width;
      options.align = opts.align as PDFKit.Mixins.TextOptions["align"];
    }
    if (i === 0) doc.text(run.text, opts.x, doc.y, options);
    else doc.text(run.text, options);
  });
  doc.fillColor("black");
}

function bottom(doc: Doc) {
  return doc.page.height - doc.page.margins.bottom;
}

function writeParagraph(doc: Doc, block: Extract<Block, { kind: "paragraph" }>, font: FontFamily, width: number, left: number) {
  const x = left + block.indent * INDENT;
  const w = width - block.indent * INDENT;
  if (doc.y + lineHeight(block.size) > bottom(doc)) doc.addPage();
  if (block.marker) {
    const y = doc.y;
    doc.font(fontName(font)).fontSize(block.size).text(block.marker, x - INDENT, y, { width: INDENT - 4, align: "right", lineBreak: false });
    doc.y = y;
  }
  writeRuns(doc, block.runs, { x, width: w, align: block.align, size: block.size, font });
  // Paragraphs are separated by half a line (list items by a little less).
  doc.y += block.marker ? block.size * 0.15 : block.size * 0.5;
}

function writeHeading(doc: Doc, block: Extract<Block, { kind: "heading" }>, font: FontFamily, width: number, left: number) {
  // Keep a heading with at least two lines of what follows.
  if (doc.y + lineHeight(block.size) + 2 * lineHeight(block.size) > bottom(doc)) doc.addPage();
  doc.y += block.size * 0.3;
  doc.font(fontName(font, true)).fontSize(block.size).text(block.text, left, doc.y, { width, lineGap: block.size * 0.15 });
  if (block.underline) {
    const y = doc.y + 2;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor("#000000").stroke();
    doc.y = y + 4;
  }
  doc.y += block.size * 0.35;
}

function writeTable(doc: Doc, block: Extract<Block, { kind: "table" }>, font: FontFamily, width: number, left: number) {
  const pad = block.style === "condensed" ? 2 : 5;
  const size = block.size * 0.92;
  const widths = block.columns.map((c) => c.width * width);
  const cellHeight = (texts: string[], bold: boolean) => {
    doc.font(fontName(font, bold)).fontSize(size);
    return Math.max(...texts.map((t, i) => doc.heightOfString(t || " ", { width: Math.max(10, widths[i]! - 2 * pad), lineGap: size * 0.15 }))) + 2 * pad;
  };
  const drawRow = (texts: string[], bold: boolean, shade: string | null) => {
    const h = cellHeight(texts, bold);
    const y = doc.y;
    let x = left;
    texts.forEach((t, i) => {
      const w = widths[i]!;
      if (shade) doc.rect(x, y, w, h).fillColor(shade).fill();
      if (block.style !== "striped" || bold) doc.rect(x, y, w, h).lineWidth(0.5).strokeColor("#333333").stroke();
      doc.fillColor("black").font(fontName(font, bold)).fontSize(size).text(t, x + pad, y + pad, { width: Math.max(10, w - 2 * pad), lineGap: size * 0.15 });
      x += w;
    });
    doc.x = left;
    doc.y = y + h;
  };
  const header = block.columns.map((c) => c.title);
  const hasHeader = header.some((t) => t !== "");
  if (hasHeader && doc.y + cellHeight(header, true) + (block.rows[0] ? cellHeight(block.rows[0], false) : 0) > bottom(doc)) doc.addPage();
  if (hasHeader) drawRow(header, true, "#e6e6e6");
  block.rows.forEach((row, r) => {
    if (doc.y + cellHeight(row, false) > bottom(doc)) {
      doc.addPage();
      if (hasHeader) drawRow(header, true, "#e6e6e6");
    }
    drawRow(row, false, block.style === "striped" && r % 2 === 1 ? "#f2f2f2" : null);
  });
  doc.y += block.size * 0.6;
}

function writeBlocks(doc: Doc, blocks: Block[], font: FontFamily, width: number, left: number) {
  let pendingBreak = false;
  let started = false;
  for (const block of blocks) {
    if (block.kind === "page-break") {
      // Only a break followed by something makes a page (a trailing break prints no blank page).
      if (started) pendingBreak = true;
      continue;
    }
    if (pendingBreak) {
      doc.addPage();
      pendingBreak = false;
    }
    started = true;
    switch (block.kind) {
      case "paragraph":
        writeParagraph(doc, block, font, width, left);
        break;
      case "heading":
        writeHeading(doc, block, font, width, left);
        break;
      case "table":
        writeTable(doc, block, font, width, left);
        break;
    }
  }
}

function writeMargins(doc: Doc, document: TextDocument, width: number) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const saved = { ...doc.page.margins };
    // Writing in the margins must not start new pages.
    doc.page.margins = { top: 0, bottom: 0, left: saved.left, right: saved.right };
    if (document.header.length && !(i === 0 && document.hideHeaderOnFirstPage)) {
      doc.y = HEADER_Y;
      writeBlocks(doc, document.header, document.font, width, MARGIN);
    }
    if (document.footer.length && !(i === 0 && document.hideFooterOnFirstPage)) {
      doc.y = doc.page.height - HEADER_Y - document.footer.length * lineHeight(document.size * 0.8) - 4;
      writeBlocks(doc, document.footer, document.font, width, MARGIN);
    }
    doc.page.margins = saved;
  }
}

/** A text document as PDF bytes. */
export function textDocumentToPdf(document: TextDocument, meta: { title: string; lang: string }): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    try {
      const doc = new PDFDocument({
        size: [PAGE.width, PAGE.height],
        margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
        bufferPages: true,
        pdfVersion: "1.7",
        lang: meta.lang,
        displayTitle: true,
        info: { Title: meta.title, Creator: "Legal Self-Help", Producer: "Legal Self-Help (pdfkit)" },
      });
      const chunks: Buffer[] = [];
      doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
      doc.on("error", reject);
      registerFonts(doc);
      doc.font(fontName(document.font)).fontSize(document.size);
      const width = PAGE.width - 2 * MARGIN;
      writeBlocks(doc, document.blocks, document.font, width, MARGIN);
      writeMargins(doc, document, width);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
