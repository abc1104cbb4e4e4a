// A source's text split into passages for search and for citing: by headings and paragraphs, about 100 to 250
// words each, every passage keeping the heading it sits under (and, for a PDF, the page it starts on).
// Pure: no server code.

export interface PassageDraft {
  /** From 1, in the order of the source. */
  ordinal: number;
  heading: string | null;
  page: number | null;
  text: string;
}

export const PASSAGE_WORDS = { target: 100, most: 250 };
/** A source gives at most this many passages: a longer one (a whole statute) is refused, to be split into several. */
export const MAX_PASSAGES_PER_SOURCE = 2000;

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Inline markdown made plain: links keep their words, emphasis and code marks go. */
export function plainInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[ \t]+/g, " ")
    .trim();
}

/** Sentences of a long paragraph, so that it can be cut between them. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?;:])\s+(?=\S)/).filter(Boolean);
}

/** Pieces of a paragraph of at most `most` words, cut between sentences (or between words, for one long sentence). */
function pieces(paragraph: string): string[] {
  if (wordCount(paragraph) <= PASSAGE_WORDS.most) return [paragraph];
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) out.push(current.join(" "));
    current = [];
  };
  for (const sentence of sentences(paragraph)) {
    const words = sentence.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i += PASSAGE_WORDS.most) {
      const part = words.slice(i, i + PASSAGE_WORDS.most);
      if (wordCount(current.join(" ")) + part.length > PASSAGE_WORDS.most) flush();
      current.push(part.join(" "));
    }
    if (wordCount(current.join(" ")) >= PASSAGE_WORDS.target) flush();
  }
  flush();
  return out;
}

interface Block {
  heading: string | null;
  page: number | null;
  paragraphs: string[];
}

/** Paragraphs grouped into passages within one block (a section under one heading, or one page). */
function pack(block: Block): Omit<PassageDraft, "ordinal">[] {
  const passages: Omit<PassageDraft, "ordinal">[] = [];
  let current: string[] = [];
  let words = 0;
  const flush = () => {
    if (current.length) passages.push({ heading: block.heading, page: block.page, text: current.join("\n\n") });
    current = [];
    words = 0;
  };
  for (const paragraph of block.paragraphs.flatMap(pieces)) {
    const count = wordCount(paragraph);
    if (words && words + count > PASSAGE_WORDS.most) flush();
    current.push(paragraph);
    words += count;
    if (words >= PASSAGE_WORDS.target) flush();
  }
  // A short tail joins the passage before it when both fit.
  const last = passages.at(-1);
  if (current.length && last && wordCount(last.text) + words <= PASSAGE_WORDS.most && words < PASSAGE_WORDS.target / 2) {
    last.text += `\n\n${current.join("\n\n")}`;
    current = [];
  }
  flush();
  return passages;
}

/** Sections of markdown: ATX headings (`## Title`) start a new one; paragraphs are separated by blank lines. */
function markdownBlocks(markdown: string): Block[] {
  const blocks: Block[] = [{ heading: null, page: null, paragraphs: [] }];
  let paragraph: string[] = [];
  let fenced = false;
  const endParagraph = () => {
    const text = plainInline(paragraph.join(" "));
    if (text) blocks.at(-1)!.paragraphs.push(text);
    paragraph = [];
  };
  for (const raw of markdown.split("\n")) {
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    const heading = fenced ? null : /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ heading: plainInline(heading[2]!) || null, page: null, paragraphs: [] });
    } else if (!line.trim() || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endParagraph();
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      // A list item is a line of its own.
      endParagraph();
      paragraph.push(line.trim());
    } else {
      paragraph.push(line.trim().replace(/^>\s?/, ""));
    }
  }
  endParagraph();
  return blocks;
}

/** Pages of a PDF: the line breaks pdf.js gives are the layout's, not paragraphs, so a page is one run of text. */
function pageBlocks(pages: readonly string[]): Block[] {
  return pages.map((page, index) => ({ heading: null, page: index + 1, paragraphs: [page.replace(/\s+/g, " ").trim()].filter(Boolean) }));
}

/** The passages of a source: from markdown (or text) by headings and paragraphs, or from a PDF's pages. */
export function splitIntoPassages(source: { text: string; pages?: readonly string[] }): PassageDraft[] {
  const blocks = source.pages ? pageBlocks(source.pages) : markdownBlocks(source.text);
  return blocks.flatMap(pack).map((passage, index) => ({ ordinal: index + 1, ...passage }));
}
