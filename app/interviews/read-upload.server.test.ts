import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readablePdf } from "../../tests/support/pdf";
import { docx } from "~/documents/test-docx";
import { readUpload } from "./read-upload.server";

// What the upload check's worker runs, called in this thread (upload-check.server.test runs it through the worker).
describe("reading an upload whole", () => {
  it("finds nothing wrong with a PDF, a .docx and a Word 97–2003 file that read whole", async () => {
    expect(await readUpload("pdf", readablePdf())).toBeNull();
    expect(await readUpload("docx", docx(["Tenancy agreement"]))).toBeNull();
    const doc = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(doc);
    doc.writeUInt16LE(0xfffe, 28);
    doc.writeUInt16LE(9, 30);
    Buffer.from("WordDocument", "utf16le").copy(doc, 1024);
    expect(await readUpload("doc", doc)).toBeNull();
  });

  it("names what is wrong, and never throws, whatever the bytes", async () => {
    expect(await readUpload("pdf", readablePdf().subarray(0, 200))).toBe("pdfIncomplete");
    expect(await readUpload("pdf", Buffer.from("%PDF-1.4\n%%EOF\n"))).toBe("pdfUnreadable");
    expect(await readUpload("docx", zipSync({ "[Content_Types].xml": strToU8("<Types/>") }))).toBe("wordUnreadable");
    expect(await readUpload("docx", new Uint8Array([1, 2, 3]))).toBe("wordUnreadable");
    expect(await readUpload("doc", new Uint8Array([0xd0, 0xcf]))).toBe("wordUnreadable");
  });
});
