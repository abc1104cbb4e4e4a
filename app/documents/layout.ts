/**
 * A text template with its answers → a printable document model (paragraphs of styled runs, headings, lists,
 * tables, page breaks, header and footer). The PDF writer only lays this model out. Pure: no I/O.
 */
import type { Element, ElementContent, Root, RootContent } from "hast";
import rehypeParse from "rehype-parse";
import { unified } from "unified";
import type { Answers, DateLocale } from "~/a2j";
import { drawnSize, fillOf, SIGNATURE_LINE, type SignatureFills } from "./signatures";
import type { TemplateNode, TextTemplate, TitleTag } from "./template";
import { evalCondition, loopCount, variableText } from "./values";

export type FontFamily = "serif" | "sans" | "mono";
export type Align = "left" | "center" | "right" | "justify";

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  /** Points; unset = the paragraph's size. */
  size?: number;
  font?: FontFamily;
  link?: string;
}

/** Sizes are CSS pixels, as A2J DAT's templates give them (`fontSize` 12 = `font-size: 12px`); the PDF writer scales them. */
export type Block =
  /**
   * `heading`: the level of a rich-text `<h1>`…`<h6>` (a heading to assistive technology); `list`: which list an
   * item (a paragraph with a marker) belongs to, so that two lists one after the other stay two.
   */
  | { kind: "paragraph"; runs: Run[]; align: Align; indent: number; marker?: string; size: number; heading?: number; list?: number }
  | { kind: "heading"; text: string; level: number; size: number; underline: boolean }
  | { kind: "table"; columns: { title: string; width: number }[]; rows: string[][]; style: "bordered" | "condensed" | "striped"; size: number }
  | { kind: "page-break" }
  /** A drawn signature (issue 30): a PNG, its size in points, its alternative text. */
  | { kind: "image"; png: Uint8Array; width: number; height: number; alt: string; align: Align; indent: number };

export type PageSize = "a4" | "letter";

export interface TextDocument {
  title: string;
  /** A2J DAT prints on A4 (wkhtmltopdf's default page); a template or guide may ask for US Letter. */
  pageSize: PageSize;
  font: FontFamily;
  size: number;
  blocks: Block[];
  header: Block[];
  footer: Block[];
  hideHeaderOnFirstPage: boolean;
  hideFooterOnFirstPage: boolean;
}

/** A template's font family → one of the embedded families. */
export function fontFamily(name: string | undefined): FontFamily {
  const n = (name ?? "").toLowerCase();
  if (/mono|courier|consol/.test(n)) return "mono";
  if (/times|serif|georgia|garamond|cambria|book/.test(n) && !/sans/.test(n)) return "serif";
  return "sans";
}

/**
 * Heading sizes in CSS pixels: A2J's Bootstrap theme (a2jauthor styles/bootstrap-overrides/typography.less) gives
 * h1–h6 fixed sizes from its 14px base (36, 30, 24, 18, 14, 12), whatever the template's font size.
 */
export const HEADING_PX: Record<TitleTag, number> = { h1: 36, h2: 30, h3: 24, h4: 18, h5: 14, h6: 12 };

/** Section numbers as CSS list-style-type would print them. */
export function counterText(n: number, style: string): string {
  const alpha = (k: number) => {
    let s = "";
    for (let x = k; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(97 + ((x - 1) % 26)) + s;
    return s;
  };
  const roman = (k: number) => {
    const table: [number, string][] = [[1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"], [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]];
    let s = "";
    let x = k;
    for (const [v, r] of table) while (x >= v) { s += r; x -= v; }
    return s;
  };
  switch (style) {
    case "lower-alpha":
    case "lower-latin":
      return alpha(n);
    case "upper-alpha":
    case "upper-latin":
      return alpha(n).toUpperCase();
    case "lower-roman":
      return roman(n);
    case "upper-roman":
      return roman(n).toUpperCase();
    default:
      return String(n);
  }
}

function bulletFor(style: string, depth: number, n: number): string {
  switch (style) {
    case "decimal":
    case "lower-alpha":
    case "upper-alpha":
    case "lower-roman":
    case "upper-roman":
    case "lower-latin":
    case "upper-latin":
      return `${counterText(n, style)}.`;
    case "circle":
      return "◦";
    case "square":
      return "▪";
    case "none":
      return "";
    default:
      return depth % 3 === 0 ? "•" : depth % 3 === 1 ? "◦" : "▪";
  }
}

const parser = unified().use(rehypeParse, { fragment: true });

let lists = 0;
/** A new list's number (only ever compared with its neighbours'). */
function nextList() {
  lists = (lists + 1) % Number.MAX_SAFE_INTEGER;
  return lists;
}

function parseHtml(html: string): Root {
  return parser.parse(html) as Root;
}

interface Style {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  size?: number;
  font?: FontFamily;
  link?: string;
}

function styleOf(el: Element, parent: Style): Style {
  const s: Style = { ...parent };
  switch (el.tagName) {
    case "strong":
    case "b":
    case "th":
      s.bold = true;
      break;
    case "em":
    case "i":
      s.italic = true;
      break;
    case "u":
    case "ins":
      s.underline = true;
      break;
    case "s":
    case "strike":
    case "del":
      s.strike = true;
      break;
    case "a":
      if (typeof el.properties?.href === "string" && /^(https?:|mailto:)/i.test(el.properties.href)) {
        s.link = el.properties.href;
        s.underline = true;
      }
      break;
  }
  const css = typeof el.properties?.style === "string" ? el.properties.style : "";
  for (const decl of css.split(";")) {
    const [prop, ...rest] = decl.split(":");
    const value = rest.join(":").trim().toLowerCase();
    switch (prop?.trim().toLowerCase()) {
      case "font-size": {
        // Sizes are kept in CSS pixels: 1pt = 4/3 px.
        const m = /^([\d.]+)(px|pt)?$/.exec(value);
        if (m) s.size = Math.min(96, Math.max(5, Number(m[1]) * (m[2] === "pt" ? 4 / 3 : 1)));
        break;
      }
      case "font-family":
        s.font = fontFamily(value);
        break;
      case "font-weight":
        s.bold = value === "bold" || Number(value) >= 600;
        break;
      case "font-style":
        s.italic = value === "italic" || value === "oblique";
        break;
      case "text-decoration":
      case "text-decoration-line":
        if (value.includes("underline")) s.underline = true;
        if (value.includes("line-through")) s.strike = true;
        break;
    }
  }
  return s;
}

function alignOf(el: Element, fallback: Align): Align {
  const css = typeof el.properties?.style === "string" ? el.properties.style : "";
  const m = /text-align\s*:\s*(left|center|right|justify)/i.exec(css);
  if (m) return m[1]!.toLowerCase() as Align;
  const attr = el.properties?.align;
  return typeof attr === "string" && /^(left|center|right|justify)$/i.test(attr) ? (attr.toLowerCase() as Align) : fallback;
}

function sameStyle(a: Run, b: Run): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.strike === b.strike && a.size === b.size && a.font === b.font && a.link === b.link;
}

/** Neighbouring runs of one style as one (fewer text fragments: cleaner alignment and smaller files). */
export function mergeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const last = out[out.length - 1];
    if (last && sameStyle(last, run)) out[out.length - 1] = { ...last, text: last.text + run.text };
    else out.push(run);
  }
  return out;
}

const BLOCK_TAGS = new Set([
  "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "table", "thead", "tbody", "tfoot", "tr",
  "pre", "hr", "section", "article", "header", "footer", "address", "figure", "dl", "dt", "dd",
]);

interface Context {
  answers: Answers;
  /** How the person's country writes dates. */
  dates?: DateLocale;
  /** Loop iteration (1-based index into values) for variables inside a loop. */
  index?: number;
  size: number;
  /** What signature places and their dates print (app/documents/signatures.ts), by lower-cased variable name. */
  fills?: SignatureFills;
}

/** Renders rich text (HTML with `<a2j-variable>`) into blocks. */
export function richTextBlocks(html: string, ctx: Context): Block[] {
  const blocks: Block[] = [];
  let runs: Run[] = [];
  let align: Align = "left";
  let indent = 0;
  let marker: string | undefined;
  let heading: number | undefined;
  let list: number | undefined;

  const flush = (keepEmpty: boolean) => {
    // HTML collapses white space: trim the paragraph's ends, keep the no-break spaces authors type.
    const first = runs.findIndex((r) => r.text.replace(/[ \t\r\n]+/g, "") !== "");
    if (first < 0) {
      // Nothing printed yet: a list marker waits for the paragraph that follows it (`<li><p>…`).
      if (keepEmpty) {
        blocks.push({ kind: "paragraph", runs: [], align, indent, marker, size: ctx.size, ...(marker !== undefined ? { list } : {}) });
        marker = undefined;
      }
      runs = [];
      return;
    }
    const kept = runs.slice(first);
    kept[0] = { ...kept[0]!, text: kept[0]!.text.replace(/^[ \t\r\n]+/, "") };
    const last = kept.length - 1;
    kept[last] = { ...kept[last]!, text: kept[last]!.text.replace(/[ \t\r\n]+$/, "") };
    blocks.push({ kind: "paragraph", runs: mergeRuns(kept.filter((r) => r.text !== "")), align, indent, marker, size: ctx.size, ...(heading ? { heading } : {}), ...(marker !== undefined ? { list } : {}) });
    runs = [];
    marker = undefined;
  };

  const text = (value: string, style: Style) => {
    const collapsed = value.replace(/[ \t\r\n]+/g, " ");
    const prev = runs[runs.length - 1];
    // Collapse a space that follows a space (or a line break) in the previous run.
    const t = prev && /[ \n]$/.test(prev.text) && collapsed.startsWith(" ") ? collapsed.slice(1) : collapsed;
    if (t) runs.push({ text: t, ...style });
  };

  const inline = (nodes: readonly (RootContent | ElementContent)[], style: Style, depth: number) => {
    for (const n of nodes) {
      if (n.type === "text") text(n.value, style);
      else if (n.type === "element") element(n, style, depth);
    }
  };

  const element = (el: Element, parent: Style, depth: number) => {
    const style = styleOf(el, parent);
    const tag = el.tagName;
    if (tag === "a2j-variable") {
      const name = typeof el.properties?.name === "string" ? el.properties.name : "";
      const fill = fillOf(ctx.fills, name);
      if (fill) {
        switch (fill.kind) {
          case "blank":
            runs.push({ text: SIGNATURE_LINE, ...style });
            break;
          case "date":
            runs.push({ text: fill.text, ...style });
            break;
          case "typed":
            runs.push({ text: fill.signature, ...style }, { text: "\n", ...style }, { text: fill.caption, ...style });
            break;
          case "drawn": {
            // The image on a line of its own, where the signature goes; the words under it.
            const keep = { align, indent };
            flush(false);
            blocks.push({ kind: "image", png: fill.png, ...drawnSize(fill), alt: fill.alt, align: keep.align, indent: keep.indent });
            runs.push({ text: fill.caption, ...style });
            break;
          }
        }
        return;
      }
      const value = name ? variableText(ctx.answers, name, ctx.index, ctx.dates) : null;
      if (value !== null) runs.push({ text: value, ...style });
      else runs.push({ text: "\u00a0".repeat(Math.min(24, Math.max(8, name.length))), ...style });
      return;
    }
    if (tag === "br") {
      runs.push({ text: "\n", ...style });
      return;
    }
    if (tag === "script" || tag === "style" || tag === "img" || tag === "template") return;
    if (!BLOCK_TAGS.has(tag)) {
      inline(el.children, style, depth);
      return;
    }
    // A block element ends the current paragraph.
    flush(false);
    if (tag === "hr") return;
    if (tag === "ul" || tag === "ol") {
      let n = 0;
      const outer = list;
      const id = nextList();
      const type = typeof el.properties?.type === "string" ? el.properties.type : "";
      const listStyle = tag === "ol" ? ({ a: "lower-alpha", A: "upper-alpha", i: "lower-roman", I: "upper-roman" }[type] ?? "decimal") : "disc";
      for (const li of el.children) {
        if (li.type !== "element" || li.tagName !== "li") continue;
        n++;
        const before = indent;
        indent = before + 1;
        marker = bulletFor(listStyle, depth, n);
        list = id;
        align = "left";
        inline(li.children, styleOf(li, style), depth + 1);
        if (marker !== undefined || runs.some((r) => r.text.replace(/[ \t\r\n]+/g, "") !== "")) flush(true);
        else runs = [];
        indent = before;
      }
      list = outer;
      return;
    }
    if (/^h[1-6]$/.test(tag)) {
      // A2J's theme sets headings at weight 300 (typography.less): Arial and Times have no light face, so they print regular.
      const size = HEADING_PX[tag as TitleTag];
      align = alignOf(el, "left");
      heading = Number(tag[1]);
      inline(el.children, { ...style, size }, depth);
      flush(false);
      heading = undefined;
      align = "left";
      return;
    }
    if (tag === "tr") {
      align = "left";
      let firstCell = true;
      for (const cell of el.children) {
        if (cell.type !== "element" || (cell.tagName !== "td" && cell.tagName !== "th")) continue;
        if (!firstCell) runs.push({ text: "    ", ...style });
        firstCell = false;
        inline(cell.children, styleOf(cell, style), depth);
      }
      flush(false);
      return;
    }
    const saved = align;
    align = alignOf(el, align);
    const indentBefore = indent;
    if (tag === "blockquote" || tag === "dd") indent += 1;
    if (tag === "table" || tag === "thead" || tag === "tbody" || tag === "tfoot" || tag === "li") {
      for (const c of el.children) if (c.type === "element") element(c, style, depth);
    } else inline(el.children, style, depth);
    flush(false);
    align = saved;
    indent = indentBefore;
  };

  inline(parseHtml(html).children, {}, 0);
  flush(false);
  return blocks;
}

/** The document of a text template for a set of answers. */
export function layoutTextTemplate(template: TextTemplate, answers: Answers, dates?: DateLocale, pageSize: PageSize = "a4", fills?: SignatureFills): TextDocument {
  const size = template.fontSize;
  const blocks: Block[] = [];
  let section = 0;
  const walk = (nodes: TemplateNode[]) => {
    for (const node of nodes) {
      switch (node.tag) {
        case "rich-text":
          blocks.push(...richTextBlocks(node.html, { answers, dates, size, fills }));
          break;
        case "section-title": {
          section++;
          const number = template.sectionCounter === "none" ? "" : `${counterText(section, template.sectionCounter)}. `;
          blocks.push({ kind: "heading", text: number + node.title, level: Number(node.titleTag[1]), size: HEADING_PX[node.titleTag], underline: node.underline });
          break;
        }
        case "page-break":
          blocks.push({ kind: "page-break" });
          break;
        case "conditional":
          walk(evalCondition(node.condition, answers) ? node.then : (node.else ?? []));
          break;
        case "repeat-loop": {
          const count = loopCount(node, answers);
          if (node.loopTitle) {
            blocks.push({ kind: "heading", text: node.loopTitle, level: Number(node.loopTitleTag[1]), size: HEADING_PX[node.loopTitleTag], underline: false });
          }
          const at = (name: string, i: number) => variableText(answers, name, i, dates) ?? "";
          if (node.displayType === "table") {
            const total = node.tableColumns.reduce((sum, c) => sum + Math.max(0, c.width), 0);
            const columns = node.tableColumns.map((c) => ({
              title: c.column,
              width: total > 0 ? Math.max(0, c.width) / total : 1 / node.tableColumns.length,
            }));
            const rows = Array.from({ length: count }, (_, i) => node.tableColumns.map((c) => at(c.variable, i + 1)));
            if (columns.length) blocks.push({ kind: "table", columns, rows, style: node.tableStyle, size });
          } else if (node.displayType === "list") {
            const label = (item: { variable: string; item: string }, i: number) => {
              const value = at(item.variable, i);
              return item.item ? `${item.item}: ${value}` : value;
            };
            let id = nextList();
            for (let i = 1; i <= count; i++) {
              if (node.repeatEachInOneList) {
                // One list for the whole loop: one entry per iteration.
                blocks.push({
                  kind: "paragraph",
                  runs: [{ text: node.listItems.map((item) => label(item, i)).join("; ") }],
                  align: "left",
                  indent: 1,
                  marker: bulletFor(node.listStyleType, 0, i),
                  size,
                  list: id,
                });
              } else {
                // One list per iteration: one entry per item.
                node.listItems.forEach((item, k) => {
                  blocks.push({ kind: "paragraph", runs: [{ text: label(item, i) }], align: "left", indent: 1, marker: bulletFor(node.listStyleType, 0, k + 1), size, list: id });
                });
                if (i < count) blocks.push({ kind: "paragraph", runs: [], align: "left", indent: 0, size });
                id = nextList();
              }
            }
          } else {
            for (let i = 1; i <= count; i++) blocks.push(...richTextBlocks(node.loopRichText, { answers, dates, index: i, size, fills }));
          }
          break;
        }
      }
    }
  };
  walk(template.children);
  const small = Math.max(7, size * 0.8);
  return {
    title: template.title,
    pageSize: template.pageSize ?? pageSize,
    font: fontFamily(template.fontFamily),
    size,
    blocks,
    header: template.header.trim() ? richTextBlocks(template.header, { answers, dates, size: small, fills }) : [],
    footer: template.footer.trim() ? richTextBlocks(template.footer, { answers, dates, size: small, fills }) : [],
    hideHeaderOnFirstPage: template.hideHeaderOnFirstPage,
    hideFooterOnFirstPage: template.hideFooterOnFirstPage,
  };
}

/** The plain text of blocks (for tests and logs). */
export function blocksText(blocks: Block[]): string {
  return blocks
    .map((b) => {
      switch (b.kind) {
        case "paragraph":
          return (b.marker ? `${b.marker} ` : "") + b.runs.map((r) => r.text).join("");
        case "heading":
          return b.text;
        case "table":
          return [b.columns.map((c) => c.title).join(" | "), ...b.rows.map((r) => r.join(" | "))].join("\n");
        case "page-break":
          return "\f";
        case "image":
          return `[${b.alt}]`;
      }
    })
    .join("\n");
}
