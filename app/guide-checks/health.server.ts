// The health check of a guide version (issue 32; docs/decisions/0039-guide-health-and-scenarios.md): the
// engine's exploration (app/a2j/explore.ts), given the guide's files and a time budget, run in slices that give
// the event loop back, plus what only the files tell: variables the templates print that no page sets.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { createExplorer, DEFAULT_MAX_STATES, type Guide, type HealthFinding, isBlocking, variablesSetByGuide } from "~/a2j";
import type { HealthReport } from "./health-report";
import { parseTemplate, parseTemplateList, type Template, type TemplateNode } from "~/documents/template";
import { signatureMarkers } from "~/documents/signatures";

export { explorationSummary, type HealthReport } from "./health-report";

/** How long a check may run: on upload, and when an administrator asks again. The 356-page guide takes less. */
export const HEALTH_CHECK_SECONDS = 15;
/** Presses between two returns to the event loop (a few milliseconds of work). */
const SLICE = 200;

const decoder = new TextDecoder();

/** The variables a template prints or decides on. */
function templateVariables(template: Template): Set<string> {
  const out = new Set<string>();
  const fromHtml = (html: string) => {
    for (const m of html.matchAll(/<a2j-variable\b[^>]*\bname\s*=\s*(["'])(.*?)\1/gi)) if (m[2]?.trim()) out.add(m[2].trim());
  };
  const walk = (nodes: TemplateNode[]) => {
    for (const node of nodes) {
      if (node.tag === "rich-text") fromHtml(node.html);
      else if (node.tag === "conditional") {
        out.add(node.condition.leftOperand);
        if (node.condition.rightOperandType === "variable") out.add(node.condition.rightOperand);
        walk(node.then);
        walk(node.else ?? []);
      } else if (node.tag === "repeat-loop") {
        if (node.loopType === "variable") out.add(node.loopVariable);
        for (const c of node.tableColumns) out.add(c.variable);
        for (const i of node.listItems) out.add(i.variable);
        fromHtml(node.loopRichText);
      }
    }
  };
  fromHtml(template.header);
  fromHtml(template.footer);
  if (template.condition) {
    out.add(template.condition.leftOperand);
    if (template.condition.rightOperandType === "variable") out.add(template.condition.rightOperand);
  }
  if (template.kind === "text") walk(template.children);
  if (template.kind === "pdf") for (const box of template.boxes) out.add(box.variable);
  out.delete("");
  return out;
}

/** Templates that print variables no page sets (they print blank, or their condition never holds). */
export function templateFindings(guide: Guide, files: ReadonlyMap<string, Uint8Array>): HealthFinding[] {
  const list = files.get("templates.json");
  if (!list) return [];
  const ids = parseTemplateList(decoder.decode(list));
  if (!ids.ok) return [];
  const set = variablesSetByGuide(guide);
  // Signature places and their dates are filled when people sign, never by a page (docs/decisions/0053).
  const signed = new Set(signatureMarkers(guide).flatMap((m) => [m.variable, ...(m.dateVariable ? [m.dateVariable] : [])]).map((name) => name.toLowerCase()));
  const findings: HealthFinding[] = [];
  for (const id of ids.value) {
    const file = files.get(`template${id}.json`);
    if (!file) continue;
    const parsed = parseTemplate(decoder.decode(file), id);
    if (!parsed.ok || !parsed.value.active) continue;
    const unset = [...templateVariables(parsed.value)].filter((name) => !set.has(name.trim().toLowerCase()) && !signed.has(name.trim().toLowerCase())).sort();
    if (!unset.length) continue;
    const title = parsed.value.title ? ` ("${parsed.value.title}")` : "";
    findings.push({
      kind: "template-variable",
      severity: "warning",
      page: null,
      where: `template ${id}${title}`,
      message: `The document uses ${unset.map((name) => `[${name}]`).join(", ")}, which no page sets: ${unset.length === 1 ? "it prints" : "they print"} blank.`,
    });
  }
  return findings;
}

/**
 * Checks a guide: explores it within `seconds` (and the states budget), in slices so a server goes on serving
 * while it runs, and adds what the templates show. Never throws for a guide's faults: they are findings.
 */
export async function checkGuideHealth(
  guide: Guide,
  files: ReadonlyMap<string, Uint8Array>,
  { seconds = HEALTH_CHECK_SECONDS, maxStates = DEFAULT_MAX_STATES, today }: { seconds?: number; maxStates?: number; today: number },
): Promise<HealthReport> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const explorer = createExplorer(guide, { today, maxStates, files: new Set(files.keys()), shouldStop: () => performance.now() > deadline });
  while (!explorer.run(SLICE)) await yieldToEventLoop();
  const explored = explorer.result();
  return {
    ...explored,
    findings: [...explored.findings, ...templateFindings(guide, files)],
    seconds: Math.round((performance.now() - started) / 10) / 100,
    checkedAt: new Date().toISOString(),
  };
}

export function readHealthReport(json: string | null): HealthReport | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as HealthReport;
  } catch {
    return null;
  }
}

/** The findings that stop a person: the command line exits non-zero on them. */
export const blockingFindings = (report: Pick<HealthReport, "findings">) => report.findings.filter(isBlocking);
