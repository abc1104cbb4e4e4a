/**
 * The text of a PDF (pdf.js, through unpdf: one string per page) or a Word file (mammoth's HTML made into text
 * by html-to-text). Runs inside the extraction's worker thread (app/sources/extract-text.worker.ts), which is
 * ended if it takes too long. Never throws: a file that cannot be read is a problem of the file.
 */
import { convert, type FormatCallback, type SelectorDefinition } from "html-to-text";

export type TextReading = { pages: string[] } | { text: string } | { problem: "protected" | "unreadable" };

// Each extraction starts a fresh worker: a reader is loaded only for the kind of file it reads (mammoth alone
// takes longer to load than pdf.js).
export async function readDocumentText(kind: "pdf" | "docx", bytes: Uint8Array): Promise<TextReading> {
  try {
    if (kind === "pdf") return await pdfPages(bytes);
    const { default: mammoth } = await import("mammoth");
    return { text: htmlToText((await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value) };
  } catch {
    return { problem: "unreadable" };
  }
}

async function pdfPages(bytes: Uint8Array): Promise<TextReading> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes the bytes over (it detaches the buffer it is given): a copy, so the caller's stay readable.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    const said = error instanceof Error ? `${error.name} ${error.message}` : String(error);
    return { problem: /password/i.test(said) ? "protected" : "unreadable" };
  }
  const { text } = await extractText(pdf, { mergePages: false });
  return { pages: text };
}

/** A heading kept as a markdown heading ("## Title"), so that passages keep the heading they sit under. */
const markdownHeading: FormatCallback = (element, walk, builder) => {
  const level = Number(element.name?.slice(1)) || 1;
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${"#".repeat(level)} `);
  walk(element.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};

/** A table cell: its text, then a space before the next cell (a row is a paragraph). mammoth puts a cell's text in
 * paragraphs: they run on in the row, a space between. */
const tableCell: FormatCallback = (element, walk, builder) => {
  for (const child of element.children) {
    walk(child.type === "tag" && child.name === "p" ? child.children : [child], builder);
    builder.addInline(" ");
  }
};

const headings: SelectorDefinition[] = [1, 2, 3, 4, 5, 6].map((level) => ({ selector: `h${level}`, format: "markdownHeading" }));

const wordHtml = {
  // Passages are searched and quoted: no hard line breaks inside a paragraph.
  wordwrap: false as const,
  formatters: { markdownHeading, tableCell },
  selectors: [
    ...headings,
    { selector: "p", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    // A link keeps its words; the address is not part of the text (mammoth also writes bookmarks as <a id>).
    { selector: "a", options: { ignoreHref: true } },
    // mammoth writes embedded pictures as data: URLs; they carry no text.
    { selector: "img", format: "skip" },
    { selector: "ul", options: { itemPrefix: "- ", leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: "ol", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: "table", format: "block", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: "tr", format: "block", options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: "td", format: "tableCell" },
    { selector: "th", format: "tableCell" },
  ],
};

/**
 * mammoth's HTML (headings, paragraphs, lists, tables, links) as markdown-like text: headings as "#" headings,
 * list items as "- " (or numbered), a blank line between paragraphs, each table row a paragraph of its cells.
 */
export function htmlToText(html: string): string {
  return convert(html, wordHtml)
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
