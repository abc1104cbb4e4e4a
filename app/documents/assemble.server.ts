/**
 * Document assembly (docs/a2j-formats.md, DAT's `/api/assemble`): every active template of `templates.json`, in its
 * order, whose template-level condition holds; text templates laid out with pdfkit, PDF templates overlaid
 * with pdf-lib; all merged into one PDF, with the uploaded PDF attachments after them. Word templates are
 * filled with docxtemplater and come as separate files. Reads nothing itself:
 * the caller hands in a way to read the guide's files.
 */
import { PDFDocument } from "@cantoo/pdf-lib";
import type { Answers, DateLocale } from "~/a2j";
import { type Block, type TextDocument, layoutTextTemplate } from "./layout";
import { appendWithStructure, finishStructure, structureMerge } from "./merge.server";
import { overlayPdf } from "./overlay-pdf.server";
import type { SignatureFills } from "./signatures";
import { bareWordTemplate, parseTemplate, parseTemplateList, type Template } from "./template";
import { textDocumentToPdf } from "./text-pdf.server";
import { evalCondition } from "./values";
import { fillWordTemplate } from "./word.server";

export type ReadGuideFile = (path: string) => Promise<Uint8Array | null>;

export type AssembleResult =
  /** `pdf`: the text and PDF templates and the PDF attachments (null when there are none); `word`: the filled Word templates. */
  | {
      ok: true;
      pdf: Uint8Array | null;
      word: { templateId: number; title: string; bytes: Uint8Array }[];
      templates: number[];
      /** The titles of the templates in the PDF, in order (a name for the file). */
      pdfTitles: string[];
      /** How many attachments were merged. */
      attachments: number;
      /** The names of the attachments that could not be merged (listed on the document's last page). */
      notIncluded: string[];
    }
  /** `empty`: nothing to print for these answers (no template applies and nothing is attached). */
  | { ok: false; reason: string; empty?: boolean };

export interface AssembleInput {
  title: string;
  /** BCP 47 language of the document, e.g. "en". */
  lang: string;
  answers: Answers;
  /** How the person's country writes dates (A2J's MM/DD/YYYY when absent). */
  dates?: DateLocale;
  readFile: ReadGuideFile;
  /** Uploaded PDF attachments, appended in this order; `bytes` null when the file is gone from the storage. */
  attachments?: { name: string; bytes: Uint8Array | null }[];
  /** Only this template, whether or not it is active or its condition holds (Author's "test assemble"). */
  templateId?: number;
  /** The words of the last page naming the files that could not be included, in the document's language. */
  notIncludedWords?: NotIncludedWords;
  /**
   * What the guide's signature places and their dates print (app/documents/signatures.ts): a line to sign on,
   * or the signature given. Unset: they print as any variable.
   */
  signatures?: SignatureFills;
}

export interface NotIncludedWords {
  title: string;
  heading: string;
  advice: string;
}

const decoder = new TextDecoder("utf-8");

/** The templates that apply to the answers, in assembly order. */
export async function applicableTemplates(
  readFile: ReadGuideFile,
  answers: Answers,
  only?: number,
): Promise<{ ok: true; templates: Template[] } | { ok: false; reason: string }> {
  const list = await readFile("templates.json");
  if (!list) return { ok: true, templates: [] };
  const ids = parseTemplateList(decoder.decode(list));
  if (!ids.ok) return { ok: false, reason: ids.error };
  const templates: Template[] = [];
  for (const id of only === undefined ? ids.value : ids.value.filter((x) => x === only)) {
    const file = await readFile(`template${id}.json`);
    if (!file) {
      if (await readFile(`template${id}.docx`)) {
        templates.push(bareWordTemplate(id));
        continue;
      }
      return { ok: false, reason: `templates.json lists template ${id}, but template${id}.json is missing` };
    }
    const parsed = parseTemplate(decoder.decode(file), id);
    if (!parsed.ok) return { ok: false, reason: `template${id}.json: ${parsed.error}` };
    const t = parsed.value;
    if (only === undefined && !t.active) continue;
    if (only === undefined && t.condition && !evalCondition(t.condition, answers)) continue;
    templates.push(t);
  }
  return { ok: true, templates };
}

/**
 * An attachment's pages, ready to copy, or null when they cannot be merged. They are copied into a document
 * of their own and saved first: a file that loads can still hold objects that break the final save, which
 * would lose the whole document.
 */
async function attachmentPages(bytes: Uint8Array): Promise<PDFDocument | null> {
  try {
    const src = await PDFDocument.load(bytes, { updateMetadata: false });
    // Copied and saved on its own first: a file that fails there fails alone. The file itself is merged, so
    // that any tags it has join the document's structure tree.
    const alone = await PDFDocument.create({ updateMetadata: false });
    for (const page of await alone.copyPages(src, src.getPageIndices())) alone.addPage(page);
    if (alone.getPageCount() === 0) return null;
    await alone.save();
    return src;
  } catch {
    return null;
  }
}

/** The last page's words in English (app/i18n/catalogues: documents.notIncluded.*, for the other languages). */
export const englishNotIncludedWords: NotIncludedWords = {
  title: "Files not included",
  heading: "These files could not be included:",
  advice: "They could not be read. Please upload a new copy of each in your interview, or hand them in separately.",
};

/** The last page that names the attachments that could not be merged, and what to do about them. */
function notIncludedPage(names: string[], words: NotIncludedWords): TextDocument {
  // The names are one list (`list: 1`), so that assistive technology reads them as a list.
  const paragraph = (text: string, marker?: string): Block => ({ kind: "paragraph", runs: [{ text }], align: "left", indent: marker ? 1 : 0, size: 12, ...(marker ? { marker, list: 1 } : {}) });
  return {
    title: words.title,
    font: "sans",
    size: 12,
    pageSize: "a4",
    blocks: [
      { kind: "heading", text: words.title, level: 1, size: 16, underline: false },
      paragraph(words.heading),
      ...names.map((name) => paragraph(name, "•")),
      paragraph(words.advice),
    ],
    header: [],
    footer: [],
    hideHeaderOnFirstPage: false,
    hideFooterOnFirstPage: false,
  };
}

/** One PDF for a guide's templates and a set of answers. Never throws: failures come back with their reason. */
export async function assembleDocument(input: AssembleInput): Promise<AssembleResult> {
  try {
    const found = await applicableTemplates(input.readFile, input.answers, input.templateId);
    if (!found.ok) return found;
    const parts: { what: string; title: string; bytes: Uint8Array }[] = [];
    const word: { templateId: number; title: string; bytes: Uint8Array }[] = [];
    for (const t of found.templates) {
      if (t.kind === "word") {
        const docx = await input.readFile(`template${t.templateId}.docx`);
        if (!docx) return { ok: false, reason: `template ${t.templateId} is a Word template, but template${t.templateId}.docx is missing` };
        const filled = fillWordTemplate(docx, input.answers, input.dates, input.lang, input.signatures);
        if (!filled.ok) return { ok: false, reason: `template${t.templateId}.docx: ${filled.error}` };
        word.push({ templateId: t.templateId, title: t.title, bytes: filled.bytes });
      } else if (t.kind === "text") {
        parts.push({ what: `template ${t.templateId}`, title: t.title, bytes: await textDocumentToPdf(layoutTextTemplate(t, input.answers, input.dates, undefined, input.signatures), { title: t.title || input.title, lang: input.lang }) });
      } else {
        const pdf = await input.readFile(`template${t.templateId}.pdf`);
        if (!pdf) return { ok: false, reason: `template ${t.templateId} is a PDF template, but template${t.templateId}.pdf is missing` };
        parts.push({ what: `template ${t.templateId}`, title: t.title, bytes: await overlayPdf(t, pdf, input.answers, input.dates, input.lang, input.signatures) });
      }
    }
    const attachments = input.attachments ?? [];
    if (!parts.length && !attachments.length && !word.length) return { ok: false, empty: true, reason: "no template applies to these answers" };
    if (!parts.length && !attachments.length) return { ok: true, pdf: null, word, templates: found.templates.map((t) => t.templateId), pdfTitles: [], attachments: 0, notIncluded: [] };

    const out = await PDFDocument.create();
    // The parts' tags (text templates, and any a template PDF or an attachment has) join one structure tree.
    const structure = structureMerge();
    for (const part of parts) {
      try {
        appendWithStructure(out, await PDFDocument.load(part.bytes), structure);
      } catch (error) {
        return { ok: false, reason: `${part.what} is not a readable PDF: ${(error as Error).message}` };
      }
    }
    // One person's file must never make their whole document impossible to download: what cannot be merged is
    // named on a last page instead.
    const notIncluded: string[] = [];
    for (const a of attachments) {
      const pages = a.bytes ? await attachmentPages(a.bytes) : null;
      if (!pages) notIncluded.push(a.name);
      else appendWithStructure(out, pages, structure);
    }
    if (notIncluded.length) {
      const note = await PDFDocument.load(await textDocumentToPdf(notIncludedPage(notIncluded, input.notIncludedWords ?? englishNotIncludedWords), { title: input.title, lang: input.lang }));
      appendWithStructure(out, note, structure);
    }
    finishStructure(out, structure);
    out.setTitle(input.title, { showInWindowTitleBar: true });
    out.setLanguage(input.lang);
    out.setCreator("Legal Self-Help");
    out.setProducer("Legal Self-Help (pdfkit, pdf-lib)");
    return {
      ok: true,
      pdf: await out.save(),
      word,
      templates: found.templates.map((t) => t.templateId),
      pdfTitles: parts.map((part) => part.title),
      attachments: attachments.length - notIncluded.length,
      notIncluded,
    };
  } catch (error) {
    return { ok: false, reason: `assembly failed: ${(error as Error).message}` };
  }
}
