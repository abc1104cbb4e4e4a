/**
 * Test helpers: a PDF's structure tree read back (pdf-lib walks the tree; pdfjs, through unpdf, gives the text of
 * each marked-content sequence), and the lines of a page with their positions.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } from "@cantoo/pdf-lib";
import { getDocumentProxy } from "unpdf";

export interface StructNode {
  role: string;
  text: string;
  kids: StructNode[];
  /** Attributes (`/A`) as name → value, e.g. Scope: "Column". */
  attributes: Record<string, string>;
}

export interface Structure {
  tagged: boolean;
  lang: string | null;
  displayTitle: boolean;
  root: StructNode | null;
}

/** The structure tree of a PDF, each element with the text of the content it marks, in the tree's order. */
export async function readStructure(bytes: Uint8Array): Promise<Structure> {
  const doc = await PDFDocument.load(bytes);
  const pageIndex = new Map(doc.getPages().map((p, i) => [p.ref.toString(), i]));
  // Text of each (page, mcid), from pdfjs's marked-content items.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const texts = new Map<string, string>();
  for (let i = 0; i < pdf.numPages; i++) {
    const page = await pdf.getPage(i + 1);
    const content = await page.getTextContent({ includeMarkedContent: true });
    const open: string[] = [];
    for (const item of content.items as { type?: string; id?: string; str?: string }[]) {
      if (item.type === "beginMarkedContentProps" || item.type === "beginMarkedContent") open.push(item.id ? `${i}:${/_mc(\d+)$/.exec(item.id)?.[1] ?? "?"}` : "");
      else if (item.type === "endMarkedContent") open.pop();
      else if (typeof item.str === "string") {
        const key = open.filter(Boolean).at(-1);
        if (key) texts.set(key, (texts.get(key) ?? "") + item.str);
      }
    }
  }
  const mark = doc.catalog.lookupMaybe(PDFName.of("MarkInfo"), PDFDict);
  const marked = mark?.lookup(PDFName.of("Marked"));
  const lang = doc.catalog.lookup(PDFName.of("Lang"));
  const prefs = doc.catalog.lookupMaybe(PDFName.of("ViewerPreferences"), PDFDict);
  const walk = (dict: PDFDict, page: number | null, depth: number): StructNode => {
    const s = dict.lookup(PDFName.of("S"));
    const pg = dict.get(PDFName.of("Pg"));
    const here = pg instanceof PDFRef ? (pageIndex.get(pg.toString()) ?? page) : page;
    const type = dict.lookup(PDFName.of("Type"));
    const role = s instanceof PDFName ? s.decodeText() : type instanceof PDFName ? type.decodeText() : "?";
    const node: StructNode = { role, text: "", kids: [], attributes: {} };
    const attrs = dict.lookupMaybe(PDFName.of("A"), PDFDict);
    for (const [key, value] of attrs?.entries() ?? []) node.attributes[key.decodeText()] = value instanceof PDFName ? value.decodeText() : value.toString();
    const k = dict.get(PDFName.of("K"));
    const kids = k instanceof PDFArray ? k.asArray() : k ? [k] : [];
    for (const kid of kids) {
      const value = kid instanceof PDFRef ? doc.context.lookup(kid) : kid;
      if (value instanceof PDFNumber) node.text += texts.get(`${here}:${value.asNumber()}`) ?? "";
      else if (value instanceof PDFDict && value.lookup(PDFName.of("Type")) === PDFName.of("MCR")) {
        const mcrPage = value.get(PDFName.of("Pg"));
        const p = mcrPage instanceof PDFRef ? pageIndex.get(mcrPage.toString()) : here;
        const mcid = value.lookup(PDFName.of("MCID"));
        if (mcid instanceof PDFNumber) node.text += texts.get(`${p}:${mcid.asNumber()}`) ?? "";
      } else if (value instanceof PDFDict && depth < 64) {
        const child = walk(value, here, depth + 1);
        node.kids.push(child);
        node.text += child.text;
      }
    }
    return node;
  };
  const tree = doc.catalog.lookupMaybe(PDFName.of("StructTreeRoot"), PDFDict);
  return {
    tagged: marked?.toString() === "true",
    lang: lang ? (lang as unknown as { decodeText(): string }).decodeText() : null,
    displayTitle: prefs?.lookup(PDFName.of("DisplayDocTitle"))?.toString() === "true",
    root: tree ? walk(tree, null, 0) : null,
  };
}

/** Elements as "Role: text" lines, depth-first, indented by depth (roles only for elements without text). */
export function outline(node: StructNode, depth = 0): string[] {
  const text = node.text.replace(/\s+/g, " ").trim();
  const line = `${"  ".repeat(depth)}${node.role}${node.kids.length === 0 && text ? `: ${text}` : ""}`;
  return [line, ...node.kids.flatMap((k) => outline(k, depth + 1))];
}

/** The text lines of each page (items on one baseline joined), top to bottom. */
export async function pageLines(bytes: Uint8Array): Promise<{ y: number; text: string }[][]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const out: { y: number; text: string }[][] = [];
  for (let i = 0; i < pdf.numPages; i++) {
    const page = await pdf.getPage(i + 1);
    const content = await page.getTextContent();
    // Pieces within half a point of a line's baseline are on that line (fonts of one line differ by a little).
    const lines: { y: number; text: string }[] = [];
    for (const item of content.items as { str?: string; transform?: number[] }[]) {
      if (typeof item.str !== "string" || !item.transform || !item.str) continue;
      const y = item.transform[5]!;
      const line = lines.find((l) => Math.abs(l.y - y) < 0.5);
      if (line) line.text += item.str;
      else lines.push({ y, text: item.str });
    }
    out.push(lines.sort((a, b) => b.y - a.y));
  }
  return out;
}

/** Every piece of text in a PDF with the size it prints at (points), page by page in order. */
export async function textSizes(bytes: Uint8Array): Promise<{ text: string; size: number }[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const out: { text: string; size: number }[] = [];
  for (let i = 0; i < pdf.numPages; i++) {
    const content = await (await pdf.getPage(i + 1)).getTextContent();
    for (const item of content.items as { str?: string; transform?: number[] }[]) {
      if (!item.str?.trim() || !item.transform) continue;
      out.push({ text: item.str, size: Math.hypot(item.transform[0]!, item.transform[1]!) });
    }
  }
  return out;
}
