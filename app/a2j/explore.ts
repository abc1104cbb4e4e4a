/**
 * The health check of a guide (issue 32): every page reachable from the start, explored as the engine runs it,
 * with the choices each page offers and a few values per field type (each field's limits among them), and what
 * stops a person found on the way. Pure like the rest of the engine: no clock. The caller gives a budget in
 * states and, to stop on time, a `shouldStop` it answers from its own clock; `run` goes a bounded number of
 * transitions at a time, so a server can give its event loop back between slices. docs/decisions/0039.
 */
import { varKey } from "./answers";
import { formatDays, parseUserDate } from "./dates";
import { saveAndExit, startInterview, submitPage, type InterviewState } from "./flow";
import { BUILTIN_VARS, isSpecialTarget } from "./guide";
import { resolvePopups } from "./macros";
import { parseExpression, parseScript, type Expr, type Stmt } from "./parser";
import type { Answers, AnswerVar, Field, Guide, Page } from "./types";
import { own, setOwn } from "./util";
import { asksForEmail, inputName, listOptions, numberPickOptions, type FormValues } from "./validate";
import { parseLooseNumber } from "./values";

export type FindingKind =
  | "unreached"
  | "dead-end"
  | "all-refused"
  | "missing-page"
  | "script-error"
  | "endless-loop"
  | "unset-variable"
  | "template-variable"
  | "no-choices"
  | "impossible-limits"
  | "missing-popup"
  | "missing-media";

/** An error stops a person (they cannot go on, or meet an error page); a warning does not, but is still wrong. */
export type FindingSeverity = "error" | "warning";

export interface HealthFinding {
  kind: FindingKind;
  severity: FindingSeverity;
  /** The page it is on, where a preview opens; null when it is about no page (a template). */
  page: string | null;
  /** Where on the page: a button, a field, a script and line, a template. Empty when it is the page itself. */
  where: string;
  message: string;
}

export interface Exploration {
  findings: HealthFinding[];
  /** Question pages reached (a page a GOTO passed through counts), of `pagesTotal` (popups are not counted). */
  pagesReached: number;
  pagesTotal: number;
  /** Distinct interview states explored (a page with the values its scripts read). */
  states: number;
  /** Button presses tried. */
  transitions: number;
  /** Every state reachable was explored: what is "never reached" is never reached. */
  complete: boolean;
  stoppedBy: "states" | "time" | null;
  /** The endings reached (SUCCESS, EXIT, …). */
  outcomes: string[];
}

export interface ExploreOptions {
  /** Today, as days since 1970-01-01 (dates fields are tried around it). */
  today: number;
  /** Most distinct states to explore (default 20,000). */
  maxStates?: number;
  /** Longest path followed, in pages (default 1,000): a loop that only grows is cut there. */
  maxDepth?: number;
  /** The guide's files (paths), to check its media; null or absent: media is not checked. */
  files?: ReadonlySet<string> | null;
  /** Asked every few transitions: true stops the exploration (the caller's time budget). */
  shouldStop?: () => boolean;
}

export const DEFAULT_MAX_STATES = 20_000;
export const DEFAULT_MAX_DEPTH = 1000;
/** Most value sets tried per page, and presses per page (buttons × value sets). */
const MAX_VARIANTS = 24;
const MAX_ATTEMPTS = 64;
/**
 * A page is explored from at most PAGE_STATES states (different values its scripts read), and only its first
 * VARIED_VISITS with every value set: later ones press each button with a typical person's values. Without
 * this, answers varied on every page multiply along a path (10 loop rounds × 5 value sets is 5^10 states).
 */
const PAGE_STATES = 32;
const VARIED_VISITS = 4;
/** Rounds of a repeat loop explored: later rounds do not make new states. */
const LOOP_ROUNDS = 3;
/** Transitions between two questions to `shouldStop`. */
const STOP_CHECK_EVERY = 64;

const BUILTIN_KEYS = new Set(BUILTIN_VARS.map((v) => v.name.toLowerCase()));
const isPopup = (page: Page) => page.type.toLowerCase() === "popup";
const missingPageMessage = /^Page "(.*)" does not exist\.$/;

// ------------------------------------------------------------------------------------------------
// What scripts and texts read and set.

/** Variables an expression reads; with `asking`, not those it only asks about (`HASANSWERED([X])` is meant for blanks). */
function exprReads(e: Expr, out: Set<string>, asking = false): void {
  switch (e.k) {
    case "var":
      out.add(varKey(e.ref.name));
      if (e.ref.index?.kind === "var") out.add(varKey(e.ref.index.name));
      return;
    case "call":
      if (asking && e.name.toLowerCase() === "hasanswered") return;
      for (const a of e.args) exprReads(a, out, asking);
      return;
    case "un":
      exprReads(e.e, out, asking);
      return;
    case "bin":
      exprReads(e.l, out, asking);
      exprReads(e.r, out, asking);
      return;
    default:
      return;
  }
}

/** Literals a variable is compared with (`IF [Age NU] < 18`): values worth trying in its field. */
function exprConstants(e: Expr, out: Map<string, Set<string>>): void {
  if (e.k === "bin") {
    if (["eq", "ne", "lt", "gt", "le", "ge"].includes(e.op)) {
      const pair = (v: Expr, c: Expr) => {
        if (v.k !== "var" || (c.k !== "num" && c.k !== "str")) return;
        const key = varKey(v.ref.name);
        let set = out.get(key);
        if (!set) out.set(key, (set = new Set()));
        if (c.k === "num") for (const n of [c.v - 1, c.v, c.v + 1]) set.add(String(n));
        else set.add(c.v);
      };
      pair(e.l, e.r);
      pair(e.r, e.l);
    }
    exprConstants(e.l, out);
    exprConstants(e.r, out);
  } else if (e.k === "un") exprConstants(e.e, out);
  else if (e.k === "call") for (const a of e.args) exprConstants(a, out);
}

interface ScriptFacts {
  /** Variables read before the script itself may have set them. */
  readsFirst: Set<string>;
  reads: Set<string>;
  sets: Set<string>;
  gotos: { page: string; line: number }[];
}

/** What a script reads (before setting), sets and jumps to; a SET in either branch of an IF counts as set after it. */
function scriptFacts(stmts: Stmt[], constants: Map<string, Set<string>>): ScriptFacts {
  const facts: ScriptFacts = { readsFirst: new Set(), reads: new Set(), sets: new Set(), gotos: [] };
  const read = (e: Expr, setSoFar: Set<string>) => {
    const all = new Set<string>();
    exprReads(e, all);
    exprConstants(e, constants);
    for (const v of all) facts.reads.add(v);
    const meant = new Set<string>();
    exprReads(e, meant, true);
    for (const v of meant) if (!setSoFar.has(v)) facts.readsFirst.add(v);
  };
  const walk = (list: Stmt[], setSoFar: Set<string>) => {
    for (const st of list) {
      if (st.k === "set") {
        read(st.e, setSoFar);
        if (st.target.index?.kind === "var") read({ k: "var", ref: { name: st.target.index.name } }, setSoFar);
        setSoFar.add(varKey(st.target.name));
        facts.sets.add(varKey(st.target.name));
      } else if (st.k === "goto") facts.gotos.push({ page: st.page, line: st.line });
      else if (st.k === "trace") read(st.e, setSoFar);
      else if (st.k === "if") {
        const after = new Set(setSoFar);
        for (const b of st.branches) {
          read(b.cond, setSoFar);
          const inner = new Set(setSoFar);
          walk(b.body, inner);
          for (const v of inner) after.add(v);
        }
        if (st.elseBody) {
          const inner = new Set(setSoFar);
          walk(st.elseBody, inner);
          for (const v of inner) after.add(v);
        }
        for (const v of after) setSoFar.add(v);
      }
    }
  };
  walk(stmts, new Set());
  return facts;
}

/** Variables the `%%…%%` macros of an author text read. */
function macroReads(text: string, out: Set<string>): void {
  if (text.indexOf("%%") < 0) return;
  const parts = text.split("%%");
  for (let i = 1; i < parts.length - 1; i += 2) {
    const code = (parts[i] ?? "").trimStart().replace(/^=/, "");
    const parsed = parseExpression(code);
    if (parsed.ok) exprReads(parsed.value, out);
  }
}

interface PageFacts {
  before: ScriptFacts | null;
  after: ScriptFacts | null;
  /** Variables the page's own fields and buttons store. */
  stores: Set<string>;
  textReads: Set<string>;
}

// ------------------------------------------------------------------------------------------------
// Values to try in a page's fields.

const SAMPLE_TEXT = "Sample answer";
/** A text field the guide checks as an email address (validate.ts, asksForEmail) gets one. */
const SAMPLE_EMAIL = "sample.person@example.org";
const YEAR = 365;

function clampNumber(n: number, min: number, max: number): number {
  if (!Number.isNaN(min) && n < min) n = min;
  if (!Number.isNaN(max) && n > max) n = max;
  return n;
}

function dateBound(s: string, today: number): number | null {
  const t = s.trim();
  if (t === "") return null;
  if (t.toUpperCase() === "TODAY") return today;
  return parseUserDate(t);
}

/** One form input of a page, with the value a typical person gives and the others worth trying. */
interface InputChoice {
  name: string;
  base: string | undefined;
  others: (string | undefined)[];
  /** Its variable is read by a script: the others are tried. */
  drivesFlow: boolean;
}

function pageInputs(page: Page, today: number, flowVars: Set<string>, constants: Map<string, Set<string>>): InputChoice[] {
  const inputs: InputChoice[] = [];
  const radios = new Map<string, InputChoice>();
  let firstCheckbox = true;
  page.fields.forEach((f: Field, i) => {
    const name = inputName(f, i);
    const key = varKey(f.name);
    const drivesFlow = key !== "" && flowVars.has(key);
    const consts = [...(constants.get(key) ?? [])];
    const blank = f.required ? [] : [""];
    switch (f.type) {
      case "radio": {
        const group = radios.get(name);
        if (group) group.others.push(f.value);
        else {
          const choice: InputChoice = { name, base: f.value, others: f.required ? [] : [""], drivesFlow };
          radios.set(name, choice);
          inputs.push(choice);
        }
        return;
      }
      case "checkbox":
      case "checkboxNOTA":
      case "checkboxmultiple": {
        // The first checkbox ticked meets a "tick at least one" page; each is also tried the other way.
        const on = firstCheckbox && f.type !== "checkboxNOTA";
        if (on) firstCheckbox = false;
        inputs.push({ name, base: on ? "true" : undefined, others: [on ? undefined : "true"], drivesFlow: drivesFlow || f.type === "checkboxNOTA" });
        return;
      }
      case "textpick": {
        const options = listOptions(f).map((o) => o.value);
        inputs.push({ name, base: options[0] ?? "", others: [...options.slice(1, 8), ...blank], drivesFlow });
        return;
      }
      case "gender":
        inputs.push({ name, base: "Female", others: ["Male", ...blank], drivesFlow });
        return;
      case "numberpick": {
        const options = numberPickOptions(f).map(String);
        const extra = consts.filter((c) => options.includes(c));
        inputs.push({ name, base: options[0] ?? "", others: [options[options.length - 1] ?? "", ...extra, ...blank], drivesFlow });
        return;
      }
      case "number":
      case "numberdollar": {
        const min = parseLooseNumber(f.min);
        const max = parseLooseNumber(f.max);
        const within = (n: number) => (Number.isNaN(min) || n >= min) && (Number.isNaN(max) || n <= max);
        const candidates = [0, ...(Number.isNaN(min) ? [] : [min]), ...(Number.isNaN(max) ? [] : [max]), ...consts.map(Number).filter(Number.isFinite)];
        inputs.push({ name, base: String(clampNumber(1, min, max)), others: [...candidates.filter(within).map(String), ...blank], drivesFlow });
        return;
      }
      case "datemdy": {
        const min = dateBound(f.min, today);
        const max = dateBound(f.max, today);
        const clamp = (d: number) => (min !== null && d < min ? min : max !== null && d > max ? max : d);
        const candidates = [today - 30 * YEAR, today + 30, ...(min === null ? [] : [min]), ...(max === null ? [] : [max])].map(clamp);
        const dated = consts.map((c) => parseUserDate(c)).filter((d): d is number => d !== null).map(clamp);
        inputs.push({ name, base: formatDays(clamp(today)), others: [...candidates, ...dated].map(formatDays).concat(blank), drivesFlow });
        return;
      }
      case "attachment":
        inputs.push({ name, base: f.required ? "document.pdf" : "", others: [], drivesFlow: false });
        return;
      default: {
        // A text's most characters hold for every text-like field (an SSN, a phone number, a zip code too).
        const maxChars = parseInt(f.maxChars, 10);
        const cut = (s: string) => (Number.isFinite(maxChars) && maxChars > 0 ? s.slice(0, maxChars) : s);
        const typical =
          f.type === "numberssn"
            ? "123-45-6789"
            : f.type === "numberphone"
              ? "(555) 555-0100"
              : f.type === "numberzip"
                ? "12345"
                : f.value.trim() !== ""
                  ? f.value
                  : asksForEmail(f)
                    ? SAMPLE_EMAIL
                    : SAMPLE_TEXT;
        inputs.push({ name, base: cut(typical), others: [...consts.map(cut), ...blank], drivesFlow });
      }
    }
  });
  return inputs;
}

/** The value sets tried on a page: a typical person's, each flow-driving answer changed alone, every optional one blank. */
function pageVariants(inputs: InputChoice[]): FormValues[] {
  const base: FormValues = {};
  for (const input of inputs) base[input.name] = input.base;
  const variants: FormValues[] = [base];
  const seen = new Set([JSON.stringify(base)]);
  const add = (values: FormValues) => {
    const key = JSON.stringify(values);
    if (variants.length < MAX_VARIANTS && !seen.has(key)) {
      seen.add(key);
      variants.push(values);
    }
  };
  for (const input of inputs) {
    if (!input.drivesFlow) continue;
    for (const other of input.others) add({ ...base, [input.name]: other });
  }
  const blanks: FormValues = { ...base };
  for (const input of inputs) if (input.others.includes("")) blanks[input.name] = "";
  add(blanks);
  return variants;
}

// ------------------------------------------------------------------------------------------------
// Findings that need no exploration: what the guide's own text says.

function fieldName(f: Field, i: number): string {
  const label = f.label.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  return label ? `field "${label.length > 60 ? `${label.slice(0, 57)}…` : label}"` : `field ${i + 1}`;
}

function buttonName(page: Page, index: number): string {
  const label = (page.buttons[index]?.label ?? "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  return `button "${label || "Continue"}"`;
}

const missingTarget = (name: string) => `The button goes to "${name}", a page the guide does not have: a person who presses it meets an error.`;

const MEDIA_SRC = /\bsrc\s*=\s*(["'])([^"']+)\1/gi;

function isExternal(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url.trim());
}

function hasFile(files: ReadonlySet<string>, url: string): boolean {
  let name = url.trim().replace(/^\.\//, "").split(/[?#]/)[0] ?? "";
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep as written
  }
  const lower = name.toLowerCase();
  for (const f of files) if (f.toLowerCase() === lower) return true;
  return false;
}

function staticFindings(guide: Guide, facts: Map<string, PageFacts>, today: number, files: ReadonlySet<string> | null, add: (f: HealthFinding) => void): void {
  for (const page of Object.values(guide.pages)) {
    for (const which of ["codeBefore", "codeAfter"] as const) {
      const code = page[which];
      if (code.trim() === "") continue;
      const parsed = parseScript(code);
      if (!parsed.ok) {
        add({
          kind: "script-error",
          severity: "warning",
          page: page.name,
          where: `${which} line ${parsed.error.line}`,
          message: `The script cannot be read, so none of it runs: ${parsed.error.message}`,
        });
        continue;
      }
      const f = which === "codeBefore" ? facts.get(page.name)?.before : facts.get(page.name)?.after;
      for (const g of f?.gotos ?? []) {
        if (!own(guide.pages, g.page) && !isSpecialTarget(g.page)) {
          add({
            kind: "missing-page",
            severity: "warning",
            page: page.name,
            where: `${which} line ${g.line}`,
            message: `GOTO "${g.page}" names a page the guide does not have, so the whole script is skipped.`,
          });
        }
      }
    }
    page.buttons.forEach((b, i) => {
      const next = b.next.trim();
      if (next !== "" && !own(guide.pages, b.next) && !isSpecialTarget(b.next)) {
        add({ kind: "missing-page", severity: "error", page: page.name, where: buttonName(page, i), message: missingTarget(b.next) });
      }
    });
    page.fields.forEach((f, i) => fieldFindings(page, f, i, today, add));
    const texts = [page.text, page.help, page.learn, page.textCitation, page.helpCitation, ...page.fields.map((f) => f.label)];
    const popups = new Set<string>();
    for (const text of texts) for (const p of resolvePopups(text, guide).popups) if (!p.exists) popups.add(p.name);
    for (const name of popups) {
      add({ kind: "missing-popup", severity: "warning", page: page.name, where: `popup "${name}"`, message: `A link opens the popup "${name}", which the guide does not have: the link shows nothing.` });
    }
    if (files) {
      const media = new Set<string>();
      for (const url of [page.helpImageURL, page.helpVideoURL, page.helpAudioURL, page.textAudioURL]) if (url.trim() !== "") media.add(url.trim());
      for (const text of texts) for (const m of text.matchAll(MEDIA_SRC)) media.add((m[2] ?? "").trim());
      for (const url of media) {
        if (url === "" || isExternal(url) || hasFile(files, url)) continue;
        add({ kind: "missing-media", severity: "warning", page: page.name, where: `media "${url}"`, message: `The page shows "${url}", which is not among the guide's files.` });
      }
    }
  }
}

function fieldFindings(page: Page, f: Field, i: number, today: number, add: (f: HealthFinding) => void): void {
  const severity: FindingSeverity = f.required ? "error" : "warning";
  const where = fieldName(f, i);
  if (f.type === "textpick" && listOptions(f).length === 0) {
    const src = f.listSrc.trim();
    add({
      kind: "no-choices",
      severity,
      page: page.name,
      where,
      message: src
        ? `The pick list names the list file "${src}", which did not come with the guide, so it offers no choices${f.required ? ": a person cannot answer it and cannot go on." : "."}`
        : `The pick list has no choices${f.required ? ": a person cannot answer it and cannot go on." : "."}`,
    });
    return;
  }
  const impossible = (message: string) => add({ kind: "impossible-limits", severity, page: page.name, where, message: `${message}${f.required ? " A person cannot go on." : ""}` });
  if (f.type === "number" || f.type === "numberdollar" || f.type === "numberpick") {
    const min = parseLooseNumber(f.min);
    const max = parseLooseNumber(f.max);
    if (!Number.isNaN(min) && !Number.isNaN(max) && (min > max || (f.type === "numberpick" && Math.ceil(min) > Math.floor(max)))) {
      impossible(`Its smallest number (${f.min.trim()}) is above its largest (${f.max.trim()}), so every answer is refused.`);
    }
  } else if (f.type === "datemdy") {
    const min = dateBound(f.min, today);
    const max = dateBound(f.max, today);
    if (min !== null && max !== null && min > max) {
      impossible(`Its earliest date (${f.min.trim()}) is after its latest (${f.max.trim()}), so every date is refused.`);
    } else if (min !== null && max !== null && f.min.trim().toUpperCase() !== "TODAY" && f.max.trim().toUpperCase() !== "TODAY" && max - min < YEAR && max < today) {
      add({
        kind: "impossible-limits",
        severity: "warning",
        page: page.name,
        where,
        message: `It accepts only dates from ${formatDays(min)} to ${formatDays(max)}, all in the past: check that these limits are meant.`,
      });
    }
  } else if (f.maxChars.trim() !== "" && parseInt(f.maxChars, 10) < 0) {
    impossible(`Its most characters (${f.maxChars}) is below zero, so every answer is refused.`);
  }
}

// ------------------------------------------------------------------------------------------------
// The exploration.

interface PageStats {
  /** States of this page queued, and explored so far. */
  states: number;
  visits: number;
  presses: number;
  refused: number;
  /** A press went to another page or ended the interview. */
  movedOn: boolean;
  /** A press met an error (a missing page, an endless GOTO loop). */
  failed: boolean;
  /** A path through it was cut at the depth limit. */
  cut: boolean;
}

/**
 * A queued state keeps only the variables its path changed (`changed`, over the start's answers `root`): a
 * press works on a view that copies a variable when it is first touched, instead of copying every variable
 * of the guide (thousands in a large guide) for each of tens of thousands of presses.
 */
interface Queued {
  changed: Map<string, AnswerVar>;
  /** The hash of the values its scripts read. */
  values: number;
  history: InterviewState["history"];
  page: string;
  depth: number;
}

/** Answers that read through to `changed`, then `root`, copying a variable into `local` when first touched. */
function answersView(root: Answers, changed: Map<string, AnswerVar>): { answers: Answers; local: Answers } {
  const local: Answers = {};
  const has = (key: string) => Object.prototype.hasOwnProperty.call(local, key);
  const touch = (key: string) => {
    if (has(key)) return true;
    const found = changed.get(key) ?? own(root, key);
    if (!found) return false;
    setOwn(local, key, { ...found, values: found.values.slice() });
    return true;
  };
  const answers = new Proxy(local, {
    get: (target, key, receiver) => (typeof key === "string" && touch(key) ? own(target, key) : Reflect.get(target, key, receiver)),
    getOwnPropertyDescriptor: (target, key) => {
      if (typeof key === "string") touch(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    has: (target, key) => (typeof key === "string" ? touch(key) : Reflect.has(target, key)),
    ownKeys: (target) => [...new Set([...Object.keys(root), ...changed.keys(), ...Reflect.ownKeys(target).filter((k): k is string => typeof k === "string")])],
  });
  return { answers, local };
}

/** What a press changed, over its parent's changes (a variable only read is not a change), and each change. */
function changesAfter(root: Answers, parent: Map<string, AnswerVar>, local: Answers) {
  const changed = new Map(parent);
  const diffs: { key: string; before: AnswerVar | undefined; now: AnswerVar }[] = [];
  for (const key of Object.keys(local)) {
    const now = own(local, key) as AnswerVar;
    const before = parent.get(key) ?? own(root, key);
    if (before && before.values.length === now.values.length && before.values.every((v, i) => v === now.values[i])) continue;
    changed.set(key, now);
    diffs.push({ key, before, now });
  }
  return { changed, diffs };
}

/** Two 32-bit FNV-1a hashes of a text (different offsets), as one number below 2^53. */
function hash(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

export interface Explorer {
  /** Goes on for at most `transitions` presses; true when the exploration is over (done, or out of budget). */
  run(transitions: number): boolean;
  result(): Exploration;
}

export function createExplorer(guide: Guide, options: ExploreOptions): Explorer {
  const today = options.today;
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const findings = new Map<string, HealthFinding>();
  const add = (f: HealthFinding) => {
    const key = `${f.kind}\u0000${f.page ?? ""}\u0000${f.where}\u0000${f.message}`;
    if (!findings.has(key)) findings.set(key, f);
  };

  // What every page reads and sets; the variables a script reads decide the flow.
  const constants = new Map<string, Set<string>>();
  const facts = new Map<string, PageFacts>();
  const flowVars = new Set<string>();
  const counters = new Set<string>();
  for (const page of Object.values(guide.pages)) {
    const compile = (code: string) => {
      if (code.trim() === "") return null;
      const parsed = parseScript(code);
      return parsed.ok ? scriptFacts(parsed.value, constants) : null;
    };
    const before = compile(page.codeBefore);
    const after = compile(page.codeAfter);
    for (const f of [before, after]) for (const v of f?.reads ?? []) flowVars.add(v);
    const stores = new Set<string>();
    for (const f of page.fields) if (f.name.trim() !== "") stores.add(varKey(f.name));
    for (const b of page.buttons) {
      if (b.name.trim() !== "") stores.add(varKey(b.name));
      if (b.repeatVar.trim() !== "") {
        stores.add(varKey(b.repeatVar));
        flowVars.add(varKey(b.repeatVar));
        counters.add(varKey(b.repeatVar));
      }
    }
    for (const loop of [page.repeatVar, page.outerLoopVar]) {
      if (loop.trim() === "") continue;
      flowVars.add(varKey(loop));
      counters.add(varKey(loop));
    }
    const textReads = new Set<string>();
    for (const text of [page.text, page.help, ...page.fields.map((f) => f.label), ...page.buttons.map((b) => b.label)]) macroReads(text, textReads);
    facts.set(page.name, { before, after, stores, textReads });
  }
    staticFindings(guide, facts, today, options.files ?? null, add);
  const unreadable = new Set([...findings.values()].filter((f) => f.kind === "script-error").map((f) => `${f.page}\u0000${f.where.split(" ")[0]}`));

  type Attempt = { buttonIndex: number; values: FormValues };
  const attemptsOf = new Map<string, { varied: Attempt[]; typical: Attempt[] }>();
  function attempts(page: Page, visit: number): Attempt[] {
    let found = attemptsOf.get(page.name);
    if (!found) {
      const variants = pageVariants(pageInputs(page, today, flowVars, constants));
      found = { varied: [], typical: [] };
      for (let b = 0; b < page.buttons.length; b++) {
        const next = page.buttons[b]?.next ?? "";
        if (next === "BACK" || next === "RESUME") continue;
        found.typical.push({ buttonIndex: b, values: variants[0] as FormValues });
        // An ending does not depend on the answers: one press says where it goes.
        const tried = isSpecialTarget(next) ? variants.slice(0, 1) : variants;
        for (const values of tried) if (found.varied.length < MAX_ATTEMPTS) found.varied.push({ buttonIndex: b, values });
      }
      attemptsOf.set(page.name, found);
    }
    return visit < VARIED_VISITS ? found.varied : found.typical;
  }

  // A state is its page and the values its scripts read. Loops are followed for LOOP_ROUNDS rounds: past
  // that, a counter's value and the answers of later rounds no longer make a state new.
  // The values a state's scripts read, as a sum (XOR) of one hash per variable that differs from the start, kept
  // up to date press by press: a guide with thousands of variables is not walked for every state.
  let root: Answers = {};
  const valueOf = (changed: Map<string, AnswerVar>, v: string) => (changed.get(v) ?? own(root, v))?.values;
  const contribution = (key: string, values: AnswerVar["values"] | undefined) => {
    if (!flowVars.has(key) || !values || values.length < 2 || values.every((v) => v === null)) return 0;
    let text: string;
    if (counters.has(key)) {
      const n = Number(values[1]);
      text = Number.isFinite(n) && n > LOOP_ROUNDS ? `>${LOOP_ROUNDS}` : String(values[1]);
    } else text = JSON.stringify(values.length > LOOP_ROUNDS + 1 ? values.slice(0, LOOP_ROUNDS + 1) : values);
    return hash(`${key}\u0001${text}`);
  };
  // XOR of numbers up to 2^53, as two halves (the bitwise operators work on 32 bits).
  const xor = (x: number, y: number) => ((Math.floor(x / 0x100000000) ^ Math.floor(y / 0x100000000)) >>> 0) * 0x100000000 + (((x >>> 0) ^ (y >>> 0)) >>> 0);
  const keyAfter = (parent: number, diffs: ReturnType<typeof changesAfter>["diffs"]) => {
    let key = parent;
    for (const d of diffs) key = xor(xor(key, contribution(d.key, d.before?.values)), contribution(d.key, d.now.values));
    return key;
  };

  const counterList = [...counters].sort();
  const roundOf = (changed: Map<string, AnswerVar>, page: string) => {
    let key = page;
    for (const v of counterList) {
      const n = Number(valueOf(changed, v)?.[1]);
      key += `\u0001${Number.isFinite(n) ? Math.min(n, LOOP_ROUNDS + 1) : ""}`;
    }
    return key;
  };
  const rounds = new Set<string>();
  const seen = new Set<string>();
  const queue: Queued[] = [];
  let head = 0;
  const reached = new Set<string>();
  const edges = new Map<string, Set<string>>();
  const finishing = new Set<string>();
  const stats = new Map<string, PageStats>();
  const outcomes = new Set<string>();
  let transitions = 0;
  let stoppedBy: Exploration["stoppedBy"] = null;
  let done = false;

  const statsOf = (page: string) => {
    let s = stats.get(page);
    if (!s) stats.set(page, (s = { states: 0, visits: 0, presses: 0, refused: 0, movedOn: false, failed: false, cut: false }));
    return s;
  };
  const edge = (from: string, to: string) => {
    let set = edges.get(from);
    if (!set) edges.set(from, (set = new Set()));
    set.add(to);
  };
  const enqueue = (changed: Map<string, AnswerVar>, values: number, history: InterviewState["history"], depth: number) => {
    const page = history[history.length - 1]?.interviewPage;
    if (page === undefined) return;
    reached.add(page);
    const key = `${page}\u0001${values}`;
    if (seen.has(key)) return;
    if (seen.size >= maxStates) {
      stoppedBy = "states";
      return;
    }
    // A page in a loop round not seen yet is always explored, so a page full of other states never stops a loop.
    const round = roundOf(changed, page);
    const s = statsOf(page);
    if (rounds.has(round)) {
      if (s.states >= PAGE_STATES) return;
    } else rounds.add(round);
    s.states++;
    seen.add(key);
    queue.push({ changed, values, history, page, depth });
  };
  const scriptErrors = (errors: { page: string; script: string; line: number; message: string }[]) => {
    for (const e of errors) {
      // A script that cannot be read is reported once, as such, not each time it is skipped.
      if (unreadable.has(`${e.page}\u0000${e.script}`)) continue;
      const missing = missingPageMessage.exec(e.message);
      add(
        missing
          ? { kind: "missing-page", severity: "warning", page: e.page, where: `${e.script} line ${e.line}`, message: `GOTO "${missing[1]}" names a page the guide does not have, so the whole script is skipped.` }
          : { kind: "script-error", severity: "warning", page: e.page, where: `${e.script} line ${e.line}`, message: `The script stops here: ${e.message}` },
      );
    }
  };

  const started = startInterview(guide, today);
  if (started.ok) {
    scriptErrors(started.scriptErrors);
    let previous: string | null = null;
    for (const p of started.entered ?? []) {
      reached.add(p);
      if (previous !== null) edge(previous, p);
      previous = p;
    }
    root = started.state.answers;
    if (started.outcome.kind === "page") enqueue(new Map(), 0, started.state.history, 1);
    else if (started.outcome.kind === "special") outcomes.add(started.outcome.target);
    // The exit page is where "Save and finish later" leads, from any page.
    if (guide.exitPage !== "" && own(guide.pages, guide.exitPage) && started.outcome.kind === "page") {
      const view = answersView(root, new Map());
      const exited = saveAndExit(guide, { answers: view.answers, history: started.state.history }, today);
      const after = changesAfter(root, new Map(), view.local);
      if (exited.ok) enqueue(after.changed, keyAfter(0, after.diffs), exited.state.history, 2);
    }
  } else {
    scriptErrors(started.scriptErrors);
    const where = `the first page, "${guide.firstPage}"`;
    add(
      started.error.kind === "missing-page"
        ? { kind: "missing-page", severity: "error", page: null, where, message: `The guide starts at "${guide.firstPage}", a page it does not have: nobody can start it.` }
        : { kind: "endless-loop", severity: "error", page: started.error.page || null, where, message: `The guide cannot start: ${started.error.message}` },
    );
  }

  function press(item: Queued): void {
    const pageName = item.page;
    const page = own(guide.pages, pageName);
    if (!page) return;
    const s = statsOf(pageName);
    for (const attempt of attempts(page, s.visits++)) {
      transitions++;
      s.presses++;
      const view = answersView(root, item.changed);
      const state: InterviewState = { answers: view.answers, history: item.history };
      const r = submitPage(guide, state, { pageName, buttonIndex: attempt.buttonIndex, values: attempt.values }, today, { inPlace: true });
      scriptErrors(r.scriptErrors);
      const where = buttonName(page, attempt.buttonIndex);
      if (!r.ok) {
        s.failed = true;
        if (r.error.kind === "missing-page") {
          add({ kind: "missing-page", severity: "error", page: pageName, where, message: missingTarget(r.error.page) });
        } else if (r.error.kind === "infinite-loop") {
          add({ kind: "endless-loop", severity: "error", page: pageName, where, message: `Pressing it starts GOTOs that never end (more than 100 jumps without a question; the last page was "${r.error.page}").` });
        } else {
          add({ kind: "script-error", severity: "error", page: pageName, where, message: r.error.message });
        }
        continue;
      }
      let previous = pageName;
      for (const p of r.entered ?? []) {
        reached.add(p);
        edge(previous, p);
        previous = p;
      }
      const outcome = r.outcome;
      if (outcome.kind === "invalid") {
        s.refused++;
      } else if (outcome.kind === "special" || outcome.kind === "review") {
        s.movedOn = true;
        finishing.add(previous);
        if (previous !== pageName) finishing.add(pageName);
        outcomes.add(outcome.kind === "special" ? outcome.target : (r.state.review?.target ?? "SUCCESS"));
      } else {
        if (outcome.page !== pageName) s.movedOn = true;
        if (item.depth + 1 > maxDepth) {
          statsOf(outcome.page).cut = true;
          continue;
        }
        const after = changesAfter(root, item.changed, view.local);
        enqueue(after.changed, keyAfter(item.values, after.diffs), r.state.history, item.depth + 1);
      }
    }
  }

  function run(budget: number): boolean {
    if (done) return true;
    if (options.shouldStop?.()) {
      stoppedBy = "time";
      done = true;
      return true;
    }
    let used = 0;
    while (head < queue.length && used < budget) {
      const item = queue[head] as Queued;
      queue[head++] = undefined as unknown as Queued; // let the state go
      const before = transitions;
      press(item);
      used += transitions - before;
      if (Math.floor(transitions / STOP_CHECK_EVERY) !== Math.floor(before / STOP_CHECK_EVERY) && options.shouldStop?.()) {
        stoppedBy = "time";
        break;
      }
    }
    if (head >= queue.length || stoppedBy === "time") done = true;
    return done;
  }

  function result(): Exploration {
    const complete = done && head >= queue.length && stoppedBy === null;
    const out = new Map(findings);
    const put = (f: HealthFinding) => out.set(`${f.kind}\u0000${f.page ?? ""}\u0000${f.where}\u0000${f.message}`, f);
    const questionPages = Object.values(guide.pages).filter((p) => !isPopup(p));

    // Pages a person cannot leave.
    for (const [name, s] of stats) {
      const page = own(guide.pages, name);
      if (!page || s.movedOn || s.failed) continue;
      const explained = [...out.values()].some((f) => f.page === name && f.severity === "error" && (f.kind === "no-choices" || f.kind === "impossible-limits"));
      if (s.presses === 0) {
        // A page whose only buttons go back (to change an answer, or the exit page's Resume) can be left.
        if (page.buttons.length > 0) continue;
        put({ kind: "dead-end", severity: "error", page: name, where: "", message: "The page has no buttons: a person who reaches it cannot go on." });
      } else if (s.refused === s.presses) {
        if (!explained) {
          put({ kind: "all-refused", severity: "error", page: name, where: "", message: "Every answer the check gave was refused by the page's own limits: a person may not be able to go on." });
        }
      } else {
        put({ kind: "dead-end", severity: "error", page: name, where: "", message: "No button moves on from this page (each stays on it): a person who reaches it cannot go on." });
      }
    }

    // Pages never reached; and, with the whole guide explored, loops a person can never leave.
    for (const page of questionPages) {
      if (reached.has(page.name)) continue;
      put({
        kind: "unreached",
        severity: "warning",
        page: page.name,
        where: "",
        message: complete ? "No path from the start reaches this page." : "The check did not reach this page within its budget.",
      });
    }
    if (complete) for (const f of endlessLoops(guide, edges, finishing, stats)) put(f);

    for (const f of unsetVariables(guide, facts, edges, reached)) put(f);

    const severityRank = { error: 0, warning: 1 } as const;
    const order = new Map(Object.keys(guide.pages).map((name, i) => [name, i]));
    const findingsList = [...out.values()].sort(
      (a, b) => severityRank[a.severity] - severityRank[b.severity] || (order.get(a.page ?? "") ?? -1) - (order.get(b.page ?? "") ?? -1) || a.kind.localeCompare(b.kind),
    );
    return {
      findings: findingsList,
      pagesReached: questionPages.filter((p) => reached.has(p.name)).length,
      pagesTotal: questionPages.length,
      states: seen.size,
      transitions,
      complete,
      stoppedBy,
      outcomes: [...outcomes].sort(),
    };
  }

  return { run, result };
}

/** Explores a guide whole (within its budget). */
export function exploreGuide(guide: Guide, options: ExploreOptions): Exploration {
  const explorer = createExplorer(guide, options);
  while (!explorer.run(10_000));
  return explorer.result();
}

/**
 * Loops a person never leaves: a circle of pages (each reaching the others) from which no press the check tried
 * reaches an ending, another page outside it, or a page the check could not finish exploring.
 */
function endlessLoops(guide: Guide, edges: Map<string, Set<string>>, finishing: Set<string>, stats: Map<string, PageStats>): HealthFinding[] {
  // Pages from which an ending (or the unknown: a cut path, an error, a dead end reported already) is reachable.
  const canFinish = new Set<string>();
  for (const p of finishing) canFinish.add(p);
  for (const [p, s] of stats) if (s.cut || s.failed || !s.movedOn) canFinish.add(p);
  const reverse = new Map<string, string[]>();
  for (const [from, tos] of edges) for (const to of tos) (reverse.get(to) ?? reverse.set(to, []).get(to)!).push(from);
  const stack = [...canFinish];
  while (stack.length) {
    const p = stack.pop() as string;
    for (const from of reverse.get(p) ?? []) if (!canFinish.has(from)) (canFinish.add(from), stack.push(from));
  }
  const trapped = [...stats.keys()].filter((p) => !canFinish.has(p));
  if (trapped.length === 0) return [];
  // One finding per circle: the trapped pages that reach each other, named from the first in the guide's order.
  const order = Object.keys(guide.pages);
  const left = new Set(trapped);
  const out: HealthFinding[] = [];
  for (const start of order) {
    if (!left.has(start)) continue;
    const circle = new Set([start]);
    const todo = [start];
    while (todo.length) {
      const p = todo.pop() as string;
      for (const to of edges.get(p) ?? []) if (left.has(to) && !circle.has(to)) (circle.add(to), todo.push(to));
    }
    for (const p of circle) left.delete(p);
    const names = order.filter((p) => circle.has(p));
    out.push({
      kind: "endless-loop",
      severity: "error",
      page: start,
      where: "",
      message: `From here a person only goes round ${names.length === 1 ? "this page" : `these pages: ${names.map((n) => `"${n}"`).join(", ")}`}; no button leads out of them to an ending.`,
    });
  }
  return out;
}

/**
 * Variables read (by a script or a page's text) where no page that sets them can come before: from every
 * page that stores or SETs a variable, the pages reachable after it (by the paths the exploration found).
 */
function unsetVariables(guide: Guide, facts: Map<string, PageFacts>, edges: Map<string, Set<string>>, reached: Set<string>): HealthFinding[] {
  const setters = new Map<string, string[]>();
  for (const [page, f] of facts) {
    const sets = new Set([...f.stores, ...(f.before?.sets ?? []), ...(f.after?.sets ?? [])]);
    for (const v of sets) (setters.get(v) ?? setters.set(v, []).get(v)!).push(page);
  }
  const after = new Map<string, Set<string>>();
  const reachableAfter = (v: string) => {
    let set = after.get(v);
    if (set) return set;
    set = new Set();
    const todo = [...(setters.get(v) ?? [])];
    while (todo.length) {
      const p = todo.pop() as string;
      for (const to of edges.get(p) ?? []) if (!set.has(to)) (set.add(to), todo.push(to));
    }
    after.set(v, set);
    return set;
  };
  const out: HealthFinding[] = [];
  const declared = (v: string) => own(guide.vars, v)?.name ?? v;
  for (const [name, f] of facts) {
    if (!reached.has(name)) continue;
    const unset = (v: string) => !BUILTIN_KEYS.has(v) && !reachableAfter(v).has(name);
    const report = (where: string, vars: Iterable<string>, what: string) => {
      const list = [...new Set(vars)].filter(unset).sort();
      if (list.length === 0) return;
      out.push({
        kind: "unset-variable",
        severity: "warning",
        page: name,
        where,
        message: `${what} ${list.map((v) => `[${declared(v)}]`).join(", ")} before any page can set ${list.length === 1 ? "it" : "them"}: ${list.length === 1 ? "it is" : "they are"} blank here.`,
      });
    };
    if (f.before) report("codeBefore", f.before.readsFirst, "The script reads");
    const setOnPage = new Set([...f.stores, ...(f.before?.sets ?? [])]);
    if (f.after) report("codeAfter", [...f.after.readsFirst].filter((v) => !setOnPage.has(v)), "The script reads");
    report("text", [...f.textReads].filter((v) => !setOnPage.has(v)), "The page shows");
  }
  return out;
}

/** Every variable some page stores or a script SETs (lower-cased), for checking what templates use. */
export function variablesSetByGuide(guide: Guide): Set<string> {
  const out = new Set<string>(BUILTIN_KEYS);
  for (const page of Object.values(guide.pages)) {
    for (const f of page.fields) if (f.name.trim() !== "") out.add(varKey(f.name));
    for (const b of page.buttons) {
      if (b.name.trim() !== "") out.add(varKey(b.name));
      if (b.repeatVar.trim() !== "") out.add(varKey(b.repeatVar));
    }
    for (const code of [page.codeBefore, page.codeAfter]) {
      const parsed = code.trim() === "" ? null : parseScript(code);
      if (parsed?.ok) for (const v of scriptFacts(parsed.value, new Map()).sets) out.add(v);
    }
  }
  return out;
}

/** Whether a finding stops a person: the command line's exit code and the publish page count these. */
export function isBlocking(finding: HealthFinding): boolean {
  return finding.severity === "error";
}
