/**
 * A small, strict-enough XML parser for Guide.xml and ANX answer files.
 * Supports elements, attributes (single or double quoted), text, the five predefined entities,
 * numeric character references, CDATA, comments, processing instructions and a DOCTYPE (skipped).
 * Errors are returned as values with a line number.
 */
import type { Result } from "./types";

export interface XmlElement {
  kind: "element";
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export interface XmlText {
  kind: "text";
  text: string;
  /** true when the text came from a CDATA section. */
  cdata?: boolean;
}
export type XmlNode = XmlElement | XmlText;

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  // Common HTML entities tolerated in hand-edited guides.
  nbsp: "\u00a0",
};

function isNameStart(c: string): boolean {
  return /[A-Za-z_:\u00c0-\uffff]/.test(c);
}
function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_:.\-\u00b7\u00c0-\uffff]/.test(c);
}

class XmlError {
  constructor(
    public message: string,
    public pos: number,
  ) {}
}

/** Decode entity and character references in text. Unknown entities are kept verbatim. */
export function decodeEntities(s: string): string {
  if (s.indexOf("&") < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) {
      const cp = parseInt(ref.slice(2), 16);
      return validCodePoint(cp) ? String.fromCodePoint(cp) : whole;
    }
    if (ref.startsWith("#")) {
      const cp = parseInt(ref.slice(1), 10);
      return validCodePoint(cp) ? String.fromCodePoint(cp) : whole;
    }
    const named = NAMED_ENTITIES[ref];
    return named ?? whole;
  });
}

function validCodePoint(cp: number): boolean {
  return Number.isFinite(cp) && cp >= 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
}

/** Escape text for XML/HTML element content. */
export function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
/** Escape text for a double-quoted attribute value. */
export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

function lineOf(src: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

/** Parse an XML document. Returns the root element. */
export function parseXml(src: string): Result<XmlElement> {
  try {
    return { ok: true, value: new Parser(src).document() };
  } catch (e) {
    if (e instanceof XmlError) {
      return { ok: false, error: `XML error at line ${lineOf(src, e.pos)}: ${e.message}` };
    }
    return { ok: false, error: `XML error: ${String(e)}` };
  }
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  private fail(msg: string): never {
    throw new XmlError(msg, this.pos);
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  private skipWs(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos] ?? "")) this.pos++;
  }

  private skipUntil(end: string, what: string): void {
    const i = this.src.indexOf(end, this.pos);
    if (i < 0) this.fail(`unterminated ${what}`);
    this.pos = i + end.length;
  }

  /** Skips prolog items (XML declaration, comments, PIs, DOCTYPE, whitespace). */
  private misc(): void {
    for (;;) {
      this.skipWs();
      if (this.startsWith("<?")) this.skipUntil("?>", "processing instruction");
      else if (this.startsWith("<!--")) this.skipUntil("-->", "comment");
      else if (this.startsWith("<!DOCTYPE") || this.startsWith("<!doctype")) this.skipDoctype();
      else return;
    }
  }

  private skipDoctype(): void {
    let depth = 0;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "[") depth++;
      else if (c === "]") depth--;
      else if (c === ">" && depth <= 0) {
        this.pos++;
        return;
      }
      this.pos++;
    }
    this.fail("unterminated DOCTYPE");
  }

  document(): XmlElement {
    this.misc();
    if (this.src[this.pos] !== "<") this.fail("expected a root element");
    const root = this.element();
    this.misc();
    if (this.pos < this.src.length) this.fail("content after the root element");
    return root;
  }

  private name(): string {
    const start = this.pos;
    if (!isNameStart(this.src[this.pos] ?? "")) this.fail("expected a name");
    this.pos++;
    while (this.pos < this.src.length && isNameChar(this.src[this.pos] ?? "")) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private element(): XmlElement {
    // at "<"
    this.pos++;
    const name = this.name();
    const attrs: Record<string, string> = {};
    for (;;) {
      const before = this.pos;
      this.skipWs();
      if (this.startsWith("/>")) {
        this.pos += 2;
        return { kind: "element", name, attrs, children: [] };
      }
      if (this.startsWith(">")) {
        this.pos++;
        break;
      }
      if (this.pos === before) this.fail(`expected whitespace, ">" or "/>" in <${name}>`);
      const an = this.name();
      this.skipWs();
      if (this.src[this.pos] !== "=") this.fail(`expected "=" after attribute ${an}`);
      this.pos++;
      this.skipWs();
      const q = this.src[this.pos];
      if (q !== '"' && q !== "'") this.fail(`expected a quoted value for attribute ${an}`);
      const end = this.src.indexOf(q, this.pos + 1);
      if (end < 0) this.fail(`unterminated value of attribute ${an}`);
      const raw = this.src.slice(this.pos + 1, end);
      if (raw.includes("<")) this.fail(`"<" in value of attribute ${an}`);
      if (Object.prototype.hasOwnProperty.call(attrs, an)) this.fail(`duplicate attribute ${an}`);
      attrs[an] = decodeEntities(raw);
      this.pos = end + 1;
    }
    const children: XmlNode[] = [];
    for (;;) {
      if (this.pos >= this.src.length) this.fail(`unclosed element <${name}>`);
      if (this.startsWith("</")) {
        this.pos += 2;
        const close = this.name();
        if (close !== name) this.fail(`mismatched closing tag </${close}>, expected </${name}>`);
        this.skipWs();
        if (this.src[this.pos] !== ">") this.fail(`expected ">" in </${close}>`);
        this.pos++;
        return { kind: "element", name, attrs, children };
      }
      if (this.startsWith("<!--")) {
        this.skipUntil("-->", "comment");
        continue;
      }
      if (this.startsWith("<![CDATA[")) {
        const start = this.pos + 9;
        const end = this.src.indexOf("]]>", start);
        if (end < 0) this.fail("unterminated CDATA section");
        children.push({ kind: "text", text: this.src.slice(start, end), cdata: true });
        this.pos = end + 3;
        continue;
      }
      if (this.startsWith("<?")) {
        this.skipUntil("?>", "processing instruction");
        continue;
      }
      if (this.src[this.pos] === "<") {
        children.push(this.element());
        continue;
      }
      const next = this.src.indexOf("<", this.pos);
      const end = next < 0 ? this.src.length : next;
      const raw = this.src.slice(this.pos, end);
      this.pos = end;
      const text = decodeEntities(raw);
      const last = children[children.length - 1];
      if (last && last.kind === "text" && !last.cdata) last.text += text;
      else children.push({ kind: "text", text });
    }
  }
}

/** The concatenated text content of a node. */
export function textContent(node: XmlNode): string {
  if (node.kind === "text") return node.text;
  let s = "";
  for (const c of node.children) s += textContent(c);
  return s;
}

const VOID_HTML = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);

/**
 * Serialise a node back to markup (text escaped, attributes double-quoted). Empty elements are written `<X/>`;
 * with `html`, only HTML void elements are (`<BR/>`), others as `<DIV></DIV>` so browsers do not leave them open.
 */
export function serializeNode(node: XmlNode, html = false): string {
  if (node.kind === "text") return escapeText(node.text);
  let s = "<" + node.name;
  for (const [k, v] of Object.entries(node.attrs)) s += ` ${k}="${escapeAttr(v)}"`;
  if (node.children.length === 0) {
    if (!html || VOID_HTML.has(node.name.toLowerCase())) return s + "/>";
    return s + "></" + node.name + ">";
  }
  s += ">";
  for (const c of node.children) s += serializeNode(c, html);
  return s + "</" + node.name + ">";
}

/** The inner markup of an element (its children serialised; see `serializeNode` for `html`). */
export function innerXml(el: XmlElement, html = false): string {
  let s = "";
  for (const c of el.children) s += serializeNode(c, html);
  return s;
}

/** Child elements, optionally only those whose name matches (case-insensitive). */
export function childElements(el: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  const lower = name?.toLowerCase();
  for (const c of el.children) {
    if (c.kind === "element" && (lower === undefined || c.name.toLowerCase() === lower)) out.push(c);
  }
  return out;
}

/** First child element with the given name (case-insensitive). */
export function childElement(el: XmlElement, name: string): XmlElement | undefined {
  return childElements(el, name)[0];
}

/** Attribute lookup, case-insensitive. */
export function attr(el: XmlElement, name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(el.attrs, name)) return el.attrs[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(el.attrs)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const BLOCK_HTML = new Set([
  "p", "div", "br", "ul", "ol", "li", "table", "thead", "tbody", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6",
  "blockquote", "hr", "option", "select", "pre", "section", "article", "header", "footer", "dl", "dt", "dd",
]);

/**
 * Remove pretty-printing from HTML held in an XML element: whitespace-only text that contains a line break is
 * dropped at the start and end of an element and next to block elements, and becomes one space elsewhere.
 * (Guide.xml files written by some tools are indented; A2J's own editor never puts such whitespace in.)
 */
export function stripFormattingWhitespace(el: XmlElement): XmlElement {
  const children: XmlNode[] = [];
  const src = el.children;
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as XmlNode;
    if (c.kind === "element") {
      children.push(c.name.toLowerCase() === "pre" ? c : stripFormattingWhitespace(c));
      continue;
    }
    if (c.cdata || c.text.trim() !== "" || !c.text.includes("\n")) {
      children.push(c);
      continue;
    }
    const prev = src[i - 1];
    const next = src[i + 1];
    const isBlock = (n: XmlNode | undefined) => n?.kind === "element" && BLOCK_HTML.has(n.name.toLowerCase());
    if (!prev || !next || isBlock(prev) || isBlock(next)) continue;
    children.push({ kind: "text", text: " " });
  }
  return { ...el, children };
}
