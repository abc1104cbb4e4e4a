/**
 * Document assembly benchmark: `npm run bench:documents` (not a timed test).
 * Targets (issue 7): the Re-Entry Navigator set ≤ 300 ms median; a generated 20-page text template with a
 * 200-row loop table ≤ 500 ms median.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PDFDocument } from "@cantoo/pdf-lib";
import { bench, describe } from "vitest";
import type { Answers, AnswerValue } from "~/a2j";
import { assembleDocument, type ReadGuideFile } from "./assemble.server";

const GUIDES = path.resolve(import.meta.dirname, "../../db/seed/guides");
const files = new Map<string, Uint8Array | null>();
function folder(name: string): ReadGuideFile {
  return async (file) => {
    const key = `${name}/${file}`;
    if (!files.has(key)) files.set(key, await readFile(path.join(GUIDES, key)).then((b) => new Uint8Array(b)).catch(() => null));
    return files.get(key) ?? null;
  };
}

function answers(vars: Record<string, [string, AnswerValue | AnswerValue[]]>): Answers {
  const out: Answers = {};
  for (const [name, [type, v]] of Object.entries(vars)) {
    out[name.toLowerCase()] = { name, type: type as never, repeating: Array.isArray(v), values: [null, ...(Array.isArray(v) ? v : [v])] };
  }
  return out;
}

const reentry = answers({
  "User name full TE": ["Text", "Zoë Ångström-Ñúñez"],
  "Client first name TE": ["Text", "Zoë"],
  "Company name TE": ["Text", "Łódź Logistics"],
  "Boss name TE": ["Text", "Σωκράτης Παπαδόπουλος"],
  "Today DA": ["Date", "3/4/2026"],
  "Job start date DA": ["Date", "1/15/2024"],
  "Have job TF": ["TF", true],
  "PAP needed TF": ["TF", true],
  "Need housing info TF": ["TF", true],
  "Need job info TF": ["TF", true],
  "Need testing facility info TF": ["TF", true],
  "Need drug testing or meetings TF": ["TF", true],
});

const ROWS = 200;
const paragraph = "<p>" + "The tenant and the landlord agree that the bond is held by the authority until the end of the tenancy. ".repeat(6) + "</p>";
const bigTemplate = JSON.stringify({
  templateId: 1,
  title: "Generated",
  active: true,
  footer: "<p>Generated benchmark document</p>",
  rootNode: {
    tag: "a2j-template",
    state: { fontFamily: "times-new-roman", fontSize: "12" },
    children: [
      ...Array.from({ length: 70 }, () => ({ tag: "a2j-rich-text", state: { userContent: paragraph } })),
      {
        tag: "a2j-repeat-loop",
        state: {
          loopType: "variable",
          loopVariable: "Row count NU",
          displayType: "table",
          tableStyle: "bordered",
          tableColumns: [{ variable: "Row item TE", column: "Item", width: 60 }, { variable: "Row amount TE", column: "Amount", width: 40 }],
          loopTitle: "Rows",
          loopTitleTag: "h3",
        },
      },
    ],
  },
});
const big: ReadGuideFile = async (file) =>
  file === "templates.json" ? new TextEncoder().encode('{"templateIds":[1]}') : file === "template1.json" ? new TextEncoder().encode(bigTemplate) : null;
const bigAnswers = answers({
  "Row count NU": ["Number", ROWS],
  "Row item TE": ["Text", Array.from({ length: ROWS }, (_, i) => `Row ${i + 1}: a deduction claimed from the bond`)],
  "Row amount TE": ["Text", Array.from({ length: ROWS }, (_, i) => `$${(i * 3.5).toFixed(2)}`)],
});

// How big the generated document is (printed once).
const sample = await assembleDocument({ title: "Generated", lang: "en", answers: bigAnswers, readFile: big });
if (!sample.ok) throw new Error(sample.reason);
console.log(`generated document: ${(await PDFDocument.load(sample.pdf!)).getPageCount()} pages`);

describe("assembly", () => {
  bench("Re-Entry Navigator set (3 templates: overlay + 2 text)", async () => {
    const r = await assembleDocument({ title: "Re-Entry Navigator", lang: "en", answers: reentry, readFile: folder("re-entry-navigator") });
    if (!r.ok) throw new Error(r.reason);
  }, { iterations: 30, warmupIterations: 3 });
  bench("generated ~20-page text template with a 200-row table", async () => {
    const r = await assembleDocument({ title: "Generated", lang: "en", answers: bigAnswers, readFile: big });
    if (!r.ok) throw new Error(r.reason);
  }, { iterations: 15, warmupIterations: 2 });
});
