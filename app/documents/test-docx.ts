/** Test helpers: a minimal Word document, and the text of one. */
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";

/** A minimal Word document whose body is the given paragraphs (and headings, in Word's "Heading 1" style). */
export function docx(paragraphs: (string | { heading: string })[]): Uint8Array {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${escape(text)}</w:t></w:r>`;
  const body = paragraphs
    .map((p) => (typeof p === "string" ? `<w:p>${run(p)}</w:p>` : `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${run(p.heading)}</w:p>`))
    .join("");
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/document.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** The paragraphs' text of a Word document. */
export function docxText(bytes: Uint8Array): string[] {
  const xml = strFromU8(unzipSync(bytes)["word/document.xml"]!);
  return [...xml.matchAll(/<w:p[ >].*?<\/w:p>/g)].map((p) => [...p[0].matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map((t) => t[1]).join("").replace(/&amp;/g, "&"));
}

