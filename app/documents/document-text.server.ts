/**
 * The text of each document a guide makes for a set of answers, as lines (issue 32: a test scenario's documents,
 * compared line by line with the previous version's). The same templates and order as assembly
 * (`applicableTemplates`); a text template as it is laid out, a PDF overlay as each filled box's variable and
 * value, a Word template as its filled paragraphs. No PDF is drawn: this is for comparing, not for printing.
 */
import { unzipSync } from "fflate";
import type { Answers, DateLocale } from "~/a2j";
import { applicableTemplates, type ReadGuideFile } from "./assemble.server";
import { blocksText, layoutTextTemplate } from "./layout";
import { variableText } from "./values";
import { fillWordTemplate } from "./word.server";

export interface DocumentText {
  templateId: number;
  title: string;
  text: string;
}

function wordText(bytes: Uint8Array): string {
  const xml = new TextDecoder().decode(unzipSync(bytes, { filter: (file) => file.name === "word/document.xml" })["word/document.xml"]);
  return xml
    .replace(/<w:tab\/>/g, "\t")
    .replace(/<w:br\/>/g, "\n")
    .replace(/<\/w:p>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\n+$/, "");
}

/** Each document's text for the answers, in assembly order; a failure says why (a template that cannot be read). */
export async function documentTexts(readFile: ReadGuideFile, answers: Answers, dates?: DateLocale): Promise<{ ok: true; documents: DocumentText[] } | { ok: false; reason: string }> {
  try {
    const found = await applicableTemplates(readFile, answers);
    if (!found.ok) return found;
    const documents: DocumentText[] = [];
    for (const template of found.templates) {
      const title = template.title || `Template ${template.templateId}`;
      if (template.kind === "text") {
        const laid = layoutTextTemplate(template, answers, dates);
        documents.push({ templateId: template.templateId, title, text: [laid.header, laid.blocks, laid.footer].filter((b) => b.length).map(blocksText).join("\n") });
      } else if (template.kind === "pdf") {
        const lines = template.boxes.filter((box) => box.variable).map((box) => `${box.variable}: ${variableText(answers, box.variable, undefined, dates) ?? ""}`);
        documents.push({ templateId: template.templateId, title, text: lines.join("\n") });
      } else {
        const file = await readFile(`template${template.templateId}.docx`);
        const filled = file ? fillWordTemplate(file, answers, dates) : { ok: false as const, error: "the file is missing" };
        if (!filled.ok) return { ok: false, reason: `template${template.templateId}.docx: ${filled.error}` };
        documents.push({ templateId: template.templateId, title, text: wordText(filled.bytes) });
      }
    }
    return { ok: true, documents };
  } catch (error) {
    return { ok: false, reason: String((error as Error).message ?? error) };
  }
}
