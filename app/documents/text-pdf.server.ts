/**
 * Lays a text document out as a tagged PDF with pdfkit, with A2J DAT's page geometry and type (decision 0024):
 * A4 (or Letter), DAT's margins, CSS pixels scaled as wkhtmltopdf scales them, Bootstrap's line height and
 * paragraph spacing, Arimo/Tinos (Arial/Times metrics) with DejaVu for characters they lack. Wrapped paragraphs
 * with styled runs, lists, headings, tables that continue across pages (with their header row repeated), page
 * breaks, headers and footers. The structure tree gives headings, paragraphs, lists (label and body), tables
 * with header cells, in reading order; headers, footers, rules, cell borders and repeated table headers are
 * artifacts. The fonts are embedded (subset), the text is real text (selectable, searchable, read aloud).
 *
 * Other scripts (decision 0046): Tamil, Arabic and Chinese characters print in their Noto fonts, a script's
 * characters kept together in one piece so that fontkit shapes them (Tamil's conjuncts and vowel signs, Arabic's
 * joining). A paragraph with such a piece, or with right-to-left text, is broken into lines here
 * (`writeOwnLines`), each line put in visual order by the Unicode Bidirectional Algorithm and drawn word by word.
 */
import PDFDocument from "pdfkit";
import { FAMILIES, SCRIPT_FONTS, STYLES, fontBytes, fontStyle, primaryCoverage, primaryFontBytes, scriptCoverage, scriptFontBytes } from "./fonts.server";
import type { Block, FontFamily, PageSize, Run, TextDocument } from "./layout";
import { breaksBetween, hasRightToLeft, isRightToLeftLanguage, needsActualText, paragraphLevels, type ScriptFont, scriptFontOf, shapedRightToLeft, textForShaping, visualOrder } from "./scripts";

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

function scriptFontName(script: ScriptFont, bold?: boolean, italic?: boolean) {
  return `${script}-${fontStyle(bold, italic)}`;
}

/** The right-to-left documents (their language's direction decides a paragraph with no strong character). */
const documentLanguage = new WeakMap<Doc, string>();

function registerFonts(doc: Doc) {
  for (const family of FAMILIES)
    for (const style of STYLES) {
      const fallback = fontBytes(family, style);
      doc.registerFont(`dejavu-${family}-${style}`, fallback);
      doc.registerFont(`main-${family}-${style}`, primaryFontBytes(family, style) ?? fallback);
    }
  // pdfkit reads a registered font only when it is first used: a document without Chinese never parses it.
  for (const script of SCRIPT_FONTS) for (const style of STYLES) doc.registerFont(scriptFontName(script, style.startsWith("bold"), style.endsWith("italic")), scriptFontBytes(script, style));
}

export interface FontPiece {
  text: string;
  font: string;
  /** Set when the piece is in a script's own font. */
  script?: ScriptFont;
}

/**
 * Text cut by the font that draws it: a script's characters go to its Noto font, the rest to the main font, and
 * what that lacks to DejaVu. White space and line breaks stay with the text around them, so a script's words
 * stay one piece (shaped together).
 */
export function fontPieces(text: string, family: FontFamily, bold?: boolean, italic?: boolean): FontPiece[] {
  const style = fontStyle(bold, italic);
  const has = primaryCoverage(family, style);
  const main = fontName(family, bold, italic);
  const pieces: FontPiece[] = [];
  let current = "";
  let currentKey = "main";
  const fontOf = (key: string): FontPiece =>
    key === "main" ? { text: "", font: main } : key === "dejavu" ? { text: "", font: fontName(family, bold, italic, true) } : { text: "", font: scriptFontName(key as ScriptFont, bold, italic), script: key as ScriptFont };
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const space = cp <= 0x20 || /\s/.test(ch);
    let key = currentKey;
    if (!space) {
      const script = scriptFontOf(cp);
      if (script && scriptCoverage(script, style).has(cp)) key = script;
      else key = !has || has.has(cp) ? "main" : "dejavu";
    }
    if (current && key !== currentKey) {
      pieces.push({ ...fontOf(currentKey), text: current });
      current = "";
    }
    currentKey = key;
    current += ch;
  }
  if (current) pieces.push({ ...fontOf(currentKey), text: current });
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

/** A piece of a paragraph in one font, with its run and its size in points. */
interface SizedPiece extends FontPiece {
  run: Run;
  size: number;
}

/**
 * One unit of a line: a word of one piece at one bidi level (a Chinese character is a word of its own), a
 * space, or a line break. `start` is its offset in the paragraph's text.
 */
interface Token {
  text: string;
  piece: SizedPiece;
  level: number;
  kind: "word" | "space" | "newline";
  width: number;
  /** A line may start with this word. */
  breakBefore: boolean;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A paragraph cut into tokens and lines no wider than `opts.width`, with its base direction (1: right to left). */
export function ownLines(doc: Doc, runs: Run[], opts: RunOptions): { lines: Token[][]; base: 0 | 1; endsHard: boolean[] } {
  const pieces: SizedPiece[] = runs.flatMap((run) => fontPieces(run.text, run.font ?? opts.font, run.bold, run.italic).map((p) => ({ ...p, run, size: textPt(run.size ?? opts.size) })));
  const text = pieces.map((p) => p.text).join("");
  const { levels, base } = paragraphLevels(text, documentLanguage.get(doc));
  const tokens: Token[] = [];
  let offset = 0;
  for (const piece of pieces) {
    doc.font(piece.font).fontSize(piece.size);
    let current = "";
    let kind: Token["kind"] = "word";
    let level = 0;
    let previous = "";
    const push = () => {
      if (!current) return;
      tokens.push({ text: current, piece, level, kind, width: kind === "newline" ? 0 : doc.widthOfString(current), breakBefore: false });
      current = "";
    };
    let at = offset;
    for (const ch of piece.text) {
      const k: Token["kind"] = ch === "\n" ? "newline" : ch === " " || ch === "\t" ? "space" : "word";
      const l = levels[at] ?? base;
      if (current && (k !== kind || l !== level || k === "newline" || (k === "word" && breaksBetween(previous, ch)))) push();
      kind = k;
      level = l;
      current += ch;
      previous = ch;
      at += ch.length;
    }
    push();
    offset += piece.text.length;
  }
  tokens.forEach((token, i) => {
    const before = tokens[i - 1];
    token.breakBefore = token.kind === "word" && !!before && (before.kind !== "word" || breaksBetween([...before.text].at(-1)!, [...token.text][0]!));
  });
  // A word wider than the line (an address, a long number) is cut between its characters, as pdfkit cuts one.
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== "word" || token.width <= opts.width) continue;
    doc.font(token.piece.font).fontSize(token.piece.size);
    const parts: Token[] = [];
    let current = "";
    for (const { segment } of graphemes.segment(token.text)) {
      if (current && doc.widthOfString(current + segment) > opts.width) {
        parts.push({ ...token, text: current, width: doc.widthOfString(current), breakBefore: parts.length ? true : token.breakBefore });
        current = "";
      }
      current += segment;
    }
    parts.push({ ...token, text: current, width: doc.widthOfString(current), breakBefore: parts.length ? true : token.breakBefore });
    tokens.splice(i, 1, ...parts);
    i += parts.length - 1;
  }
  const lines: Token[][] = [[]];
  const endsHard: boolean[] = [];
  let lineWidth = 0;
  tokens.forEach((token, i) => {
    if (token.kind === "newline") {
      endsHard[lines.length - 1] = true;
      lines.push([]);
      lineWidth = 0;
      return;
    }
    const line = lines[lines.length - 1]!;
    if (token.breakBefore && line.length) {
      // The word that starts here runs to the next place a line may break.
      let group = token.width;
      for (let j = i + 1; j < tokens.length && tokens[j]!.kind === "word" && !tokens[j]!.breakBefore; j++) group += tokens[j]!.width;
      if (lineWidth + group > opts.width) {
        endsHard[lines.length - 1] = false;
        lines.push([]);
        lineWidth = 0;
      }
    }
    lines[lines.length - 1]!.push(token);
    lineWidth += token.width;
  });
  endsHard[lines.length - 1] = true;
  // Spaces at a line's end take no room (and, by UAX #9's rule L1, the paragraph's level).
  for (const line of lines) while (line.length && line[line.length - 1]!.kind === "space") line.pop();
  return { lines, base, endsHard };
}

/** A PDF text string of any text: UTF-16BE, in hex. */
export function pdfTextString(text: string): string {
  let hex = "FEFF";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `<${hex}>`;
}

/**
 * Draws text inside a marked-content span whose /ActualText is `actual`. The span goes inside pdfkit's text
 * object (BT … ET), not around it: pdfkit draws text under a transformation of its own, and a span outside it
 * ends under another one, which made pdftotext put each span's text on a line of its own, bottom to top.
 */
export function withActualText(doc: Doc, actual: string, draw: () => void) {
  const d = doc as unknown as { addContent(s: string): Doc };
  const addContent = d.addContent;
  const own = Object.hasOwn(d, "addContent");
  d.addContent = function (this: Doc, content: string) {
    if (content === "ET") addContent.call(this, "EMC");
    addContent.call(this, content);
    if (content === "BT") addContent.call(this, `/Span <</ActualText ${pdfTextString(actual)}>> BDC`);
    return this;
  };
  try {
    draw();
  } finally {
    if (own) d.addContent = addContent;
    else delete (d as Partial<typeof d>).addContent;
  }
}

/** Whether a paragraph's runs need `writeOwnLines`: a script font (shaped as a whole) or right-to-left text. */
function needsOwnLines(pieces: FontPiece[]): boolean {
  return pieces.some((p) => p.script) || hasRightToLeft(pieces.map((p) => p.text).join(""));
}

/**
 * A paragraph in Tamil, Arabic, Hebrew or Chinese (or with any of them), laid out here: lines broken at spaces
 * and between Chinese characters (not before closing punctuation), each line reordered by the Unicode
 * Bidirectional Algorithm and drawn in visual order, word by word: a right-to-left word is handed to fontkit
 * in logical order and comes out shaped and reversed; spaces are gaps, not glyphs (pdftotext then reads a
 * right-to-left line back in logical order). A right-to-left paragraph starts at the right ("left", the
 * default alignment, means its start). Tamil words carry their text as /ActualText, since their vowel signs are
 * drawn before the consonant.
 */
function writeOwnLines(doc: Doc, runs: Run[], opts: RunOptions) {
  const { lines, base, endsHard } = ownLines(doc, runs, opts);
  const leading = opts.leading ?? DAT_LAYOUT.lineHeight;
  const align = base === 1 ? (opts.align === "left" ? "right" : opts.align === "right" ? "left" : opts.align) : opts.align;
  const startsRight = base === 1;
  lines.forEach((line, index) => {
    const maxSize = Math.max(textPt(opts.size), ...line.map((t) => t.piece.size));
    const height = maxSize * leading;
    if (doc.y + height > bottom(doc)) doc.addPage();
    const visual = visualOrder(line);
    const total = visual.reduce((sum, t) => sum + t.width, 0);
    const spaces = visual.filter((t) => t.kind === "space").length;
    const justify = opts.align === "justify" && !endsHard[index] && spaces > 0;
    const extra = justify ? Math.max(0, opts.width - total) / spaces : 0;
    const free = opts.width - total;
    let x = opts.x + (justify ? 0 : align === "center" ? free / 2 : align === "right" || (align === "justify" && startsRight) ? free : 0);
    const y = doc.y;
    doc.font(fontName(opts.font)).fontSize(maxSize);
    const baseline = y + (height - doc.currentLineHeight()) / 2 + ascender(doc);
    // Neighbouring words of one piece at one left-to-right level (Chinese characters) are drawn as one.
    const units: { tokens: Token[]; width: number }[] = [];
    for (const token of visual) {
      const last = units[units.length - 1];
      const head = last?.tokens[0];
      if (last && head && token.kind === "word" && head.kind === "word" && head.piece === token.piece && head.level === token.level && token.level % 2 === 0) {
        last.tokens.push(token);
        last.width += token.width;
      } else units.push({ tokens: [token], width: token.width + (token.kind === "space" ? extra : 0) });
    }
    for (const unit of units) {
      const head = unit.tokens[0]!;
      const run = head.piece.run;
      const decorated = !!(run.underline || run.strike || run.link);
      if (head.kind === "word" || decorated) {
        const text = unit.tokens.map((t) => t.text).join("");
        doc.font(head.piece.font).fontSize(head.piece.size);
        const top = baseline - ascender(doc);
        doc.fillColor(run.link ? "#1a4b8c" : "black");
        const shaped = head.kind === "word" ? textForShaping(text, head.level) : text;
        // Tamil, and a mirrored bracket (its glyph is the other bracket's), say what they are.
        const mirrored = head.level % 2 === 1 && !shapedRightToLeft(text) && shaped !== text;
        const draw = () => doc.text(shaped, x, top, { lineBreak: false, underline: !!run.underline, strike: !!run.strike, link: run.link ?? null });
        if (head.kind === "word" && (needsActualText(text) || mirrored)) withActualText(doc, text, draw);
        else draw();
      }
      x += unit.width;
    }
    doc.fillColor("black");
    doc.x = opts.x;
    doc.y = y + height;
  });
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
  if (needsOwnLines(pieces)) {
    writeOwnLines(doc, visible, opts);
    return;
  }
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
  // A right-to-left paragraph is indented from the right, its list marker on the right.
  const rtl = isRightToLeftParagraph(doc, block.runs);
  const x = rtl ? left : left + block.indent * indentPt;
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
      tagged(doc, tags, item, "Lbl", () => writeMarker(doc, block, font, rtl ? x + w + indentPt : x, y, indentPt, rtl));
      doc.y = y;
    }
    const body = doc.struct("LBody");
    item.add(body);
    tags.lists[tags.lists.length - 1]!.body = body;
    tagged(doc, tags, body, "P", () => writeRuns(doc, block.runs, { x, width: w, align: block.align, size: block.size, font }));
  } else {
    if (block.marker) {
      const y = doc.y;
      writeMarker(doc, block, font, rtl ? x + w + indentPt : x, y, indentPt, rtl);
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

/** A list marker in the indent before a paragraph's start (`x`): at its left, or at its right when `rtl`. */
function writeMarker(doc: Doc, block: Extract<Block, { kind: "paragraph" }>, font: FontFamily, x: number, y: number, indentPt: number, rtl = false) {
  const size = textPt(block.size);
  const pieces = fontPieces(block.marker!, font);
  doc.font(pieces[0]!.font).fontSize(size);
  const top = y + (lineHeight(block.size) - doc.currentLineHeight(true)) / 2;
  if (rtl) doc.text(block.marker!, x - indentPt + 6 * PX, top, { width: indentPt - 6 * PX, align: "left", lineBreak: false });
  else doc.text(block.marker!, x - indentPt, top, { width: indentPt - 6 * PX, align: "right", lineBreak: false });
}

/** Whether a paragraph runs right to left (its first strong character, or the document's language). */
function isRightToLeftParagraph(doc: Doc, runs: Run[]): boolean {
  const text = runs.map((r) => r.text).join("");
  const lang = documentLanguage.get(doc);
  if (!hasRightToLeft(text) && !isRightToLeftLanguage(lang)) return false;
  return paragraphLevels(text, lang).base === 1;
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
      if (needsOwnLines(pieces)) return ownLines(doc, [{ text: t, bold }], opts(i, bold)).lines.length * lineHeight(block.size);
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

/** A drawn signature: the image at its size, a figure with its alternative text (an artifact outside the tags). */
function writeImage(doc: Doc, block: Extract<Block, { kind: "image" }>, width: number, left: number, tags: Tags | null) {
  closeLists(tags, 0);
  const indent = block.indent * DAT_LAYOUT.listIndentPx * PX;
  const w = Math.min(block.width, width - indent);
  const h = block.height * (w / block.width);
  if (doc.y + h > bottom(doc)) doc.addPage();
  const x = left + indent + (block.align === "center" ? (width - indent - w) / 2 : block.align === "right" ? width - indent - w : 0);
  const y = doc.y;
  const draw = () => doc.image(Buffer.from(block.png), x, y, { width: w, height: h });
  if (tags) {
    const figure = doc.struct("Figure", { alt: block.alt });
    tags.parent.add(figure);
    const content = doc.markStructureContent("Figure");
    draw();
    doc.endMarkedContent();
    figure.add(content);
    figure.end();
  } else draw();
  doc.x = left;
  doc.y = y + h + 2 * PX;
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
      case "image":
        writeImage(doc, block, width, left, tags);
        break;
    }
  });
  closeLists(tags, 0);
}

/** Height of header or footer blocks, measured on a scratch document's terms (line counts × line heights). */
function blocksHeight(blocks: Block[]) {
  return blocks.reduce((sum, b) => sum + (b.kind === "image" ? b.height : b.kind === "paragraph" ? lineHeight(b.size) * Math.max(1, b.runs.map((r) => r.text).join("").split("\n").length) : b.kind === "heading" ? textPt(b.size) * DAT_LAYOUT.headingLineHeight : 0), 0);
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
      documentLanguage.set(doc, meta.lang);
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
