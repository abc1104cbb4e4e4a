// The language of a Word document the product fills in (issue 27): set in its styles' defaults, so every run
// says it (spelling, hyphenation, a screen reader's voice), and a right-to-left language's paragraphs and runs
// run right to left. A pure module: XML text in, XML text out (the package is read and written through `WordFiles`).

const RIGHT_TO_LEFT = /^(ar|he|fa|ur|yi|ps|dv|ckb)(-|$)/i;
const EAST_ASIAN = /^(zh|ja|ko)(-|$)/i;
/** Scripts Word handles as "complex" (its w:bidi language attribute): right-to-left ones and Indic ones. */
const COMPLEX = /^(ar|he|fa|ur|yi|ps|dv|ckb|ta|hi|bn|te|ml|kn|gu|pa|mr|ne|si|th|km|lo|my)(-|$)/i;

/** `<w:lang>` for a BCP 47 tag: the attribute Word reads for that kind of script. */
export function wordLang(lang: string): string {
  const value = lang.replace(/[^A-Za-z0-9-]/g, "");
  // Word names Chinese by region: simplified as zh-CN, traditional as zh-TW.
  if (EAST_ASIAN.test(value)) return `<w:lang w:eastAsia="${/^zh(-Hans)?$/i.test(value) ? "zh-CN" : /^zh-Hant$/i.test(value) ? "zh-TW" : value}"/>`;
  if (COMPLEX.test(value)) return `<w:lang w:bidi="${value}"/>`;
  return `<w:lang w:val="${value}"/>`;
}

export function isRightToLeft(lang: string): boolean {
  return RIGHT_TO_LEFT.test(lang);
}

// Elements that come after w:rtl and w:lang in a run's properties, and after w:bidi in a paragraph's (the
// schema's order: Word refuses a file whose order is wrong).
const AFTER_LANG = /<w:(eastAsianLayout|specVanish|oMath)\b/;
const AFTER_BIDI = /<w:(adjustRightInd|snapToGrid|spacing|ind|contextualSpacing|mirrorIndents|suppressOverlap|jc|textDirection|textAlignment|textboxTightWrap|outlineLvl|divId|cnfStyle|rPr|sectPr|pPrChange)\b/;

function insertBefore(xml: string, pattern: RegExp, insert: string): string {
  const at = xml.search(pattern);
  return at === -1 ? xml + insert : xml.slice(0, at) + insert + xml.slice(at);
}

/** A run-properties body with the language (and right to left) set, anything it said of them before replaced. */
function runProperties(body: string, lang: string): string {
  const cleaned = body.replace(/<w:lang\b[^>]*\/>/g, "").replace(/<w:rtl\b[^>]*\/>/g, "");
  return insertBefore(cleaned, AFTER_LANG, `${isRightToLeft(lang) ? "<w:rtl/>" : ""}${wordLang(lang)}`);
}

function paragraphProperties(body: string, lang: string): string {
  const cleaned = body.replace(/<w:bidi\b[^>]*\/>/g, "");
  return isRightToLeft(lang) ? insertBefore(cleaned, AFTER_BIDI, "<w:bidi/>") : cleaned;
}

/** The document defaults of a styles part, with the language set. */
export function stylesWithLanguage(styles: string, lang: string): string {
  const rPrDefault = `<w:rPrDefault><w:rPr>${runProperties("", lang)}</w:rPr></w:rPrDefault>`;
  const pPrDefault = isRightToLeft(lang) ? `<w:pPrDefault><w:pPr><w:bidi/></w:pPr></w:pPrDefault>` : "";
  if (!/<w:docDefaults\b/.test(styles)) return styles.replace(/(<w:styles\b[^>]*>)/, `$1<w:docDefaults>${rPrDefault}${pPrDefault}</w:docDefaults>`);
  return styles.replace(/<w:docDefaults\b[^>]*>([\s\S]*?)<\/w:docDefaults>/, (_whole, inner: string) => {
    let next = inner;
    if (/<w:rPrDefault\b/.test(next)) {
      next = /<w:rPrDefault\b[^>]*>\s*<w:rPr\b/.test(next)
        ? next.replace(/(<w:rPrDefault\b[^>]*>\s*<w:rPr\b[^>]*>)([\s\S]*?)(<\/w:rPr>)/, (_m, open: string, body: string, close: string) => open + runProperties(body, lang) + close)
        : next.replace(/<w:rPrDefault\b[^>]*\/>|<w:rPrDefault\b[^>]*>\s*<\/w:rPrDefault>/, rPrDefault);
    } else next = rPrDefault + next;
    if (/<w:pPrDefault\b[^>]*>\s*<w:pPr\b/.test(next)) {
      next = next.replace(/(<w:pPrDefault\b[^>]*>\s*<w:pPr\b[^>]*>)([\s\S]*?)(<\/w:pPr>)/, (_m, open: string, body: string, close: string) => open + paragraphProperties(body, lang) + close);
    } else if (pPrDefault) next = next.replace(/(<\/w:rPrDefault>)/, `$1${pPrDefault}`);
    return `<w:docDefaults>${next}</w:docDefaults>`;
  });
}

const STYLES_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml";
const STYLES_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles";

/** A Word package's parts as text, read and written by name (PizZip's, in app/documents/word.server.ts). */
export interface WordFiles {
  read(name: string): string | null;
  write(name: string, text: string): void;
}

/**
 * Sets a filled document's language in its styles part, made (with its relationship and content type) when the
 * template had none.
 */
export function setWordLanguage(files: WordFiles, lang: string): void {
  const existing = files.read("word/styles.xml");
  if (existing !== null) {
    files.write("word/styles.xml", stylesWithLanguage(existing, lang));
    return;
  }
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  files.write("word/styles.xml", stylesWithLanguage(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${ns}></w:styles>`, lang));
  const relsName = "word/_rels/document.xml.rels";
  const rels = files.read(relsName) ?? '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
  files.write(relsName, rels.replace("</Relationships>", `<Relationship Id="rIdLangStyles" Type="${STYLES_REL}" Target="styles.xml"/></Relationships>`));
  const types = files.read("[Content_Types].xml");
  if (types !== null) files.write("[Content_Types].xml", types.replace("</Types>", `<Override PartName="/word/styles.xml" ContentType="${STYLES_TYPE}"/></Types>`));
}
