/**
 * Loading guides: Guide.json (A2J 5–8) and Guide.xml (CAJA `<GUIDE>`) into one validated model.
 * A malformed guide gives an error naming the page and the problem; nothing throws.
 */
import { convertA2J4 } from "./a2j4";
import { varKey } from "./answers";
import { parseScript, type Expr, type Stmt } from "./parser";
import { FUNCTION_NAMES } from "./functions";
import { FIELD_TYPES, VAR_TYPES } from "./types";
import type { Author, Button, Field, FieldType, Guide, GuideVar, Page, Step, VarType } from "./types";
import { own, setOwn } from "./util";
import { attr, childElement, childElements, innerXml, parseXml, stripFormattingWhitespace, textContent, type XmlElement } from "./xml";

/** `a2j4`: the text was an A2J Author 4 guide (`<TEMPLATE>`), converted (app/a2j/a2j4.ts). */
export type LoadGuideResult = { ok: true; guide: Guide; warnings: string[]; a2j4?: boolean } | { ok: false; error: string };

/** Special button targets (not page names). */
export const SPECIAL_TARGETS = ["SUCCESS", "EXIT", "FAIL", "BACK", "RESUME", "MESSAGE", "ASSEMBLE", "ASSEMBLE-SUCCESS"] as const;
export type SpecialTarget = (typeof SPECIAL_TARGETS)[number];

export function isSpecialTarget(s: string): s is SpecialTarget {
  return (SPECIAL_TARGETS as readonly string[]).includes(s);
}

/** Variables every guide has (docs/a2j-formats.md). Added to the model when the guide lacks them. */
export const BUILTIN_VARS: readonly GuideVar[] = [
  { name: "User Gender", type: "MC", repeating: false, comment: "" },
  { name: "User Avatar", type: "Text", repeating: false, comment: "" },
  { name: "A2J Version", type: "Text", repeating: false, comment: "" },
  { name: "A2J Interview ID", type: "Text", repeating: false, comment: "" },
  { name: "A2J Bookmark", type: "Text", repeating: false, comment: "" },
  { name: "A2J History", type: "Text", repeating: false, comment: "" },
  { name: "A2J Navigation TF", type: "TF", repeating: false, comment: "" },
  { name: "A2J Interview Incomplete TF", type: "TF", repeating: false, comment: "" },
  ...Array.from({ length: 13 }, (_, i): GuideVar => ({ name: `A2J Step ${i}`, type: "Text", repeating: false, comment: "" })),
  { name: "A2J Resume Page", type: "Text", repeating: false, comment: "" },
  { name: "A2J Visited Pages", type: "Text", repeating: false, comment: "" },
];

class GuideError {
  constructor(public message: string) {}
}

function str(v: unknown, where: string): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new GuideError(`${where} must be text`);
}

function bool(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.trim().toLowerCase() === "true";
  return false;
}

function int(v: unknown, where: string): number {
  if (v === undefined || v === null || v === "") return 0;
  const n = typeof v === "number" ? v : Number(String(v).trim());
  if (!Number.isFinite(n)) throw new GuideError(`${where} must be a number`);
  return Math.trunc(n);
}

function fieldType(v: unknown, where: string): FieldType {
  const s = str(v, where).trim();
  const found = FIELD_TYPES.find((t) => t.toLowerCase() === s.toLowerCase());
  if (!found) throw new GuideError(`${where}: unknown field type "${s}"`);
  return found;
}

function varType(v: unknown): VarType {
  const s = typeof v === "string" ? v.trim() : "";
  return VAR_TYPES.find((t) => t.toLowerCase() === s.toLowerCase()) ?? (s === "" ? "Text" : "Unknown");
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new GuideError(`${where} must be an object`);
  return v as Record<string, unknown>;
}

function list(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new GuideError(`${where} must be a list`);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Building the model from plain records (shared by JSON and XML)

function makeField(r: Record<string, unknown>, where: string): Field {
  return {
    type: fieldType(r.type, where),
    label: str(r.label, `${where} label`),
    name: str(r.name, `${where} name`).trim(),
    value: str(r.value, `${where} value`),
    required: bool(r.required),
    order: str(r.order, `${where} order`),
    min: str(r.min, `${where} min`),
    max: str(r.max, `${where} max`),
    maxChars: str(r.maxChars, `${where} maxChars`),
    calculator: bool(r.calculator),
    listSrc: str(r.listSrc, `${where} listSrc`),
    listData: str(r.listData, `${where} listData`),
    sample: str(r.sample, `${where} sample`),
    invalidPrompt: str(r.invalidPrompt, `${where} invalidPrompt`),
  };
}

function makeButton(r: Record<string, unknown>, where: string): Button {
  return {
    label: str(r.label, `${where} label`),
    next: str(r.next, `${where} next`).trim(),
    url: str(r.url, `${where} url`),
    message: str(r.message, `${where} message`),
    name: str(r.name, `${where} name`).trim(),
    value: str(r.value, `${where} value`),
    repeatVar: str(r.repeatVar, `${where} repeatVar`).trim(),
    repeatVarSet: str(r.repeatVarSet, `${where} repeatVarSet`).trim(),
  };
}

function makePage(r: Record<string, unknown>, fallbackName: string): Page {
  const name = str(r.name, `page "${fallbackName}" name`) || fallbackName;
  const where = `page "${name}"`;
  const fields = list(r.fields, `${where}: fields`).map((f, i) => makeField(obj(f, `${where} field ${i + 1}`), `${where} field ${i + 1}`));
  const buttons = list(r.buttons, `${where}: buttons`).map((b, i) =>
    makeButton(obj(b, `${where} button ${i + 1}`), `${where} button ${i + 1}`),
  );
  const s = (k: string) => str(r[k], `${where} ${k}`);
  return {
    name,
    type: s("type") || "A2J",
    step: int(r.step, `${where} step`),
    repeatVar: s("repeatVar").trim(),
    nested: bool(r.nested),
    outerLoopVar: s("outerLoopVar").trim(),
    text: s("text"),
    textCitation: s("textCitation"),
    textAudioURL: s("textAudioURL"),
    learn: s("learn"),
    help: s("help"),
    helpCitation: s("helpCitation"),
    helpMediaLabel: s("helpMediaLabel"),
    helpAudioURL: s("helpAudioURL"),
    helpReader: s("helpReader"),
    helpImageURL: s("helpImageURL"),
    helpAltText: s("helpAltText"),
    helpVideoURL: s("helpVideoURL"),
    fields,
    buttons,
    codeBefore: s("codeBefore"),
    codeAfter: s("codeAfter"),
    codeCitation: s("codeCitation"),
    notes: s("notes"),
  };
}

function makeVar(r: Record<string, unknown>, fallbackName: string): GuideVar {
  return {
    name: (str(r.name, `variable "${fallbackName}" name`) || fallbackName).trim(),
    type: varType(r.type),
    repeating: bool(r.repeating),
    comment: str(r.comment, `variable "${fallbackName}" comment`),
  };
}

function finish(g: Guide): { guide: Guide; warnings: string[] } {
  const warnings: string[] = [];
  for (const b of BUILTIN_VARS) {
    const key = varKey(b.name);
    if (!own(g.vars, key)) setOwn(g.vars, key, { ...b });
  }
  if (Object.keys(g.pages).length === 0) throw new GuideError("the guide has no pages");
  if (!own(g.pages, g.firstPage)) {
    throw new GuideError(g.firstPage === "" ? "the guide has no first page" : `first page "${g.firstPage}" does not exist`);
  }
  if (g.exitPage !== "" && !own(g.pages, g.exitPage)) warnings.push(`exit page "${g.exitPage}" does not exist`);
  for (const p of Object.values(g.pages)) {
    p.buttons.forEach((b, i) => {
      if (b.next !== "" && !isSpecialTarget(b.next) && !own(g.pages, b.next)) {
        warnings.push(`page "${p.name}" button ${i + 1}: target page "${b.next}" does not exist`);
      }
      if (b.repeatVarSet !== "" && b.repeatVarSet !== "=1" && b.repeatVarSet !== "+=1") {
        warnings.push(`page "${p.name}" button ${i + 1}: unknown repeatVarSet "${b.repeatVarSet}"`);
      }
    });
    if (p.step < 0 || (g.steps.length > 0 && p.step >= g.steps.length)) {
      warnings.push(`page "${p.name}": step ${p.step} is not one of the guide's steps`);
    }
    for (const f of p.fields) {
      if (f.name !== "" && !own(g.vars, varKey(f.name))) {
        // A field on an undeclared variable: declare it with the type its field implies.
        setOwn(g.vars, varKey(f.name), { name: f.name, type: fieldVarType(f.type), repeating: p.repeatVar !== "", comment: "" });
        warnings.push(`page "${p.name}": field variable "${f.name}" was not declared`);
      }
    }
  }
  warnings.push(...lintScripts(g));
  return { guide: g, warnings };
}

/** Variable names, GOTO targets and function names used by a script. */
function scriptRefs(stmts: Stmt[], vars: Set<string>, gotos: Set<string>, calls = new Set<string>()): void {
  const expr = (e: Expr): void => {
    switch (e.k) {
      case "var":
        vars.add(e.ref.name);
        if (e.ref.index?.kind === "var") vars.add(e.ref.index.name);
        return;
      case "call":
        calls.add(e.name);
        e.args.forEach(expr);
        return;
      case "un":
        expr(e.e);
        return;
      case "bin":
        expr(e.l);
        expr(e.r);
        return;
      default:
        return;
    }
  };
  for (const st of stmts) {
    if (st.k === "set") {
      vars.add(st.target.name);
      if (st.target.index?.kind === "var") vars.add(st.target.index.name);
      expr(st.e);
    } else if (st.k === "goto") gotos.add(st.page);
    else if (st.k === "trace") expr(st.e);
    else if (st.k === "if") {
      for (const b of st.branches) {
        expr(b.cond);
        scriptRefs(b.body, vars, gotos, calls);
      }
      if (st.elseBody) scriptRefs(st.elseBody, vars, gotos, calls);
    }
  }
}

/**
 * Check every page's scripts as A2J's script checker does: compile errors, GOTOs to missing pages, functions
 * the engine does not have, and variables the guide does not declare. These are warnings: at run time a block
 * that does not compile is skipped and reported, a missing GOTO target is reported, an unknown function gives
 * the text `Unknown function "F"` (as A2J does), and an undeclared variable reads as blank.
 */
const KNOWN_FUNCTIONS = new Set(FUNCTION_NAMES.map((name) => name.toLowerCase()));

export function lintScripts(g: Guide): string[] {
  const out: string[] = [];
  for (const p of Object.values(g.pages)) {
    for (const which of ["codeBefore", "codeAfter"] as const) {
      const code = p[which];
      if (code.trim() === "") continue;
      const r = parseScript(code);
      if (!r.ok) {
        out.push(`page "${p.name}" ${which} line ${r.error.line}: ${r.error.message}`);
        continue;
      }
      const vars = new Set<string>();
      const gotos = new Set<string>();
      const calls = new Set<string>();
      scriptRefs(r.value, vars, gotos, calls);
      for (const name of calls) {
        if (!KNOWN_FUNCTIONS.has(name.toLowerCase())) out.push(`page "${p.name}" ${which}: unknown function "${name}"`);
      }
      for (const t of gotos) {
        if (!own(g.pages, t) && !isSpecialTarget(t)) out.push(`page "${p.name}" ${which}: GOTO page "${t}" does not exist`);
      }
      for (const v of vars) {
        if (!own(g.vars, varKey(v))) out.push(`page "${p.name}" ${which}: variable "${v}" is not declared`);
      }
    }
  }
  return out;
}

/** Variable type implied by a field type (docs/a2j-formats.md). */
export function fieldVarType(t: FieldType): VarType {
  switch (t) {
    case "radio":
    case "gender":
    case "textpick":
    case "checkboxmultiple":
      return "MC";
    case "checkbox":
    case "checkboxNOTA":
      return "TF";
    case "number":
    case "numberdollar":
    case "numberpick":
      return "Number";
    case "datemdy":
      return "Date";
    case "attachment":
      return "Attachment";
    default:
      return "Text";
  }
}

// ---------------------------------------------------------------------------------------------
// JSON

function fromJsonObject(data: unknown): Guide {
  const r = obj(data, "the guide");
  const pages: Record<string, Page> = {};
  const rawPages = r.pages;
  const entries: [string, unknown][] = Array.isArray(rawPages)
    ? rawPages.map((p, i) => [String((p as { name?: unknown } | null)?.name ?? `#${i + 1}`), p])
    : Object.entries(obj(rawPages ?? {}, "pages"));
  for (const [key, p] of entries) {
    const page = makePage(obj(p, `page "${key}"`), key);
    if (own(pages, page.name)) throw new GuideError(`page "${page.name}" is defined twice`);
    setOwn(pages, page.name, page);
  }
  const vars: Record<string, GuideVar> = {};
  const rawVars = r.vars;
  const varEntries: [string, unknown][] = Array.isArray(rawVars)
    ? rawVars.map((v, i) => [String((v as { name?: unknown } | null)?.name ?? `#${i + 1}`), v])
    : Object.entries(obj(rawVars ?? {}, "vars"));
  for (const [key, v] of varEntries) {
    const gv = makeVar(obj(v, `variable "${key}"`), key);
    if (gv.name === "") continue;
    setOwn(vars, varKey(gv.name), gv);
  }
  const steps: Step[] = list(r.steps, "steps").map((s, i) => {
    const so = obj(s, `step ${i}`);
    return { number: str(so.number, `step ${i} number`), text: str(so.text, `step ${i} text`) };
  });
  const authors: Author[] = list(r.authors, "authors").map((a, i) => {
    const ao = obj(a, `author ${i + 1}`);
    return {
      name: str(ao.name, "author name"),
      title: str(ao.title, "author title"),
      organization: str(ao.organization, "author organization"),
      email: str(ao.email, "author email"),
    };
  });
  const s = (k: string) => str(r[k], k);
  return {
    title: s("title"),
    description: s("description"),
    jurisdiction: s("jurisdiction"),
    subjectarea: s("subjectarea"),
    language: s("language"),
    version: s("version"),
    tool: s("tool"),
    toolversion: s("toolversion"),
    avatar: s("avatar"),
    guideGender: s("guideGender"),
    authors,
    firstPage: s("firstPage"),
    exitPage: s("exitPage"),
    steps,
    vars,
    pages,
  };
}

// ---------------------------------------------------------------------------------------------
// XML (Guide.xml, docs/a2j-formats.md)

/** Elements whose content is HTML markup, read as inner XML. */
const HTML_ELEMENTS = new Set([
  "text",
  "textcitation",
  "learn",
  "help",
  "helpcitation",
  "helpreader",
  "helpmedialabel",
  "label",
  "codebefore",
  "codeafter",
  "codecitation",
  "notes",
  "listdata",
  "invalidprompt",
  "description",
  "credits",
  "copyrights",
  "message",
]);

function childValue(el: XmlElement, name: string): string {
  const c = childElement(el, name);
  if (!c) return "";
  return HTML_ELEMENTS.has(name.toLowerCase()) ? innerXml(stripFormattingWhitespace(c), true) : textContent(c);
}

function xmlRecord(el: XmlElement, attrs: string[], children: string[]): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  for (const a of attrs) {
    const v = attr(el, a.toUpperCase());
    if (v !== undefined) r[a] = v;
  }
  for (const c of children) {
    const [jsonName, xmlName] = c.includes(":") ? (c.split(":") as [string, string]) : [c, c];
    if (childElement(el, xmlName)) r[jsonName] = childValue(el, xmlName);
  }
  return r;
}

function fromXmlRoot(root: XmlElement): Guide {
  if (root.name.toUpperCase() !== "GUIDE") {
    throw new GuideError(`not an A2J guide: the root element is <${root.name}>, expected <GUIDE> (A2J 5 and later) or <TEMPLATE> (A2J 4)`);
  }
  const info = childElement(root, "INFO");
  const infoRec: Record<string, unknown> = info
    ? xmlRecord(
        info,
        [],
        [
          "title",
          "description",
          "jurisdiction",
          "subjectarea",
          "language",
          "version",
          "tool",
          "toolversion",
          "avatar",
          "guideGender",
          "firstPage",
          "exitPage",
        ],
      )
    : {};
  const authors = info
    ? childElements(childElement(info, "AUTHORS") ?? info, "AUTHOR").map((a) => ({
        name: childValue(a, "NAME"),
        title: childValue(a, "TITLE"),
        organization: childValue(a, "ORGANIZATION"),
        email: childValue(a, "EMAIL"),
      }))
    : [];
  const pages = childElements(childElement(root, "PAGES") ?? root, "PAGE").map((p, i) => {
    const rec = xmlRecord(
      p,
      ["name", "type", "step", "repeatVar", "nested", "outerLoopVar"],
      [
        "text",
        "textCitation",
        "textAudioURL:textaudio",
        "learn",
        "help",
        "helpCitation",
        "helpMediaLabel",
        "helpAudioURL:helpaudio",
        "helpReader",
        "helpImageURL:helpimage",
        "helpAltText",
        "helpVideoURL:helpvideo",
        "codeBefore",
        "codeAfter",
        "codeCitation",
        "notes",
      ],
    );
    if (rec.name === undefined) throw new GuideError(`page ${i + 1} has no NAME`);
    rec.buttons = childElements(childElement(p, "BUTTONS") ?? p, "BUTTON").map((b) =>
      xmlRecord(b, ["next", "url", "repeatVar", "repeatVarSet", "message"], ["label", "name", "value", "message"]),
    );
    rec.fields = childElements(childElement(p, "FIELDS") ?? p, "FIELD").map((f) =>
      xmlRecord(
        f,
        ["type", "order", "required", "min", "max", "maxChars", "calculator"],
        ["label", "name", "value", "listSrc", "listData", "sample", "invalidPrompt"],
      ),
    );
    return rec;
  });
  const steps = childElements(childElement(root, "STEPS") ?? root, "STEP").map((s) => ({
    number: attr(s, "NUMBER") ?? "",
    text: childValue(s, "TEXT"),
  }));
  const vars = childElements(childElement(root, "VARIABLES") ?? root, "VARIABLE").map((v) => ({
    name: attr(v, "NAME") ?? "",
    type: attr(v, "TYPE") ?? "",
    repeating: attr(v, "REPEATING") ?? false,
    comment: attr(v, "COMMENT") ?? (childElement(v, "COMMENT") ? textContent(childElement(v, "COMMENT") as XmlElement) : ""),
  }));
  return fromJsonObject({ ...infoRec, authors, pages, steps, vars });
}

// ---------------------------------------------------------------------------------------------

/**
 * Load a guide from the text of a Guide.json or Guide.xml (detected by its first character).
 * Returns the model and non-fatal warnings, or an error that names the page and the problem.
 */
export function loadGuide(text: string): LoadGuideResult {
  try {
    const t = text.replace(/^\uFEFF/, "").trimStart();
    let guide: Guide;
    if (t.startsWith("<")) {
      const x = parseXml(t);
      if (!x.ok) return { ok: false, error: x.error };
      if (x.value.name.toUpperCase() === "TEMPLATE") {
        const converted = convertA2J4(x.value);
        guide = fromJsonObject(converted.data);
        const { warnings } = finish(guide);
        return { ok: true, guide, warnings: [...converted.warnings, ...warnings], a2j4: true };
      }
      guide = fromXmlRoot(x.value);
    } else {
      let data: unknown;
      try {
        data = JSON.parse(t);
      } catch (e) {
        return { ok: false, error: `the guide is neither JSON nor XML: ${e instanceof Error ? e.message : String(e)}` };
      }
      guide = fromJsonObject(data);
    }
    const { warnings } = finish(guide);
    return { ok: true, guide, warnings };
  } catch (e) {
    if (e instanceof GuideError) return { ok: false, error: e.message };
    return { ok: false, error: `could not load the guide: ${String(e)}` };
  }
}

/** Load a guide from an already-parsed Guide.json object. */
export function loadGuideObject(data: unknown): LoadGuideResult {
  try {
    const guide = fromJsonObject(data);
    const { warnings } = finish(guide);
    return { ok: true, guide, warnings };
  } catch (e) {
    if (e instanceof GuideError) return { ok: false, error: e.message };
    return { ok: false, error: `could not load the guide: ${String(e)}` };
  }
}

/** A list file named by a field, among texts keyed by path: as written, else ignoring "./" and letter case. */
function listText(lists: Record<string, string>, listSrc: string): string | undefined {
  const exact = own(lists, listSrc);
  if (exact !== undefined) return exact;
  const want = listSrc.trim().replace(/^\.\//, "").toLowerCase();
  const key = Object.keys(lists).find((k) => k.replace(/^\.\//, "").toLowerCase() === want);
  return key === undefined ? undefined : lists[key];
}

function listInner(text: string): string {
  return text.replace(/<\?xml[^>]*>/i, "").replace(/<!DOCTYPE[^>]*>/i, "").replace(/<\/?select\b[^>]*>/gi, "").trim();
}

/**
 * Fill the options of pick-list fields whose `listSrc` names an external XML list
 * (`<SELECT><option value="…">…</option></SELECT>`), from texts the caller has read (keyed by `listSrc`).
 * The engine does no I/O; the server reads the files and passes them here. Returns a new guide.
 */
export function withPickLists(guide: Guide, lists: Record<string, string>): Guide {
  const pages: Record<string, Page> = {};
  for (const [name, page] of Object.entries(guide.pages)) {
    const fields = page.fields.map((f) => {
      if (f.listSrc === "" || f.listData.trim() !== "") return f;
      const text = listText(lists, f.listSrc);
      if (text === undefined) return f;
      return { ...f, listData: listInner(text) };
    });
    setOwn(pages, name, { ...page, fields });
  }
  return { ...guide, pages };
}

/**
 * What the import must tell the author about pick lists: every field whose list file (`listSrc`) is not among
 * the guide's files or holds no choices, and every pick list left without choices. `lists` are the texts of
 * the guide's XML files, keyed by path.
 */
export function pickListWarnings(guide: Guide, lists: Record<string, string>): string[] {
  const out: string[] = [];
  const count = (markup: string) => (markup.match(/<option\b/gi) ?? []).length;
  for (const page of Object.values(guide.pages)) {
    page.fields.forEach((f, i) => {
      if (f.type !== "textpick" && f.listSrc.trim() === "") return;
      const label = f.label.replace(/<[^>]*>/g, "").trim();
      const where = `page "${page.name}" field ${label ? `"${label}"` : i + 1}`;
      const own = count(f.listData);
      const src = f.listSrc.trim();
      if (src === "") {
        if (own === 0) out.push(`${where}: the pick list has no choices, so people cannot answer it. Add its choices to the field, or name a list file, and import the guide again.`);
        return;
      }
      const text = listText(lists, src);
      if (own > 0) {
        if (text === undefined) out.push(`${where}: the pick list file "${src}" is not among the guide's files; the ${own} choices saved with the field are used.`);
        return;
      }
      if (text === undefined) {
        out.push(`${where}: the pick list file "${src}" is not among the guide's files, so people cannot answer this question. Add ${src} to the guide and import it again.`);
      } else if (count(listInner(text)) === 0) {
        out.push(`${where}: the pick list file "${src}" holds no choices (<option> elements), so people cannot answer this question. Fix ${src} and import the guide again.`);
      }
    });
  }
  return out;
}
