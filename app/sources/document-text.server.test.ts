import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { docx } from "~/documents/test-docx";
import { htmlToText, readDocumentText } from "./document-text.server";

// What the extraction worker runs, called in this thread (extract.server.test runs it through the worker).
describe("a Word file's HTML as text", () => {
  it("keeps headings as markdown headings, paragraphs apart, and list items on their own lines", () => {
    expect(htmlToText("<h1>Bond rules</h1><p>First.</p><h3>Small print</h3><p>Second.</p>")).toBe("# Bond rules\n\nFirst.\n\n### Small print\n\nSecond.");
    expect(htmlToText("<ul><li>One</li><li>Two<ul><li>Nested</li></ul></li></ul><ol><li>First</li><li>Second</li></ol>")).toBe(
      "- One\n- Two\n  - Nested\n\n 1. First\n 2. Second",
    );
  });

  it("makes each table row a paragraph of its cells, Word's paragraphs in a cell included", () => {
    expect(htmlToText("<table><tr><th><p>Item</p></th><th><p>Amount</p></th></tr><tr><td><p>Rent</p><p>monthly</p></td><td><p>$1,200</p></td></tr></table>")).toBe(
      "Item Amount\n\nRent monthly $1,200",
    );
  });

  it("keeps a link's words without its address, drops pictures, decodes entities, and never wraps a line", () => {
    const long = "word ".repeat(40).trim();
    expect(htmlToText(`<p>See <a href="https://example.org/x">the rules</a><a id="_Toc1"></a>.</p><p><img src="data:image/png;base64,iVBORw0KGgo=" alt="Logo" />&lt;b&gt; &amp; &quot;q&quot; &#39;s 1&nbsp;200</p><p>${long}<br />next</p>`)).toBe(
      `See the rules.\n\n<b> & "q" 's 1 200\n\n${long}\nnext`,
    );
  });
});

describe("reading a document's text", () => {
  it("reads a .docx through mammoth and a PDF page by page", async () => {
    expect(await readDocumentText("docx", docx([{ heading: "Notice" }, "Please pay the rent."]))).toEqual({ text: "# Notice\n\nPlease pay the rent." });
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    const ended = new Promise((resolve) => doc.on("end", resolve));
    doc.text("Page one words.");
    doc.addPage().text("Page two words.");
    doc.end();
    await ended;
    expect(await readDocumentText("pdf", Buffer.concat(chunks))).toEqual({ pages: ["Page one words.", "Page two words."] });
  });

  it("says a file it cannot read is unreadable, without throwing", async () => {
    expect(await readDocumentText("docx", new Uint8Array([80, 75, 3, 4, 0, 0]))).toEqual({ problem: "unreadable" });
    expect(await readDocumentText("pdf", new TextEncoder().encode("%PDF-1.4\nnothing here\n%%EOF\n"))).toEqual({ problem: "unreadable" });
  });
});
