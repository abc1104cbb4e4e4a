import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_FILE_BYTES } from "~/security/request-guard.server";
import { MAX_ATTACHMENT_BYTES, detectDocumentType } from "./attachments.server";

describe("the upload limit at the edge", () => {
  it("cuts a file one byte past what an attachment may have, so the size check still refuses it with its message", () => {
    expect(MAX_FILE_BYTES).toBe(MAX_ATTACHMENT_BYTES + 1);
    expect(MAX_FILE_BYTES).toBeLessThan(MAX_BODY_BYTES);
  });
});

describe("uploads are checked by content, not by name", () => {
  it("knows PDF, Word 97–2003 and Word documents", () => {
    expect(detectDocumentType(Buffer.from("%PDF-1.7\n…"))?.ext).toBe("pdf");
    expect(detectDocumentType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))?.ext).toBe("doc");
    const docx = zipSync({ "[Content_Types].xml": Buffer.from("<Types/>"), "word/document.xml": Buffer.from("<w:document/>") }, { level: 0 });
    expect(detectDocumentType(docx)?.ext).toBe("docx");
  });

  it("refuses anything else, whatever it is called", () => {
    expect(detectDocumentType(Buffer.from("GIF89a"))).toBeNull();
    expect(detectDocumentType(Buffer.from("<html><script>"))).toBeNull();
    expect(detectDocumentType(zipSync({ "evil.exe": Buffer.from("MZ") }))).toBeNull();
    expect(detectDocumentType(new Uint8Array())).toBeNull();
  });
});
