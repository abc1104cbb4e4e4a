/**
 * Lays a text document out as a tagged PDF with pdfkit, with A2J DAT's page geometry and type (decision 0024):
 * A4 (or Letter), DAT's margins, CSS pixels scaled as wkhtmltopdf scales them, Bootstrap's line height and
 * paragraph spacing, Arimo/Tinos (Arial/Times metrics) with DejaVu for characters they lack. Wrapped paragraphs
 * with styled runs, lists, headings, tables that continue across pages (with their header row repeated), page
 * breaks, headers and footers. The structure tree gives headings, paragraphs, lists (label and body), tables
 * with header cells, in reading order; headers, footers, rules, cell borders and repeated table headers are
 * artifacts. The fonts are embedded (subset), the text is real text (selectable, searchable, read aloud).
 */
import PDFDocument from "pdfkit";
import { FAMILIES, STYLES, fontBytes, fontStyle, primaryCoverage, primaryFontBytes } from "./fonts.server";
import type { Block, FontFamily, PageSize, Run, TextDocument } from "./layout";

const MM = 72 / 25.4;

/**
 * A2J DAT's geometry and type, as it prints a text template (the figures come from DAT's sources; decision 0024):
 * - wkhtmltopdf's default page, A4, and its default margins of 10 mm, but 20 mm at the top (DAT's
 *   `margin-top: 20`), with the header and footer 5 mm from the text (`header-spacing`, `footer-spacing`);
 * - a CSS pixel is 1/96 in (0.75 pt), shrunk by WebKit's minimum print shrink factor of 1.25 (wkhtmltopdf's
 *   "smart shrinking", on by default): 0.6 pt;
 * - Bootstrap 3's line height (1.428571429) and paragraph margin (10 px), which A2J's theme keeps.
 */
export const DAT_LAYOUT = {
  pages: { a4: { width: 210 * MM, height: 297 * MM }, letter: { width: 612, height: 792 } } satisfies Record<PageSize, { width: number; height: number }>,
  margins: { top: 20 * MM, right: 10 * MM, bottom: 10 * MM, left: 10 * MM },
  headerSpacing: 5 * MM,
  ptPerPx: 0.75 / 1.25,
  lineHeight: 1.428571429,
  paragraphAfterPx: 10,
  /** `ul`/`ol` indent (the browser's 40 px padding). */
  listIndentPx: 40,
  /** Headings: line height 1.1, 20 px above h1–h3 and 10 px above h4–h6, 10 px below. */
  headingLineHeight: 1.1,
  tablePaddingPx: { bordered: 8, striped: 8, condensed: 5 },
  tableAfterPx: 20,
} as const;

const PX = DAT_LAYOUT.ptPerPx;

/**
 * No text prints smaller than 10 pt (docs/decisions/0041): DAT's 0.6 pt per pixel prints a 12 px template at
 * 7.2 pt, too small to read for many; larger text keeps DAT's size. Spacing (margins, gaps, indents) stays DAT's.
 */
export const MINIMUM_TEXT_PT = 10;

/** A text size in CSS pixels, as it prints. */
function textPt(sizePx: number): number {
  return Math.max(MINIMUM_TEXT_PT, sizePx * PX);
}

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

/** Where the structure goes: null while writing artifacts (headers and footers). */
interface Tags {
  parent: Struct;
  /** Open lists, innermost last. */
  lists: { indent: number; id: number | undefined; list: Struct; item: Struct | null; body: Struct | null }[];
}

function fontName(family: FontFamily, bold?: boolean, italic?: boolean, fallback = false) {
  return `${fallback ? "dejavu" : "main"}-${family}-${fontStyle(bold, italic)}`;
}

function registerFonts(doc: Doc) {
  for (const family of FAMILIES)
    for (const style of STYLES) {
      const fallback = fontBytes(family, style);
      doc.registerFont(`dejavu-${family}-${style}`, fallback);
      doc.registerFont(`main-${family}-${style}`, primaryFontBytes(family, style) ?? fallback);
    }
}

/**
 * Text cut where the main font lacks a glyph: those characters are drawn with DejaVu. White space and line
 * breaks stay with the text around them.
 */
export function fontPieces(text: string, family: FontFamily, bold?: boolean, italic?: boolean): { text: string; font: string }[] {
  const has = primaryCoverage(family, fontStyle(bold, italic));
  const main = fontName(family, bold, italic);
  if (!has) return [{ text, font: main }];
  const pieces: { text: string; font: string }[] = [];
  let current = "";
  let currentFallback = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const space = cp <= 0x20 || /\s/.test(ch);
    const fallback: boolean = space ? currentFallback : !has.has(cp);
    if (current && fallback !== currentFallback) {
      pieces.push({ text: current, font: fontName(family, bold, italic, currentFallback) });
      current = "";
    }
    currentFallback = fallback;
    current += ch;
  }
  if (current) pieces.push({ text: current, font: fontName(family, bold, italic, currentFallback) });
  return pieces.length ? pieces : [{ text, font: main }];
}

/** The current font's ascender at the current size, in points (pdfkit draws text that far below `y`). */
function ascender(doc: Doc): number {
  const d = doc as unknown as { _font: { ascender: number }; _fontSize: number };
  return (d._font.ascender / 1000) * d._fontSize;
}

function lineHeight(sizePx: number) {
  return textPt(sizePx) * DAT_LAYOUT.lineHeight;
}

interface RunOptions {
  x: number;
  width: number;
  align: string;
  /** CSS pixels. */
  size: number;
  font: FontFamily;
  /** Line height as a multiple of the font size. */
  leading?: number;
}

/** A run cut by font, each piece with its pdfkit font name. */
function pieceRuns(run: Run, opts: RunOptions) {
  return fontPieces(run.text, run.font ?? opts.font, run.bold, run.italic).map((p) => ({ ...p, run }));
}

/**
 * Centred or right-aligned text of several styles, wrapped and placed line by line here: pdfkit aligns each
 * continued fragment on its own, which makes the fragments of one line overlap.
 */
function writeAlignedRuns(doc: Doc, runs: Run[], opts: RunOptions) {
  type Piece = { text: string; run: Run; font: string; size: number; width: number };
  const lines: Piece[][] = [[]];
  let lineWidth = 0;
  for (const run of runs) {
    const size = textPt(run.size ?? opts.size);
    for (const piece of pieceRuns(run, opts)) {
      doc.font(piece.font).fontSize(size);
      piece.text.split("\n").forEach((segment, k) => {
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
          lines[lines.length - 1]!.push({ text: word, run, font: piece.font, size, width });
          lineWidth += width;
        }
      });
    }
  }
  const leading = opts.leading ?? DAT_LAYOUT.lineHeight;
  for (const line of lines) {
    // Trailing spaces do not count for alignment.
    while (line.length && !line[line.length - 1]!.text.trim()) line.pop();
    const last = line[line.length - 1];
    if (last) {
      doc.font(last.font).fontSize(last.size);
      const trimmed = last.text.replace(/[ \t]+$/, "");
      line[line.length - 1] = { ...last, text: trimmed, width: doc.widthOfString(trimmed) };
    }
    const maxSize = Math.max(textPt(opts.size), ...line.map((p) => p.size));
    const height = maxSize * leading;
    if (doc.y + height > bottom(doc)) doc.addPage();
    const total = line.reduce((sum, p) => sum + p.width, 0);
    let x = opts.x + (opts.align === "center" ? (opts.width - total) / 2 : opts.align === "right" ? opts.width - total : 0);
    const y = doc.y;
    // CSS puts half the leading above the text; the biggest size sets the baseline, every piece sits on it.
    doc.font(fontName(opts.font)).fontSize(maxSize);
    const baseline = y + (height - doc.currentLineHeight()) / 2 + ascender(doc);
    for (const piece of line) {
      doc.font(piece.font).fontSize(piece.size);
      const top = baseline - ascender(doc);
      doc.fillColor(piece.run.link ? "#1a4b8c" : "black");
      doc.text(piece.text, x, top, {
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

/**
 * Lines of exactly `leading` × the font size, as CSS lays them out: pdfkit's line is the font's own height plus
 * `lineGap`, with the gap below the text (CSS splits it above and below), and it starts a new page when the
 * font's height no longer fits where CSS needs the whole line; the page's bottom margin is moved by the
 * difference while the paragraph is written.
 */
function writeRuns(doc: Doc, runs: Run[], opts: RunOptions) {
  const visible = runs.filter((r) => r.text !== "");
  const leading = opts.leading ?? DAT_LAYOUT.lineHeight;
  const size = textPt(Math.max(opts.size, ...visible.map((r) => r.size ?? opts.size)));
  const line = size * leading;
  if (!visible.length) {
    doc.y += line;
    return;
  }
  const pieces = visible.flatMap((run) => pieceRuns(run, opts));
  // Several pieces (styles, or fonts for one run's characters) on a centred or right-aligned line.
  if (pieces.length > 1 && (opts.align === "center" || opts.align === "right")) {
    writeAlignedRuns(doc, visible, opts);
    return;
  }
  doc.font(pieces[0]!.font).fontSize(size);
  const gap = line - doc.currentLineHeight(true);
  // pdfkit moves to a new page when the next line's top plus the font's height passes the bottom margin; CSS
  // when its top plus the whole line does. Lines start half the gap lower (CSS's half-leading), so the margins
  // move by half the gap while the paragraph is written, on this page and any it runs on to.
  const half = gap / 2;
  const page = doc.page;
  const saved = { top: page.margins.top, bottom: page.margins.bottom };
  const docMargins = (doc as unknown as { options: { margins: { top: number; bottom: number } } }).options.margins;
  const savedDoc = { top: docMargins.top, bottom: docMargins.bottom };
  page.margins.bottom += half;
  docMargins.top += half;
  docMargins.bottom += half;
  doc.x = opts.x;
  const start = doc.y + half;
  pieces.forEach((piece, i) => {
    const run = piece.run;
    doc
      .font(piece.font)
      .fontSize(textPt(run.size ?? opts.size))
      .fillColor(run.link ? "#1a4b8c" : "black");
    const options: PDFKit.Mixins.TextOptions = {
      continued: i < pieces.length - 1,
      underline: !!run.underline,
      strike: !!run.strike,
      link: run.link ?? null,
      lineGap: gap,
    };
    if (i === 0) {
      options.width = opts.width;
      options.align = opts.align as PDFKit.Mixins.TextOptions["align"];
      doc.text(piece.text, opts.x, start, options);
    } else doc.text(piece.text, options);
  });
  doc.y -= half;
  docMargins.top = savedDoc.top;
  docMargins.bottom = savedDoc.bottom;
  if (doc.page === page) Object.assign(page.margins, saved);
  else Object.assign(doc.page.margins, savedDoc);
  doc.fillColor("black");
}

function bottom(doc: Doc) {
  return doc.page.height - doc.page.margins.bottom;
}

/** Marked content of one structure element (or nothing when writing artifacts). */
function tagged(doc: Doc, tags: Tags | null, parent: Struct | undefined, type: string, draw: () => void) {
  if (!tags || !parent) {
    draw();
    return;
  }
  const el = doc.struct(type);
  parent.add(el);
  const content = doc.markStructureContent(type);
  draw();
  doc.endMarkedContent();
  el.add(content);
  el.end();
}

/** Decoration (rules, borders, shading, repeated headers): an artifact in a tagged document. */
function artifact(doc: Doc, tags: Tags | null, draw: () => void) {
  if (!tags) {
    draw();
    return;
  }
  doc.markContent("Artifact", { type: "Layout" });
  draw();
  doc.endMarkedContent();
}

function closeLists(tags: Tags | null, indent: number) {
  if (!tags) return;
  while (tags.lists.length && tags.lists[tags.lists.length - 1]!.indent >= indent) {
    const open = tags.lists.pop()!;
    open.item?.end();
    open.list.end();
  }
}

/** The list item a marked paragraph belongs to: its label and body go there. */
function listItem(doc: Doc, tags: Tags, indent: number, id: number | undefined): Struct {
  closeLists(tags, indent + 1);
  let open = tags.lists[tags.lists.length - 1];
  // Another list at the same level (an <ol> right after a <ul>) is a list of its own.
  if (open && open.indent === indent && open.id !== id) {
    closeLists(tags, indent);
    open = tags.lists[tags.lists.length - 1];
  }
  if (!open || open.indent < indent) {
    // A nested list belongs to the body of the item it follows.
    const parent = open?.body ?? tags.parent;
    const list = doc.struct("L");
    parent.add(list);
    open = { indent, id, list, item: null, body: null };
    tags.lists.push(open);
  }
  // An item ends when the next one at its level starts (a nested list may still come into its body).
  open.item?.end();
  const item = doc.struct("LI");
  open.list.add(item);
  open.item = item;
  open.body = null;
  return item;
}

function writeParagraph(doc: Doc, block: Extract<Block, { kind: "paragraph" }>, font: FontFamily, width: number, left: number, tags: Tags | null, nextIsItem: boolean) {
  const indentPt = DAT_LAYOUT.listIndentPx * PX;
  const x = left + block.indent * indentPt;
  const w = width - block.indent * indentPt;
  if (block.heading) {
    writeHeadingBlock(doc, { text: block.runs, level: block.heading, size: block.size, underline: false, align: block.align }, font, width, left, tags);
    return;
  }
  if (doc.y + lineHeight(block.size) > bottom(doc)) doc.addPage();
  if (block.marker !== undefined && tags) {
    const item = listItem(doc, tags, block.indent, block.list);
    if (block.marker) {
      const y = doc.y;
      tagged(doc, tags, item, "Lbl", () => writeMarker(doc, block, font, x, y, indentPt));
      doc.y = y;
    }
    const body = doc.struct("LBody");
    item.add(body);
    tags.lists[tags.lists.length - 1]!.body = body;
    tagged(doc, tags, body, "P", () => writeRuns(doc, block.runs, { x, width: w, align: block.align, size: block.size, font }));
  } else {
    if (block.marker) {
      const y = doc.y;
      writeMarker(doc, block, font, x, y, indentPt);
      doc.y = y;
    }
    if (block.marker === undefined) closeLists(tags, 0);
    const write = () => writeRuns(doc, block.runs, { x, width: w, align: block.align, size: block.size, font });
    // A blank line (an empty paragraph, or only spaces) is spacing, not a paragraph to read out.
    if (block.runs.every((r) => !r.text.replace(/[\s\u00a0]+/g, ""))) artifact(doc, tags, write);
    else tagged(doc, tags, tags?.parent, "P", write);
  }
  // List items follow each other without space, nested lists too (Bootstrap: `ul ul` has no margin); a list,
  // like a paragraph, ends with 10 px.
  if (!(block.marker !== undefined && nextIsItem)) doc.y += DAT_LAYOUT.paragraphAfterPx * PX;
}

function writeMarker(doc: Doc, block: Extract<Block, { kind: "paragraph" }>, font: FontFamily, x: number, y: number, indentPt: number) {
  const size = textPt(block.size);
  const pieces = fontPieces(block.marker!, font);
  doc.font(pieces[0]!.font).fontSize(size);
  const top = y + (lineHeight(block.size) - doc.currentLineHeight(true)) / 2;
  doc.text(block.marker!, x - indentPt, top, { width: indentPt - 6 * PX, align: "right", lineBreak: false });
}

function writeHeadingBlock(
  doc: Doc,
  block: { text: Run[]; level: number; size: number; underline: boolean; align: string },
  font: FontFamily,
  width: number,
  left: number,
  tags: Tags | null,
) {
  closeLists(tags, 0);
  const line = textPt(block.size) * DAT_LAYOUT.headingLineHeight;
  const before = (block.level <= 3 ? 20 : 10) * PX;
  // Keep a heading with at least two lines of what follows.
  if (doc.y + before + line + 2 * lineHeight(12) > bottom(doc)) doc.addPage();
  else doc.y += before;
  const level = Math.min(6, Math.max(1, block.level));
  tagged(doc, tags, tags?.parent, `H${level}`, () =>
    writeRuns(doc, block.text, { x: left, width, align: block.align, size: block.size, font, leading: DAT_LAYOUT.headingLineHeight }),
  );
  if (block.underline) {
    const y = doc.y + 1;
    artifact(doc, tags, () => doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor("#000000").stroke());
    doc.y = y + 2;
  }
  doc.y += 10 * PX;
}

function writeTable(doc: Doc, block: Extract<Block, { kind: "table" }>, font: FontFamily, width: number, left: number, tags: Tags | null) {
  closeLists(tags, 0);
  const pad = DAT_LAYOUT.tablePaddingPx[block.style] * PX;
  const widths = block.columns.map((c) => c.width * width);
  const cellWidth = (i: number) => Math.max(10, widths[i]! - 2 * pad);
  const opts = (i: number, bold: boolean): RunOptions & { bold: boolean } => ({ x: 0, width: cellWidth(i), align: "left", size: block.size, font, bold });
  const cellHeight = (texts: string[], bold: boolean) => {
    const heights = texts.map((t, i) => {
      const pieces = fontPieces(t || " ", font, bold);
      doc.font(pieces[0]!.font).fontSize(textPt(block.size));
      const fontLine = doc.currentLineHeight(true);
      const lines = Math.max(1, Math.round((doc.heightOfString(t || " ", { width: cellWidth(i), lineGap: 0 }) + 0.01) / fontLine));
      return lines * lineHeight(block.size);
    });
    return Math.max(...heights) + 2 * pad;
  };
  const table = tags ? doc.struct("Table") : null;
  if (table && tags) tags.parent.add(table);
  const drawRow = (texts: string[], header: boolean, shade: string | null, repeated: boolean) => {
    const h = cellHeight(texts, header);
    const y = doc.y;
    artifact(doc, tags, () => {
      let x = left;
      texts.forEach((_, i) => {
        const w = widths[i]!;
        if (shade) doc.rect(x, y, w, h).fillColor(shade).fill();
        if (block.style !== "striped" || header) doc.rect(x, y, w, h).lineWidth(0.5).strokeColor("#333333").stroke();
        x += w;
      });
    });
    const write = (t: string, i: number, x: number) => {
      doc.fillColor("black");
      const { bold, ...o } = opts(i, header);
      writeRuns(doc, [{ text: t, bold }], { ...o, x: x + pad });
    };
    // A header row repeated on a later page is decoration: assistive technology has read it once.
    const tr = table && !repeated ? doc.struct("TR") : null;
    if (tr) table!.add(tr);
    let x = left;
    texts.forEach((t, i) => {
      doc.y = y + pad;
      const cx = x;
      if (tr) {
        const cell = doc.struct(header ? "TH" : "TD");
        if (header) (cell as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data.A = { O: "Table", Scope: "Column" };
        tr.add(cell);
        const content = doc.markStructureContent(header ? "TH" : "TD");
        write(t, i, cx);
        doc.endMarkedContent();
        cell.add(content);
        cell.end();
      } else if (tags) artifact(doc, tags, () => write(t, i, cx));
      else write(t, i, cx);
      x += widths[i]!;
    });
    tr?.end();
    doc.x = left;
    doc.y = y + h;
  };
  const header = block.columns.map((c) => c.title);
  const hasHeader = header.some((t) => t !== "");
  if (hasHeader && doc.y + cellHeight(header, true) + (block.rows[0] ? cellHeight(block.rows[0], false) : 0) > bottom(doc)) doc.addPage();
  // Rows are drawn with the page's bottom margin fixed: a row that does not fit goes whole to the next page.
  if (hasHeader) drawRow(header, true, "#e6e6e6", false);
  block.rows.forEach((row, r) => {
    if (doc.y + cellHeight(row, false) > bottom(doc)) {
      doc.addPage();
      if (hasHeader) drawRow(header, true, "#e6e6e6", true);
    }
    drawRow(row, false, block.style === "striped" && r % 2 === 1 ? "#f2f2f2" : null, false);
  });
  table?.end();
  doc.y += DAT_LAYOUT.tableAfterPx * PX;
}

function writeBlocks(doc: Doc, blocks: Block[], font: FontFamily, width: number, left: number, tags: Tags | null) {
  let pendingBreak = false;
  let started = false;
  blocks.forEach((block, i) => {
    if (block.kind === "page-break") {
      // Only a break followed by something makes a page (a trailing break prints no blank page).
      if (started) pendingBreak = true;
      return;
    }
    if (pendingBreak) {
      doc.addPage();
      pendingBreak = false;
    }
    started = true;
    switch (block.kind) {
      case "paragraph": {
        const next = blocks[i + 1];
        writeParagraph(doc, block, font, width, left, tags, next?.kind === "paragraph" && next.marker !== undefined && !next.heading && (next.indent !== block.indent || next.list === block.list));
        break;
      }
      case "heading":
        writeHeadingBlock(doc, { text: [{ text: block.text }], level: block.level, size: block.size, underline: block.underline, align: "left" }, font, width, left, tags);
        break;
      case "table":
        writeTable(doc, block, font, width, left, tags);
        break;
    }
  });
  closeLists(tags, 0);
}

/** Height of header or footer blocks, measured on a scratch document's terms (line counts × line heights). */
function blocksHeight(blocks: Block[]) {
  return blocks.reduce((sum, b) => sum + (b.kind === "paragraph" ? lineHeight(b.size) * Math.max(1, b.runs.map((r) => r.text).join("").split("\n").length) : b.kind === "heading" ? textPt(b.size) * DAT_LAYOUT.headingLineHeight : 0), 0);
}

function writeMargins(doc: Doc, document: TextDocument, width: number) {
  const range = doc.bufferedPageRange();
  const { margins, headerSpacing } = DAT_LAYOUT;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const saved = { ...doc.page.margins };
    // Writing in the margins must not start new pages.
    doc.page.margins = { top: 0, bottom: 0, left: saved.left, right: saved.right };
    if (document.header.length && !(i === 0 && document.hideHeaderOnFirstPage)) {
      doc.markContent("Artifact", { type: "Pagination", attached: ["Top"] });
      doc.y = Math.max(4 * MM, margins.top - headerSpacing - blocksHeight(document.header));
      writeBlocks(doc, document.header, document.font, width, margins.left, null);
      doc.endMarkedContent();
    }
    if (document.footer.length && !(i === 0 && document.hideFooterOnFirstPage)) {
      doc.markContent("Artifact", { type: "Pagination", attached: ["Bottom"] });
      doc.y = Math.min(doc.page.height - margins.bottom + headerSpacing, doc.page.height - blocksHeight(document.footer) - 2 * MM);
      writeBlocks(doc, document.footer, document.font, width, margins.left, null);
      doc.endMarkedContent();
    }
    doc.page.margins = saved;
  }
}

/** A text document as the bytes of a tagged PDF. */
export function textDocumentToPdf(document: TextDocument, meta: { title: string; lang: string }): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    try {
      const page = DAT_LAYOUT.pages[document.pageSize];
      const doc = new PDFDocument({
        size: [page.width, page.height],
        margins: { ...DAT_LAYOUT.margins },
        bufferPages: true,
        pdfVersion: "1.7",
        tagged: true,
        lang: meta.lang,
        displayTitle: true,
        info: { Title: meta.title, Creator: "Legal Self-Help", Producer: "Legal Self-Help (pdfkit)" },
      });
      const chunks: Buffer[] = [];
      doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
      doc.on("error", reject);
      registerFonts(doc);
      doc.font(fontName(document.font)).fontSize(textPt(document.size));
      const width = page.width - DAT_LAYOUT.margins.left - DAT_LAYOUT.margins.right;
      const root = doc.struct("Document", { title: meta.title, lang: meta.lang });
      doc.addStructure(root);
      writeBlocks(doc, document.blocks, document.font, width, DAT_LAYOUT.margins.left, { parent: root, lists: [] });
      root.end();
      writeMargins(doc, document, width);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
