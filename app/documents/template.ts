/**
 * A2J DAT templates (docs/a2j-formats.md): `templates.json` (assembly order) and `templateN.json` (a text template,
 * `a2j-template`, or a PDF overlay template, `a2j-pdf`). A2J stores booleans as booleans or as the strings
 * "true"/"false"; the parser normalises them and drops nodes it does not know. Pure: no I/O.
 */

export type CondOp = "is-true" | "is-false" | "is-equal" | "is-not-equal" | "is-greater-than" | "is-less-than";
export const COND_OPS: readonly CondOp[] = ["is-true", "is-false", "is-equal", "is-not-equal", "is-greater-than", "is-less-than"];

export interface Condition {
  operator: CondOp;
  leftOperand: string;
  rightOperand: string;
  rightOperandType: "variable" | "text";
}

export type TitleTag = "h1" | "h2" | "h3" | "h4" | "h5" | "h6";

export type TemplateNode =
  | { tag: "rich-text"; html: string }
  | { tag: "conditional"; condition: Condition; then: TemplateNode[]; else: TemplateNode[] | null }
  | {
      tag: "repeat-loop";
      loopType: "counter" | "variable";
      loopCounter: number;
      loopVariable: string;
      displayType: "table" | "list" | "text";
      tableColumns: { variable: string; column: string; width: number }[];
      tableStyle: "bordered" | "condensed" | "striped";
      listItems: { variable: string; item: string }[];
      listStyleType: string;
      repeatEachInOneList: boolean;
      loopRichText: string;
      loopTitle: string;
      loopTitleTag: TitleTag;
    }
  | { tag: "section-title"; title: string; titleTag: TitleTag; underline: boolean }
  | { tag: "page-break" };

export interface TemplateBase {
  templateId: number;
  title: string;
  active: boolean;
  header: string;
  footer: string;
  hideHeaderOnFirstPage: boolean;
  hideFooterOnFirstPage: boolean;
  /** The template-level include condition, or null when the template is always included. */
  condition: Condition | null;
}

export interface TextTemplate extends TemplateBase {
  kind: "text";
  fontFamily: string;
  fontSize: number;
  /** Our addition: `rootNode.state.pageSize` "A4" or "Letter"; null = the guide's (A4 unless it says). */
  pageSize: "a4" | "letter" | null;
  /** "none" or a CSS list-style-type for numbering section titles ("decimal", "upper-roman", …). */
  sectionCounter: string;
  children: TemplateNode[];
}

export interface PdfBox {
  id: string;
  groupId: string;
  page: number;
  area: { top: number; left: number; width: number; height: number };
  variable: string;
  variableValue: string | null;
  isInverted: boolean;
}

export interface PdfVariableOptions {
  overflowStyle: string;
  addendumLabel: string;
  isGroup: boolean;
  isCheck: boolean;
  checkIcon: string;
}

export interface PdfTemplate extends TemplateBase {
  kind: "pdf";
  pages: { domSize: { width: number; height: number }; pdfSize: { width: number; height: number } }[];
  boxes: PdfBox[];
  fontName: string;
  fontSize: number;
  /** Keyed by lower-cased variable name. */
  variableOptions: Record<string, PdfVariableOptions>;
}

/** A Word template (`templateN.docx`, our addition), filled with docxtemplater. */
export interface WordTemplate extends TemplateBase {
  kind: "word";
}

export type Template = TextTemplate | PdfTemplate | WordTemplate;

/** A `templateN.docx` listed in templates.json without a `templateN.json`: always included. */
export function bareWordTemplate(templateId: number): WordTemplate {
  return { kind: "word", templateId, title: "", active: true, header: "", footer: "", hideHeaderOnFirstPage: false, hideFooterOnFirstPage: false, condition: null };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A2J booleans: true, "true" (any case); everything else is false unless `fallback` applies to a missing value. */
export function bool(v: unknown, fallback = false): boolean {
  if (v === undefined || v === null || v === "") return fallback;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.trim().toLowerCase() === "true";
  return false;
}

function str(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return "";
}

function num(v: unknown, fallback: number): number {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

function titleTag(v: unknown, fallback: TitleTag): TitleTag {
  const s = str(v).toLowerCase();
  return /^h[1-6]$/.test(s) ? (s as TitleTag) : fallback;
}

function operator(v: unknown): CondOp | null {
  const s = str(v);
  return (COND_OPS as readonly string[]).includes(s) ? (s as CondOp) : null;
}

function condition(state: Obj): Condition | null {
  const op = operator(state.operator);
  const left = str(state.leftOperand).trim();
  if (!op || !left) return null;
  return {
    operator: op,
    leftOperand: left,
    rightOperand: str(state.rightOperand),
    rightOperandType: state.rightOperandType === "variable" ? "variable" : "text",
  };
}

/** The template-level condition: only when `hasConditionalLogic` is on and the condition is complete. */
function templateCondition(state: unknown): Condition | null {
  if (!isObj(state) || !bool(state.hasConditionalLogic)) return null;
  return condition(state);
}

function children(root: unknown, path: string): TemplateNode[] {
  if (!isObj(root) || !Array.isArray(root.children)) return [];
  return root.children.flatMap((child, i) => node(child, `${path}.${i}`));
}

function node(n: unknown, path: string): TemplateNode[] {
  if (!isObj(n)) return [];
  const state = isObj(n.state) ? n.state : {};
  switch (n.tag) {
    case "a2j-rich-text":
      return [{ tag: "rich-text", html: str(state.userContent) }];
    case "a2j-section-title":
      return [{ tag: "section-title", title: str(state.title), titleTag: titleTag(state.titleTag, "h2"), underline: bool(state.underline) }];
    case "a2j-page-break":
      return [{ tag: "page-break" }];
    case "a2j-conditional": {
      const parts = Array.isArray(n.children) ? n.children : [];
      const body = (i: number) => {
        const part = parts[i];
        return isObj(part) ? children(part.rootNode, `${path}.${i}`) : [];
      };
      const cond = condition(state);
      // A conditional without a complete condition is never true (A2J evaluates the missing operand as blank).
      const c: Condition = cond ?? { operator: "is-true", leftOperand: "", rightOperand: "", rightOperandType: "text" };
      return [{ tag: "conditional", condition: c, then: body(0), else: bool(state.elseClause) ? body(1) : null }];
    }
    case "a2j-repeat-loop": {
      const columns = Array.isArray(state.tableColumns) ? state.tableColumns.filter(isObj) : [];
      const items = Array.isArray(state.listItems) ? state.listItems.filter(isObj) : [];
      const display = str(state.displayType);
      const style = str(state.tableStyle);
      return [
        {
          tag: "repeat-loop",
          loopType: state.loopType === "variable" ? "variable" : "counter",
          loopCounter: Math.max(0, Math.floor(num(state.loopCounter, 0))),
          loopVariable: str(state.loopVariable),
          displayType: display === "list" || display === "text" ? display : "table",
          tableColumns: columns.map((c) => ({ variable: str(c.variable), column: str(c.column), width: num(c.width, 0) })),
          tableStyle: style === "condensed" || style === "striped" ? style : "bordered",
          listItems: items.map((c) => ({ variable: str(c.variable), item: str(c.item) })),
          listStyleType: str(state.listStyleType) || "disc",
          repeatEachInOneList: bool(state.repeatEachInOneList),
          loopRichText: str(state.loopRichText),
          loopTitle: str(state.loopTitle),
          loopTitleTag: titleTag(state.loopTitleTag, "h3"),
        },
      ];
    }
    default:
      // a2j-blank, a2j-legal-nav-resource, conditional-add-element: nothing to print.
      return [];
  }
}

/** `templates.json`: the template ids in assembly order. */
export function parseTemplateList(text: string): Parsed<number[]> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: "templates.json is not valid JSON" };
  }
  if (!isObj(data) || !Array.isArray(data.templateIds)) return { ok: false, error: "templates.json has no templateIds list" };
  const ids = data.templateIds.map((id) => num(id, NaN));
  if (ids.some((id) => !Number.isInteger(id) || id < 0)) return { ok: false, error: "templates.json lists an id that is not a number" };
  return { ok: true, value: ids };
}

/** A `templateN.json` file (text or data). */
export function parseTemplate(input: string | unknown, fallbackId = 0): Parsed<Template> {
  let data: unknown = input;
  if (typeof input === "string") {
    try {
      data = JSON.parse(input);
    } catch {
      return { ok: false, error: "the template is not valid JSON" };
    }
  }
  if (!isObj(data)) return { ok: false, error: "the template is not an object" };
  const root = data.rootNode;
  if (!isObj(root)) return { ok: false, error: "the template has no rootNode" };
  const base: TemplateBase = {
    templateId: num(data.templateId, fallbackId),
    title: str(data.title),
    // A template marked deleted (Author's trash) is never assembled.
    active: bool(data.active, true) && !bool(data.deleted),
    header: str(data.header),
    footer: str(data.footer),
    hideHeaderOnFirstPage: bool(data.hideHeaderOnFirstPage),
    hideFooterOnFirstPage: bool(data.hideFooterOnFirstPage),
    condition: templateCondition(root.state),
  };
  if (root.tag === "a2j-pdf") {
    const options = isObj(root.documentOptions) ? root.documentOptions : {};
    const varOptions = isObj(options.variableOptions) ? options.variableOptions : {};
    const pages = (Array.isArray(root.pages) ? root.pages : []).filter(isObj).map((p) => {
      const dom = isObj(p.domSize) ? p.domSize : {};
      const pdf = isObj(p.pdfSize) ? p.pdfSize : {};
      return {
        domSize: { width: num(dom.width, 0), height: num(dom.height, 0) },
        pdfSize: { width: num(pdf.width, 0), height: num(pdf.height, 0) },
      };
    });
    const boxes: PdfBox[] = (Array.isArray(root.boxes) ? root.boxes : []).filter(isObj).flatMap((b) => {
      const area = isObj(b.area) ? b.area : null;
      if (!area || !str(b.variable).trim()) return [];
      return [
        {
          id: str(b.id),
          groupId: str(b.groupId),
          page: Math.max(0, Math.floor(num(b.page, 0))),
          area: { top: num(area.top, 0), left: num(area.left, 0), width: num(area.width, 0), height: num(area.height, 0) },
          variable: str(b.variable).trim(),
          variableValue: b.variableValue === null || b.variableValue === undefined ? null : str(b.variableValue),
          isInverted: bool(b.isInverted),
        },
      ];
    });
    const variableOptions: Record<string, PdfVariableOptions> = {};
    for (const [key, value] of Object.entries(varOptions)) {
      if (!isObj(value)) continue;
      Object.defineProperty(variableOptions, key.trim().toLowerCase(), {
        value: {
          overflowStyle: str(value.overflowStyle) || "clip-overflow",
          addendumLabel: str(value.addendumLabel),
          isGroup: bool(value.isGroup),
          isCheck: bool(value.isCheck),
          checkIcon: str(value.checkIcon) || "normal-check",
        },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return {
      ok: true,
      value: { ...base, kind: "pdf", pages, boxes, fontName: str(options.fontName) || "Lato", fontSize: num(options.fontSize, 12), variableOptions },
    };
  }
  if (root.tag === "a2j-docx") return { ok: true, value: { ...base, kind: "word" } };
  if (root.tag !== "a2j-template") return { ok: false, error: `unknown template kind ${str(root.tag) || "(none)"}` };
  const state = isObj(root.state) ? root.state : {};
  return {
    ok: true,
    value: {
      ...base,
      kind: "text",
      fontFamily: str(state.fontFamily) || "sans-serif",
      pageSize: /^(a4|letter)$/i.test(str(state.pageSize).trim()) ? (str(state.pageSize).trim().toLowerCase() as "a4" | "letter") : null,
      fontSize: Math.min(72, Math.max(6, num(state.fontSize, 12))),
      sectionCounter: str(state.sectionCounter) || "none",
      children: children(root, "root"),
    },
  };
}
