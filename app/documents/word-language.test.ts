import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { docx, docxText } from "./test-docx";
import { fillWordTemplate } from "./word.server";
import { stylesWithLanguage, wordLang } from "./word-language";

const answers = { "client name te": { name: "Client name TE", type: "Text" as const, repeating: false, values: [null, "سارة"] } };

describe("a Word document's language", () => {
  it("names it with the attribute Word reads for its script", () => {
    expect(wordLang("fr-CA")).toBe('<w:lang w:val="fr-CA"/>');
    expect(wordLang("zh-Hans")).toBe('<w:lang w:eastAsia="zh-CN"/>');
    expect(wordLang("zh")).toBe('<w:lang w:eastAsia="zh-CN"/>');
    expect(wordLang("zh-Hant")).toBe('<w:lang w:eastAsia="zh-TW"/>');
    expect(wordLang("he")).toBe('<w:lang w:bidi="he"/>');
    expect(wordLang("ar")).toBe('<w:lang w:bidi="ar"/>');
    expect(wordLang("ta")).toBe('<w:lang w:bidi="ta"/>');
  });

  it("sets a filled document's language in its styles, made when the template had none, right to left for Arabic", () => {
    const filled = fillWordTemplate(docx(["Name: {Client name TE}"]), answers, undefined, "ar");
    if (!filled.ok) throw new Error(filled.error);
    const files = unzipSync(filled.bytes);
    const styles = strFromU8(files["word/styles.xml"]!);
    expect(styles).toContain('<w:docDefaults><w:rPrDefault><w:rPr><w:rtl/><w:lang w:bidi="ar"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:bidi/></w:pPr></w:pPrDefault></w:docDefaults>');
    expect(strFromU8(files["word/_rels/document.xml.rels"]!)).toContain('Target="styles.xml"');
    expect(strFromU8(files["[Content_Types].xml"]!)).toContain('PartName="/word/styles.xml"');
    expect(docxText(filled.bytes)).toEqual(["Name: سارة"]);
  });

  it("replaces what a template's defaults said, keeping the schema's order", () => {
    const styles =
      '<w:styles xmlns:w="x"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial"/><w:sz w:val="22"/><w:lang w:val="en-US" w:eastAsia="en-US"/><w:eastAsianLayout/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault></w:docDefaults><w:style/></w:styles>';
    expect(stylesWithLanguage(styles, "fr-CA")).toBe(
      '<w:styles xmlns:w="x"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial"/><w:sz w:val="22"/><w:lang w:val="fr-CA"/><w:eastAsianLayout/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault></w:docDefaults><w:style/></w:styles>',
    );
    expect(stylesWithLanguage(styles, "he")).toContain('<w:pPr><w:bidi/><w:spacing w:after="160"/></w:pPr>');
    expect(stylesWithLanguage(styles, "he")).toContain('<w:sz w:val="22"/><w:rtl/><w:lang w:bidi="he"/><w:eastAsianLayout/>');
  });
});
