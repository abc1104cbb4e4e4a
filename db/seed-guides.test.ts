/**
 * The seeded interview guides in db/seed/guides/<guideId>/: every guide loads in the engine without warnings,
 * its DAT templates are well formed (docs/a2j-formats.md) and name only variables the guide declares,
 * and our own guides run end to end along scripted paths (pages visited, loop answers at their indexes,
 * computed totals and day counts for a fixed "today", required fields, Back).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  attachmentPath,
  confirmFinish,
  createAnswers,
  currentPage,
  getRaw,
  goBack,
  loadGuide,
  plainText,
  renderMacros,
  renderPage,
  resolvePopups,
  resumeInterview,
  runScript,
  saveAndExit,
  startInterview,
  submitPage,
  ymdToDays,
  type FormValues,
  type Guide,
  type InterviewState,
  type TransitionResult,
} from "../app/a2j";

const GUIDES_DIR = new URL("./seed/guides/", import.meta.url);
const guideIds = readdirSync(GUIDES_DIR).filter((d) => statSync(new URL(d, GUIDES_DIR)).isDirectory()).sort();
/** Guides written for this project (the Re-Entry Navigator is a CC BY 4.0 sample, see its ATTRIBUTION.md). */
const OWN_GUIDES = ["case-summary", "letter-of-demand", "tenancy-deposit"];

function read(guideId: string, file: string): string {
  return readFileSync(new URL(`${guideId}/${file}`, GUIDES_DIR), "utf8");
}

function load(guideId: string): Guide {
  const r = loadGuide(read(guideId, "Guide.json"));
  if (!r.ok) throw new Error(`${guideId}: ${r.error}`);
  return r.guide;
}

// ---------------------------------------------------------------------------------------------
// DAT template structure (docs/a2j-formats.md)

const COND_OPS = ["is-true", "is-false", "is-equal", "is-not-equal", "is-greater-than", "is-less-than"];
type Json = Record<string, unknown>;

interface TemplateFacts {
  problems: string[];
  /** Variable names the template refers to. */
  variables: Set<string>;
  tags: Set<string>;
  /** Conditionals that have an else part. */
  elseParts: number;
  loopDisplays: Set<string>;
}

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isBoolish = (v: unknown) => typeof v === "boolean" || v === "true" || v === "false";

function htmlVariables(html: string, facts: TemplateFacts): void {
  for (const m of html.matchAll(/<a2j-variable\s+name="([^"]*)"\s*><\/a2j-variable>/g)) facts.variables.add(m[1] as string);
  const opened = (html.match(/<a2j-variable\b/g) ?? []).length;
  const closed = (html.match(/<\/a2j-variable>/g) ?? []).length;
  if (opened !== closed) facts.problems.push(`unbalanced <a2j-variable> in ${html.slice(0, 60)}`);
}

function checkTemplateCondition(state: Json, where: string, facts: TemplateFacts): void {
  if (state.hasConditionalLogic === true || state.hasConditionalLogic === "true") {
    if (!COND_OPS.includes(String(state.operator))) facts.problems.push(`${where}: bad template-level operator`);
    if (typeof state.leftOperand !== "string" || state.leftOperand === "") facts.problems.push(`${where}: no leftOperand`);
    else facts.variables.add(state.leftOperand);
  }
}

function checkTextRoot(root: unknown, where: string, facts: TemplateFacts): void {
  if (!isObj(root) || root.tag !== "a2j-template") {
    facts.problems.push(`${where}: rootNode must have tag "a2j-template"`);
    return;
  }
  if (root.state !== undefined) {
    if (!isObj(root.state)) facts.problems.push(`${where}: state must be an object`);
    else checkTemplateCondition(root.state, where, facts);
  }
  if (root.children === undefined) return;
  if (!Array.isArray(root.children)) {
    facts.problems.push(`${where}: children must be a list`);
    return;
  }
  root.children.forEach((c, i) => checkNode(c, `${where} > ${i}`, facts));
}

function checkNode(node: unknown, where: string, facts: TemplateFacts): void {
  if (!isObj(node) || typeof node.tag !== "string") {
    facts.problems.push(`${where}: node without a tag`);
    return;
  }
  facts.tags.add(node.tag);
  const state = isObj(node.state) ? node.state : null;
  const need = (ok: boolean, what: string) => {
    if (!ok) facts.problems.push(`${where} (${node.tag}): ${what}`);
  };
  switch (node.tag) {
    case "a2j-rich-text":
      need(typeof node.id === "string" && state !== null && typeof state.userContent === "string", "needs id and state.userContent");
      if (state && typeof state.userContent === "string") htmlVariables(state.userContent, facts);
      return;
    case "a2j-section-title":
      need(state !== null && typeof state.title === "string" && /^h[1-6]$/.test(String(state.titleTag)), "needs state.title and titleTag h1..h6");
      need(state !== null && isBoolish(state.underline), "state.underline must be a boolean");
      return;
    case "a2j-page-break":
    case "a2j-blank":
      return;
    case "a2j-conditional": {
      need(state !== null && COND_OPS.includes(String(state.operator)), "unknown operator");
      need(state !== null && typeof state.leftOperand === "string" && state.leftOperand !== "", "needs leftOperand");
      need(state !== null && state.leftOperandType === "variable", 'leftOperandType must be "variable"');
      need(state !== null && (state.rightOperandType === "variable" || state.rightOperandType === "text"), "bad rightOperandType");
      need(state !== null && isBoolish(state.elseClause), "elseClause must be a boolean");
      if (state && typeof state.leftOperand === "string") facts.variables.add(state.leftOperand);
      if (state && state.rightOperandType === "variable" && typeof state.rightOperand === "string" && state.rightOperand !== "") {
        facts.variables.add(state.rightOperand);
      }
      const kids = Array.isArray(node.children) ? node.children : [];
      need(kids.length === 4, "needs 4 children: IF body, ELSE body and two conditional-add-element");
      const [ifBody, elseBody, add1, add2] = kids as Json[];
      checkTextRoot(ifBody?.rootNode, `${where} IF`, facts);
      checkTextRoot(elseBody?.rootNode, `${where} ELSE`, facts);
      need(add1?.tag === "conditional-add-element" && add2?.tag === "conditional-add-element", "children 3 and 4 must be conditional-add-element");
      const elseKids = isObj(elseBody?.rootNode) ? (elseBody.rootNode as Json).children : undefined;
      if (state && (state.elseClause === true || state.elseClause === "true")) {
        facts.elseParts++;
        need(Array.isArray(elseKids) && elseKids.length > 0, "elseClause is set but the ELSE body is empty");
      }
      return;
    }
    case "a2j-repeat-loop": {
      if (!state) return need(false, "needs state");
      need(state.loopType === "counter" || state.loopType === "variable", "bad loopType");
      if (state.loopType === "variable") {
        need(typeof state.loopVariable === "string" && state.loopVariable !== "", "needs loopVariable");
        facts.variables.add(String(state.loopVariable));
      } else need(typeof state.loopCounter === "number" && state.loopCounter > 0, "needs loopCounter");
      need(["table", "list", "text"].includes(String(state.displayType)), "bad displayType");
      need(Array.isArray(state.tableColumns) && Array.isArray(state.listItems), "needs tableColumns and listItems lists");
      need(typeof state.loopTitle === "string" && /^h[1-6]$/.test(String(state.loopTitleTag)), "needs loopTitle and loopTitleTag");
      facts.loopDisplays.add(String(state.displayType));
      if (state.displayType === "table") {
        const cols = state.tableColumns as Json[];
        need(cols.length > 0, "a table needs columns");
        for (const c of cols) {
          need(typeof c.variable === "string" && typeof c.column === "string" && typeof c.width === "number", "bad table column");
          facts.variables.add(String(c.variable));
        }
      } else if (state.displayType === "list") {
        const items = state.listItems as Json[];
        need(items.length > 0, "a list needs items");
        for (const it of items) {
          need(typeof it.variable === "string" && typeof it.item === "string", "bad list item");
          facts.variables.add(String(it.variable));
        }
      } else {
        need(typeof state.loopRichText === "string" && state.loopRichText !== "", "a text loop needs loopRichText");
        htmlVariables(String(state.loopRichText), facts);
      }
      return;
    }
    default:
      facts.problems.push(`${where}: unknown tag "${node.tag}"`);
  }
}

/** Check one templateN.json; returns what it refers to and any problems. */
function checkTemplate(guideId: string, templateId: number): TemplateFacts {
  const facts: TemplateFacts = { problems: [], variables: new Set(), tags: new Set(), elseParts: 0, loopDisplays: new Set() };
  const t = JSON.parse(read(guideId, `template${templateId}.json`)) as unknown;
  if (!isObj(t)) {
    facts.problems.push("not an object");
    return facts;
  }
  if (typeof t.title !== "string") facts.problems.push("title must be text");
  if (!isBoolish(t.active)) facts.problems.push("active must be a boolean");
  if (Number(t.templateId) !== templateId) facts.problems.push(`templateId ${String(t.templateId)} ≠ ${templateId}`);
  for (const k of ["header", "footer"]) {
    if (typeof t[k] !== "string") facts.problems.push(`${k} must be text`);
    else htmlVariables(t[k] as string, facts);
  }
  const root = t.rootNode;
  if (isObj(root) && root.tag === "a2j-pdf") {
    if (!existsSync(new URL(`${guideId}/template${templateId}.pdf`, GUIDES_DIR))) facts.problems.push("PDF template without its .pdf");
    if (isObj(root.state)) checkTemplateCondition(root.state, "a2j-pdf", facts);
    if (!Array.isArray(root.pages) || !Array.isArray(root.boxes)) facts.problems.push("a2j-pdf needs pages and boxes");
    for (const b of (root.boxes as Json[]) ?? []) facts.variables.add(String(b.variable));
  } else checkTextRoot(root, "rootNode", facts);
  return facts;
}

describe.each(guideIds)("guide folder %s", (guideId) => {
  test("Guide.json loads with no warnings", () => {
    const r = loadGuide(read(guideId, "Guide.json"));
    if (!r.ok) throw new Error(r.error);
    expect(r.warnings).toEqual([]);
  });

  test("templates.json lists existing, well-formed templates that name declared variables", () => {
    const guide = load(guideId);
    const list = JSON.parse(read(guideId, "templates.json")) as { guideId: unknown; templateIds: unknown };
    expect(typeof list.guideId).toBe("string");
    expect(Array.isArray(list.templateIds)).toBe(true);
    const ids = list.templateIds as number[];
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(Number.isInteger(id)).toBe(true);
      expect(existsSync(new URL(`${guideId}/template${id}.json`, GUIDES_DIR))).toBe(true);
      const facts = checkTemplate(guideId, id);
      expect(facts.problems).toEqual([]);
      const undeclared = [...facts.variables].filter((v) => !guide.vars[v.toLowerCase()]);
      expect(undeclared).toEqual([]);
    }
  });

  // Issue 25: the question is not said twice, the heading then the same words as the text's first sentence.
  test("no page repeats its heading as the first words below it, and nothing else is left out", () => {
    const guide = load(guideId);
    const started = startInterview(guide, ymdToDays(2026, 3, 31) as number);
    if (!started.ok) throw new Error(started.error.message);
    let dropped = 0;
    for (const page of Object.values(guide.pages)) {
      const state: InterviewState = { ...started.state, history: [{ interviewPage: page.name, repeatVarValue: null, outerLoopVarValue: null }] };
      const view = renderPage(guide, state, ymdToDays(2026, 3, 31) as number);
      if (!view) continue;
      const text = plainText(view.text);
      const below = plainText(view.body);
      const keepsLinks = /<(a|img|audio|video)\b/i.test(view.text);
      if (view.headingIsText) expect(below, page.name).toBe("");
      else if (below !== text) {
        // The heading's sentence, and only it, is gone.
        expect(`${view.heading} ${below}`.trim(), page.name).toBe(text);
        dropped++;
      } else if (!keepsLinks && text !== "") expect(text.startsWith(view.heading), `${page.name}: "${view.heading}" is said twice`).toBe(false);
    }
    if (guideId === "case-summary") expect(dropped).toBeGreaterThan(0);
  });
});

describe.each(OWN_GUIDES)("own guide %s", (guideId) => {
  test("is one of the seeded folders", () => expect(guideIds).toContain(guideId));

  test("8–20 pages, sample notice, Learn More on 2+ pages, a popup, steps in use, field types", () => {
    const guide = load(guideId);
    const pages = Object.values(guide.pages);
    expect(pages.length).toBeGreaterThanOrEqual(8);
    expect(pages.length).toBeLessThanOrEqual(20);
    const first = guide.pages[guide.firstPage];
    expect(first?.text).toContain("This is a sample interview for demonstration; it is not legal advice");
    expect(pages.filter((p) => p.learn !== "" && p.help !== "").length).toBeGreaterThanOrEqual(2);
    const popups = pages.filter((p) => p.type === "Popup").map((p) => p.name);
    expect(popups.length).toBeGreaterThan(0);
    for (const name of popups) expect(pages.some((p) => JSON.stringify(p).includes(`POPUP://${name}`))).toBe(true);
    // every step is used by some page, and every page's step exists
    const used = new Set(pages.filter((p) => p.type !== "Popup").map((p) => p.step));
    expect([...used].sort((a, b) => a - b)).toEqual(guide.steps.map((_, i) => i));
    const types = new Set(pages.flatMap((p) => p.fields.map((f) => f.type)));
    expect(types.has("attachment")).toBe(true);
    expect(pages.some((p) => p.fields.some((f) => f.required && f.invalidPrompt !== ""))).toBe(true);
    expect(pages.some((p) => p.buttons.some((b) => b.next === "ASSEMBLE-SUCCESS"))).toBe(true);
    expect(pages.some((p) => p.buttons.some((b) => b.next === "BACK"))).toBe(true);
    expect(pages.some((p) => p.repeatVar !== "")).toBe(true);
    // attachment fields write Attachment variables
    for (const p of pages) for (const f of p.fields) if (f.type === "attachment") expect(guide.vars[f.name.toLowerCase()]?.type).toBe("Attachment");
  });

  test("macros render without errors, popup links name popup pages, and every page is reachable", () => {
    const guide = load(guideId);
    const today = ymdToDays(2026, 1, 1) as number;
    const answers = createAnswers(guide);
    const pages = Object.values(guide.pages);
    for (const p of pages) {
      const html = [p.text, p.learn, p.help, ...p.fields.map((f) => f.label), ...p.buttons.map((b) => b.label)];
      for (const h of html) {
        const out = renderMacros(h, answers, today);
        expect(out, `${p.name}: ${h}`).not.toContain('class="err"');
        expect(out, `${p.name}: ${h}`).not.toContain("Unknown function");
        for (const ref of resolvePopups(h, guide).popups) {
          expect(ref.exists, `${p.name}: popup ${ref.name}`).toBe(true);
          expect(guide.pages[ref.name]?.type).toBe("Popup");
        }
      }
    }
    // reachable from the first page through buttons and GOTOs (popups through their links; the exit page through Save & Exit)
    const seen = new Set<string>([guide.firstPage]);
    const todo = [guide.firstPage];
    if (guide.exitPage !== "") {
      seen.add(guide.exitPage);
      todo.push(guide.exitPage);
    }
    while (todo.length > 0) {
      const p = guide.pages[todo.pop() as string];
      if (!p) continue;
      const next = [
        ...p.buttons.map((b) => b.next),
        ...[...`${p.codeBefore}\n${p.codeAfter}`.matchAll(/GOTO\s+"([^"]+)"/gi)].map((m) => m[1] as string),
        ...JSON.stringify(p).match(/POPUP:\/\/[^"\\]+/g)?.map((m) => m.slice("POPUP://".length)) ?? [],
      ];
      for (const n of next) {
        if (guide.pages[n] && !seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    expect(pages.map((p) => p.name).filter((n) => !seen.has(n))).toEqual([]);
  });

  test("templates have a section title, a conditional with an else part and a repeat loop (table or list)", () => {
    const list = JSON.parse(read(guideId, "templates.json")) as { templateIds: number[] };
    const all = list.templateIds.map((id) => checkTemplate(guideId, id));
    expect(all.some((f) => f.tags.has("a2j-section-title"))).toBe(true);
    expect(all.reduce((n, f) => n + f.elseParts, 0)).toBeGreaterThan(0);
    expect(all.some((f) => f.loopDisplays.has("table") || f.loopDisplays.has("list"))).toBe(true);
  });
});

test("every seeded issue points at a seeded guide (guidePath = <guideId>/Guide.json)", () => {
  const dir = new URL("./seed/issues/", import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith(".md"));
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) {
    const front = readFileSync(new URL(f, dir), "utf8").split("---")[1] ?? "";
    const guideId = /^guideId:[ \t]*(.*)$/m.exec(front)?.[1]?.trim();
    const guidePath = /^guidePath:[ \t]*(.*)$/m.exec(front)?.[1]?.trim();
    expect(guideIds, f).toContain(guideId);
    expect(guidePath, f).toBe(`${guideId}/Guide.json`);
  }
});

test("all three field-type families are used across our guides", () => {
  const types = new Set(OWN_GUIDES.flatMap((id) => Object.values(load(id).pages).flatMap((p) => p.fields.map((f) => f.type))));
  for (const t of ["text", "textlong", "number", "numberdollar", "datemdy", "radio", "checkbox", "attachment"]) expect(types).toContain(t);
});

/** Repeat loops of a guide's templates: the loop variable and the variables of its columns or items. */
function templateLoops(guideId: string): { loopVariable: string; variables: string[] }[] {
  const out: { loopVariable: string; variables: string[] }[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!isObj(n)) return;
    if (n.tag === "a2j-repeat-loop" && isObj(n.state)) {
      const st = n.state;
      const vars = [...(st.tableColumns as Json[]), ...(st.listItems as Json[])].map((c) => String(c.variable));
      out.push({ loopVariable: String(st.loopVariable), variables: vars });
    }
    Object.values(n).forEach(walk);
  };
  const list = JSON.parse(read(guideId, "templates.json")) as { templateIds: number[] };
  for (const id of list.templateIds) walk(JSON.parse(read(guideId, `template${id}.json`)));
  return out;
}

/** For each template loop: its iteration count (last value of the loop variable), and every column answered at 1..count. */
function expectLoopsFilled(guideId: string, state: InterviewState, counts: Record<string, number>): void {
  const loops = templateLoops(guideId);
  expect(loops.length).toBeGreaterThan(0);
  for (const loop of loops) {
    const count = getRaw(state.answers, loop.loopVariable);
    expect(count, loop.loopVariable).toBe(counts[loop.loopVariable]);
    for (const v of loop.variables) {
      const values = state.answers[v.toLowerCase()]?.values ?? [];
      for (let i = 1; i <= (count as number); i++) expect(values[i] ?? null, `${v}#${i}`).not.toBeNull();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scripted runs

class Runner {
  state: InterviewState;
  visited: string[] = [];
  constructor(
    readonly guide: Guide,
    readonly today: number,
    /** A state to continue from (e.g. a resumed interview); else a new interview is started. */
    from?: TransitionResult,
  ) {
    const r = from ?? startInterview(guide, today);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.scriptErrors).toEqual([]);
    this.state = r.state;
    this.visited.push(this.page);
  }
  get page(): string {
    return currentPage(this.state) as string;
  }
  /** Press the button labelled `label` with these form values; page changes are recorded in `visited`. */
  press(label: string, values: FormValues = {}): TransitionResult & { ok: true } {
    const page = this.guide.pages[this.page];
    const idx = page?.buttons.findIndex((b) => b.label === label) ?? -1;
    if (idx < 0) throw new Error(`no button "${label}" on page "${this.page}"`);
    const r = submitPage(this.guide, this.state, { pageName: this.page, buttonIndex: idx, values }, this.today);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.scriptErrors).toEqual([]);
    if (r.outcome.kind !== "invalid") {
      this.state = r.state;
      if (r.outcome.kind === "page") this.visited.push(this.page);
    }
    return r;
  }
  /** The error messages a press gives (expecting it to be refused). */
  refused(label: string, values: FormValues = {}): string[] {
    const before = this.page;
    const r = this.press(label, values);
    if (r.outcome.kind !== "invalid") throw new Error(`expected "${label}" on "${before}" to be refused, got ${JSON.stringify(r.outcome)}`);
    expect(this.page).toBe(before);
    return r.outcome.errors.map((e) => e.message);
  }
  back(): void {
    const r = goBack(this.guide, this.state, this.today);
    if (!r.ok) throw new Error(r.error.message);
    this.state = r.state;
    this.visited.push(this.page);
  }
  get(name: string, index = 1) {
    return getRaw(this.state.answers, name, index);
  }
  values(name: string) {
    return this.state.answers[name.toLowerCase()]?.values;
  }
  /** The values the current page's fields show, by input name. */
  shown(): Record<string, string> {
    const view = renderPage(this.guide, this.state, this.today);
    if (!view) throw new Error("no page");
    return Object.fromEntries(view.fields.filter((f) => f.type !== "radio").map((f) => [f.inputName, f.type === "checkbox" ? String(f.checked) : f.value]));
  }
  text(): string {
    return renderPage(this.guide, this.state, this.today)?.text ?? "";
  }
  /**
   * Press a button that leaves the interview (its special target). A finishing target (SUCCESS, ASSEMBLE…) first
   * opens "Check your answers"; "Confirm and finish" there then gives the target.
   */
  special(label: string, values: FormValues = {}): string {
    let r: TransitionResult = this.press(label, values);
    if (r.ok && r.outcome.kind === "review") {
      r = confirmFinish(this.state);
      if (!r.ok) throw new Error(r.error.message);
      this.state = r.state;
    }
    if (!r.ok || r.outcome.kind !== "special") throw new Error(`expected a special target, got ${JSON.stringify(r.ok ? r.outcome : r.error)}`);
    return r.outcome.target;
  }
}

// ---------------------------------------------------------------------------------------------

describe("letter-of-demand", () => {
  const guide = load("letter-of-demand");
  const TODAY = ymdToDays(2026, 3, 31) as number;

  const me = { "user full name te": "Lim Mei Ling", "user address te": "Blk 1 Sample Street\nSingapore", "user email te": "" };

  test("business debtor, three unpaid salaries, interest, upload: letter assembled", () => {
    const r = new Runner(guide, TODAY);
    r.press("Start");
    expect(r.refused("Continue", { ...me, "user full name te": "  " })).toEqual(["Please type your full name. It will appear on the letter."]);
    r.press("Continue", me);
    expect(r.refused("Continue", {})).toEqual([expect.stringContaining("choose a response")]);
    r.press("Continue", { "debtor type mc": "Business" });
    r.press("Continue", { "debtor name te": "Acme Trading Pte Ltd", "debtor address te": "1 Example Road\nSingapore" });
    expect(r.page).toBe("05-Business contact");
    r.press("Continue", { "debtor uen te": "201900000A", "debtor contact te": "Ms Tan" });
    expect([r.get("Has UEN TF"), r.get("Has contact TF")]).toEqual([true, true]);
    r.press("Continue", { "debt reason mc": "Salary", "debt background te": "I worked in the shop from 2025 until March 2026." });
    r.press("Continue", { "item count nu": "3" });
    expect(r.page).toBe("08-Item");
    expect(r.get("ItemIndex")).toBe(1);

    const jan = { "item description te": "Salary for January 2026", "item amount nu": "2,000", "item due date da": "1/31/2026" };
    r.press("Continue", jan);
    expect(r.page).toBe("08-Item");
    expect(r.get("ItemIndex")).toBe(2);
    // Back to the first amount keeps its answers; continuing again goes to the second, not the third
    r.back();
    expect(r.shown()).toMatchObject({ "item description te": "Salary for January 2026", "item amount nu": "2000", "item due date da": "01/31/2026" });
    r.press("Continue", jan);
    expect(r.state.history.at(-1)?.repeatVarValue).toBe(2);
    r.press("Continue", { "item description te": "Salary for February 2026", "item amount nu": "2000", "item due date da": "02/28/2026" });
    r.press("Continue", { "item description te": "Overtime in March 2026", "item amount nu": "350.50", "item due date da": "03/15/2026" });
    expect(r.page).toBe("09-Total");

    expect(r.values("Item description TE")).toEqual([null, "Salary for January 2026", "Salary for February 2026", "Overtime in March 2026"]);
    expect(r.values("Item amount NU")).toEqual([null, 2000, 2000, 350.5]);
    expect(r.values("Item due date DA")).toEqual([null, "01/31/2026", "02/28/2026", "03/15/2026"]);
    expect(r.values("Item amount TE")).toEqual([null, "S$2,000.00", "S$2,000.00", "S$350.50"]);
    expect(r.values("Item days overdue NU")).toEqual([null, 59, 31, 16]);
    expect(r.get("Total owed NU")).toBe(4350.5);
    expect(r.get("Total owed TE")).toBe("4,350.50");
    expect(r.get("Days overdue NU")).toBe(59);
    expect(r.get("Overdue over 30 TF")).toBe(true);
    expect(r.text()).toContain("S$4,350.50");

    r.press("This is right");
    expect(r.page).toBe("10-Interest");
    r.press("Continue", { "claim interest tf": "true", "interest basis te": "8% a year" });
    expect(r.get("Interest sentence TE")).toBe("The interest rate in our agreement is: 8% a year.");
    expect(r.refused("Continue", { "days to pay nu": "3", "next step mc": "Claim" })).toEqual(["Please choose a number of days from 7 to 30."]);
    r.press("Continue", { "days to pay nu": "14", "next step mc": "Claim" });
    expect(r.get("Pay by DA")).toBe("04/14/2026");
    r.press("Continue", { "supporting document at": "uploads/1/payslips.pdf", "document description te": "My payslips" });
    expect(r.get("Has document TF")).toBe(true);
    expect(attachmentPath(r.state.answers, "Supporting document AT")).toBe("uploads/1/payslips.pdf");
    expect(r.get("Letter date DA")).toBe("03/31/2026");
    expect(r.special("Create my letter")).toBe("ASSEMBLE-SUCCESS");
    expect(r.get("A2J Interview Incomplete TF")).toBe(false);
    expectLoopsFilled("letter-of-demand", r.state, { "Item count NU": 3 });
    expect(r.visited).toEqual([
      "01-Welcome",
      "02-Your details",
      "03-Who owes you",
      "04-Debtor details",
      "05-Business contact",
      "06-Reason",
      "07-How many",
      "08-Item",
      "08-Item",
      "08-Item", // back to the first amount
      "08-Item",
      "08-Item",
      "09-Total",
      "10-Interest",
      "11-Deadline",
      "12-Documents",
      "13-Review",
    ]);
  });

  test("person, one recent loan: no business page, no interest page, corrections recomputed", () => {
    const r = new Runner(guide, TODAY);
    r.press("Start");
    r.press("Continue", me);
    r.press("Continue", { "debtor type mc": "Individual" });
    expect(r.refused("Continue", { "debtor name te": "" })).toEqual(["Please type the name of the person or business who owes you money."]);
    r.press("Continue", { "debtor name te": "Tan Ah Kow", "debtor address te": "" });
    expect(r.page).toBe("06-Reason");
    r.press("Continue", { "debt reason mc": "Loan" });
    expect(r.refused("Continue", { "item count nu": "0" })).toEqual(["Please enter how many unpaid amounts there are, from 1 to 10."]);
    r.press("Continue", { "item count nu": "1" });
    expect(r.refused("Continue", { "item description te": "Loan", "item amount nu": "500", "item due date da": "04/05/2026" })).toEqual([
      "Please enter the date this amount was due. It must be today or earlier.",
    ]);
    r.press("Continue", { "item description te": "Loan made in February", "item amount nu": "500", "item due date da": "03/21/2026" });
    expect(r.page).toBe("09-Total");
    expect(r.get("Total owed NU")).toBe(500);
    expect(r.get("Days overdue NU")).toBe(10);
    // "Go back and change something" returns to the amount with its answers; the total is recomputed
    r.press("Go back and change something");
    expect(r.page).toBe("08-Item");
    expect(r.shown()).toMatchObject({ "item description te": "Loan made in February", "item amount nu": "500" });
    r.press("Continue", { "item description te": "Loan made in February", "item amount nu": "650.25", "item due date da": "03/21/2026" });
    expect(r.page).toBe("09-Total");
    expect(r.get("Total owed NU")).toBe(650.25);
    expect(r.get("Total owed TE")).toBe("650.25");
    expect(r.get("Overdue over 30 TF")).toBe(false);
    r.press("This is right");
    expect(r.page).toBe("11-Deadline"); // 10 days overdue: the interest page is skipped
    expect(r.get("Claim interest TF")).toBe(false);
    r.press("Continue", { "days to pay nu": "7", "next step mc": "Consider" });
    expect(r.get("Pay by DA")).toBe("04/07/2026");
    r.press("Continue", {});
    expect(r.get("Has document TF")).toBe(false);
    r.press("Go back");
    expect(r.page).toBe("12-Documents");
    r.press("Continue", {});
    expect(r.special("Create my letter")).toBe("ASSEMBLE-SUCCESS");
    expect(r.visited).toEqual([
      "01-Welcome",
      "02-Your details",
      "03-Who owes you",
      "04-Debtor details",
      "06-Reason",
      "07-How many",
      "08-Item",
      "09-Total",
      "08-Item",
      "09-Total",
      "11-Deadline",
      "12-Documents",
      "13-Review",
      "12-Documents",
      "13-Review",
    ]);
  });
});

describe("tenancy-deposit", () => {
  const guide = load("tenancy-deposit");
  const TODAY = ymdToDays(2026, 3, 31) as number;
  const me = { "tenant name te": "Sam Nguyen", "tenant address te": "2 New Street\nSampletown", "tenant email te": "" };

  test("agent claims three deductions, dates corrected, time-limit page, condition report: documents assembled", () => {
    const r = new Runner(guide, TODAY);
    r.press("Start");
    expect(r.refused("Continue", { ...me, "tenant name te": "" })).toEqual(["Please type your full name. It will appear on your letter."]);
    r.press("Continue", me);
    r.press("Continue", { "property address te": "5 Sample Lane\nNewtown", "property state mc": "New South Wales" });
    // an end date before the start date is explained, and Back returns with the dates kept
    r.press("Continue", { "tenancy start da": "03/01/2025", "tenancy end da": "02/14/2025" });
    expect(r.page).toBe("05-Check dates");
    expect(r.text()).toContain("02/14/2025");
    r.press("Go back and change the dates");
    expect(r.page).toBe("04-Tenancy dates");
    expect(r.shown()).toEqual({ "tenancy start da": "03/01/2025", "tenancy end da": "02/14/2025" });
    expect(r.refused("Continue", { "tenancy start da": "03/01/2025", "tenancy end da": "04/10/2026" })).toEqual([
      "Please enter the date you moved out and returned the keys. It cannot be in the future.",
    ]);
    r.press("Continue", { "tenancy start da": "03/01/2025", "tenancy end da": "02/14/2026" });
    expect(r.page).toBe("06-Bond");
    expect(r.get("Days since end NU")).toBe(45);
    expect(r.get("Tenancy days NU")).toBe(350);
    // In plain words, not a count of days (issue 25).
    expect(r.get("Time since end TE")).toBe("about 6 weeks");
    expect(r.text()).toContain("about 6 weeks ago");
    r.press("Continue", { "bond amount nu": "2,400", "bond number te": "", "bond receipt tf": "on" });
    expect(r.get("Bond receipt TF")).toBe(true);
    expect(r.get("Has bond number TF")).toBe(false);
    r.press("Continue", { "landlord type mc": "Agent", "landlord name te": "Harbour Realty", "landlord address te": "", "landlord email te": "" });
    r.press("Yes, they want to keep some or all of it");
    expect(r.get("Has deductions TF")).toBe(true);
    expect(r.get("DeductionIndex")).toBe(1);
    expect(r.refused("Continue", { "deduction item te": "Carpet cleaning", "deduction amount nu": "350" })).toEqual([
      "You must choose a response from the highlighted selection before you can continue.",
    ]);
    r.press("Continue", { "deduction item te": "Carpet cleaning", "deduction amount nu": "350", "deduction agree mc": "Agreed" });
    expect(r.get("Deduction count NU")).toBe(1);
    r.press("Add another deduction");
    expect(r.state.history.at(-1)?.repeatVarValue).toBe(2);
    const paint = {
      "deduction item te": "Repainting",
      "deduction amount nu": "1200",
      "deduction agree mc": "Not agreed",
      "deduction reason te": "The marks were there when I moved in.",
    };
    r.press("Continue", paint);
    expect(r.get("Deduction count NU")).toBe(2);
    // Back twice (to the question after the first deduction), then "Add another" still goes to the third, blank one
    r.back();
    expect(r.shown()).toMatchObject({ "deduction item te": "Repainting", "deduction amount nu": "1200" });
    r.back();
    expect(r.page).toBe("10-More deductions");
    r.press("Add another deduction");
    expect(r.state.history.at(-1)?.repeatVarValue).toBe(3);
    expect(r.shown()).toMatchObject({ "deduction item te": "", "deduction amount nu": "" });
    r.press("Continue", { "deduction item te": "Rubbish removal", "deduction amount nu": "150", "deduction agree mc": "Not agreed" });
    expect(r.get("Deduction count NU")).toBe(3);
    r.press("No more deductions");
    expect(r.page).toBe("11-Deductions summary");
    expect(r.values("Deduction item TE")).toEqual([null, "Carpet cleaning", "Repainting", "Rubbish removal"]);
    expect(r.values("Deduction amount NU")).toEqual([null, 350, 1200, 150]);
    expect(r.values("Deduction agree MC")).toEqual([null, "Agreed", "Not agreed", "Not agreed"]);
    expect(r.values("Deduction reason TE")).toEqual([null, "", "The marks were there when I moved in.", ""]);
    expect(r.values("Deduction amount TE")).toEqual([null, "$350.00", "$1,200.00", "$150.00"]);
    expect(r.get("Total claimed NU")).toBe(1700);
    expect(r.get("Total agreed NU")).toBe(350);
    expect(r.get("Total disputed NU")).toBe(1350);
    expect(r.get("Amount to return NU")).toBe(2050);
    expect(r.get("Amount to return TE")).toBe("2,050.00");
    expect(r.get("Has dispute TF")).toBe(true);
    expect(r.text()).toContain("$2,050.00");
    r.press("That is right");
    expect(r.refused("Continue", { "days to reply nu": "40", "next step mc": "Tribunal" })).toEqual(["Please choose a number of days from 7 to 28."]);
    r.press("Continue", { "days to reply nu": "14", "next step mc": "Tribunal", "extra comments te": "" });
    expect(r.get("Reply by DA")).toBe("04/14/2026");
    expect(r.page).toBe("13-Time limits");
    expect(r.get("Time warning TF")).toBe(true);
    expect(r.text()).toContain("New South Wales");
    r.press("Continue");
    r.press("Continue", { "condition report at": "uploads/7/condition-report.pdf", "photos exit tf": "true" });
    expect(r.get("Has condition report TF")).toBe(true);
    expect(attachmentPath(r.state.answers, "Condition report AT")).toBe("uploads/7/condition-report.pdf");
    expect(r.get("Letter date DA")).toBe("03/31/2026");
    expect(r.special("Create my documents")).toBe("ASSEMBLE-SUCCESS");
    expectLoopsFilled("tenancy-deposit", r.state, { "Deduction count NU": 3 });
    expect(r.visited).toEqual([
      "01-Welcome",
      "02-About you",
      "03-Rental property",
      "04-Tenancy dates",
      "05-Check dates",
      "04-Tenancy dates",
      "06-Bond",
      "07-Landlord",
      "08-Claim",
      "09-Deduction",
      "10-More deductions",
      "09-Deduction",
      "10-More deductions",
      "09-Deduction", // back
      "10-More deductions", // back
      "09-Deduction",
      "10-More deductions",
      "11-Deductions summary",
      "12-Outcome",
      "13-Time limits",
      "14-Condition report",
      "15-Finish",
    ]);
  });

  test("private landlord, no deductions, recent move-out: no time-limit page, whole bond asked for", () => {
    const r = new Runner(guide, TODAY);
    r.press("Start");
    r.press("Continue", me);
    r.press("Continue", { "property address te": "9 Example Road", "property state mc": "Victoria" });
    r.press("Continue", { "tenancy start da": "9/1/2024", "tenancy end da": "3/21/2026" });
    expect(r.get("Days since end NU")).toBe(10);
    r.press("Continue", { "bond amount nu": "1800" });
    expect(r.refused("Continue", { "landlord type mc": "Landlord", "landlord name te": "" })).toEqual(["Please type the name of the agent or landlord."]);
    r.press("Continue", { "landlord type mc": "Landlord", "landlord name te": "Pat Jones" });
    r.press("No, they just have not returned it");
    expect(r.page).toBe("11-Deductions summary");
    expect(r.get("Has deductions TF")).toBe(false);
    expect(r.get("Deduction count NU")).toBe(0);
    expect(r.get("Amount to return NU")).toBe(1800);
    expect(r.get("Amount to return TE")).toBe("1,800.00");
    expect(r.get("Has dispute TF")).toBe(false);
    r.press("Go back and change something");
    expect(r.page).toBe("08-Claim");
    r.press("No, they just have not returned it");
    r.press("That is right");
    r.press("Continue", { "days to reply nu": "21", "next step mc": "Agreement" });
    expect(r.page).toBe("14-Condition report"); // ended 10 days ago: no time-limit page
    expect(r.get("Time warning TF")).toBe(false);
    expect(r.get("Reply by DA")).toBe("04/21/2026");
    r.press("Continue", {});
    expect(r.get("Has condition report TF")).toBe(false);
    r.press("Go back");
    expect(r.page).toBe("14-Condition report");
    r.press("Continue", {});
    expect(r.special("Create my documents")).toBe("ASSEMBLE-SUCCESS");
    expect(r.visited).toEqual([
      "01-Welcome",
      "02-About you",
      "03-Rental property",
      "04-Tenancy dates",
      "06-Bond",
      "07-Landlord",
      "08-Claim",
      "11-Deductions summary",
      "08-Claim",
      "11-Deductions summary",
      "12-Outcome",
      "14-Condition report",
      "15-Finish",
      "14-Condition report",
      "15-Finish",
    ]);
  });
});

describe("case-summary", () => {
  const guide = load("case-summary");
  const TODAY = ymdToDays(2026, 3, 31) as number;
  const me = { "first name te": "Alex", "last name te": "Rivera", "birth date da": "7/4/1990", "contact email te": "", "contact phone te": "" };

  test("says how long ago the first event was in plain words, never as a count of days (issue 25)", () => {
    const review = guide.pages["13-Review"]!.codeBefore;
    const cases: [number, string][] = [
      [0, "less than a day"],
      [1, "1 day"],
      [5, "5 days"],
      [20, "about 3 weeks"],
      [45, "about 6 weeks"],
      [120, "about 4 months"],
      [700, "about 23 months"],
      [1271, "more than 3 years"],
    ];
    for (const [days, words] of cases) {
      const answers = createAnswers(guide);
      const date = new Date(Date.UTC(2026, 2, 31) - days * 86_400_000);
      answers["event count nu"]!.values = [null, 1];
      answers["event date da"]!.values = [null, `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`];
      expect(runScript(review, { answers, today: TODAY }).errors).toEqual([]);
      expect(getRaw(answers, "Days since first event NU")).toBe(days);
      expect(getRaw(answers, "Time since first event TE"), `${days} days`).toBe(words);
    }
  });

  test("full path with a three-event timeline (one out of order), urgent, tried, key date, upload: summary assembled", () => {
    const r = new Runner(guide, TODAY);
    r.press("Start");
    expect(r.refused("Continue", { ...me, "first name te": "", "last name te": "" })).toEqual(["Please type your first name.", "Please type your last name."]);
    r.press("Continue", me);
    r.press("Continue", {
      "issue title te": "My employer has not paid my last two months of wages",
      "issue place te": "Sampletown",
      "need interpreter tf": "true",
      "language te": "Spanish",
    });
    r.press("Continue", { "other party type mc": "Organisation", "other party name te": "Example Cleaning Co", "other party relation te": "employer" });
    expect(r.page).toBe("05-Save point");
    expect(r.get("Other party line TE")).toBe("Example Cleaning Co (employer)");
    r.press("Continue");
    r.press("Add the first event");
    expect(r.get("EventIndex")).toBe(1);
    expect(r.refused("Continue", { "event date da": "05/01/2026", "event description te": " " })).toEqual([
      "Please enter the date of this event. If you are not sure of the day, use your best estimate. It cannot be in the future.",
      "Please describe what happened, in a sentence or two.",
    ]);
    r.press("Continue", { "event date da": "01/15/2026", "event description te": "My January wages were not paid.", "event record tf": "true" });
    expect(r.get("Event count NU")).toBe(1);
    expect(r.text()).toContain("You have added 1 event. The latest one you added:");
    r.press("Add another event");
    const second = { "event date da": "02/20/2026", "event description te": "I asked my manager about the wages by email.", "event record tf": "true" };
    r.press("Continue", second);
    expect(r.text()).toContain("You have added 2 events.");
    expect(r.text()).toContain("I asked my manager about the wages by email.");
    r.back();
    expect(r.page).toBe("07-Event");
    expect(r.shown()).toEqual({ "event date da": "02/20/2026", "event description te": "I asked my manager about the wages by email.", "event record tf": "true" });
    r.press("Continue", second);
    expect(r.get("Event count NU")).toBe(2);
    r.press("Add another event");
    expect(r.state.history.at(-1)?.repeatVarValue).toBe(3);
    r.press("Continue", { "event date da": "12/01/2025", "event description te": "I started working there." });
    r.press("I have finished the timeline");
    expect(r.values("Event date DA")).toEqual([null, "01/15/2026", "02/20/2026", "12/01/2025"]);
    expect(r.values("Event description TE")).toEqual([null, "My January wages were not paid.", "I asked my manager about the wages by email.", "I started working there."]);
    expect(r.values("Event record TF")).toEqual([null, true, true, false]);
    r.press("Continue", { "outcome wanted te": "To be paid the wages I am owed.", "urgent tf": "true", "tried resolve tf": "true" });
    expect(r.page).toBe("10-What you tried");
    expect(r.refused("Continue", { "tried details te": "" })).toEqual(["Please describe briefly what you tried, or go back and untick the box."]);
    r.press("Continue", { "tried details te": "I emailed my manager twice." });
    r.press("Continue", { "key date da": "04/20/2026", "key date what te": "Mediation appointment" });
    expect(r.get("Has key date TF")).toBe(true);
    expect(r.get("Days to key date NU")).toBe(20);
    r.press("Continue", { "supporting document at": "uploads/9/payslip.pdf", "documents list te": "Emails to my manager" });
    expect(r.page).toBe("13-Review");
    expect(r.get("Has document TF")).toBe(true);
    expect(r.get("Full name TE")).toBe("Alex Rivera");
    expect(r.get("Summary date DA")).toBe("03/31/2026");
    expect(r.get("First event DA")).toBe("12/01/2025");
    expect(r.get("Days since first event NU")).toBe(120);
    expect(r.get("Time since first event TE")).toBe("about 4 months");
    expect(r.text()).toContain("starting on 12/01/2025 (about 4 months ago)");
    expect(r.get("Events out of order TF")).toBe(true);
    expect(r.text()).toContain("Some events are not in date order.");
    expect(r.special("Create my summary")).toBe("ASSEMBLE-SUCCESS");
    expect(r.get("A2J Interview Incomplete TF")).toBe(false);
    expectLoopsFilled("case-summary", r.state, { "Event count NU": 3 });
    expect(r.visited).toEqual([
      "01-Welcome",
      "02-About you",
      "03-Your situation",
      "04-Other party",
      "05-Save point",
      "06-Timeline start",
      "07-Event",
      "08-More events",
      "07-Event",
      "08-More events",
      "07-Event", // back
      "08-More events",
      "07-Event",
      "08-More events",
      "09-Outcome",
      "10-What you tried",
      "11-Deadline",
      "12-Documents",
      "13-Review",
    ]);
  });

  test("save and finish later (EXIT), resume, the exit page, then a short path to the summary", () => {
    const r = new Runner(guide, TODAY);
    r.press("Start");
    r.press("Continue", me);
    r.press("Continue", { "issue title te": "A dispute with my neighbour about a fence" });
    r.press("Continue", { "other party type mc": "Person", "other party name te": "Unknown" });
    expect(r.special("Save and finish later")).toBe("EXIT");
    expect(r.get("A2J Interview Incomplete TF")).toBe(true);

    // the saved answers alone reopen the page the person left from, with every answer kept
    const resumed = new Runner(guide, TODAY, resumeInterview(guide, JSON.stringify(r.state.answers), TODAY));
    expect(resumed.page).toBe("05-Save point");
    expect(resumed.get("Issue title TE")).toBe("A dispute with my neighbour about a fence");
    expect(resumed.get("Other party line TE")).toBe("Unknown");
    resumed.press("Continue");
    resumed.press("Add the first event");
    resumed.press("Continue", { "event date da": "3/1/2026", "event description te": "The fence fell onto my side." });
    resumed.press("I have finished the timeline");
    resumed.press("Continue", { "outcome wanted te": "To agree who repairs the fence." });
    expect(resumed.page).toBe("11-Deadline"); // not tried: the "what you tried" page is skipped
    resumed.press("Continue", {});
    expect(resumed.get("Has key date TF")).toBe(false);
    resumed.press("Continue", {});
    expect(resumed.get("Has document TF")).toBe(false);
    expect(resumed.page).toBe("13-Review");
    expect(resumed.get("First event DA")).toBe("03/01/2026");
    expect(resumed.get("Days since first event NU")).toBe(30);
    expect(resumed.get("Events out of order TF")).toBe(false);
    expect(resumed.get("Order note TE")).toBe("");

    // the header's Save & Exit opens the exit page; its Back button returns to the review
    const exit = saveAndExit(guide, resumed.state, TODAY);
    if (!exit.ok) throw new Error(exit.error.message);
    resumed.state = exit.state;
    resumed.visited.push(resumed.page);
    expect(resumed.page).toBe("99-Save and exit");
    resumed.press("Return to where I was");
    expect(resumed.page).toBe("13-Review");
    expect(resumed.special("Create my summary")).toBe("ASSEMBLE-SUCCESS");
    expect(resumed.visited).toEqual([
      "05-Save point",
      "06-Timeline start",
      "07-Event",
      "08-More events",
      "09-Outcome",
      "11-Deadline",
      "12-Documents",
      "13-Review",
      "99-Save and exit",
      "13-Review",
    ]);
  });
});
