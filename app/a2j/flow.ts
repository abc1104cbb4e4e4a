/**
 * Page flow: entering pages (codeBefore and GOTO chains), pressing buttons (validation, button value,
 * codeAfter, loop counters, special targets), Back, Save & Exit and resume. Every function is pure: it
 * returns a new state and never mutates its inputs. What a page shows is drawn from the state by page-view.ts.
 */
import { answersFromJSON, cloneAnswers, createAnswers, getRaw, getVar, varGet, varKey, varSet } from "./answers";
import type { DateBoxes, DateLocale } from "./dates";
import { isSpecialTarget, type SpecialTarget } from "./guide";
import { renderMacrosAsText } from "./macros";
import { runScript, type ScriptError } from "./script";
import type { Answers, AnswerValue, Button, Guide, Page } from "./types";
import { own, setOwn } from "./util";
import { storedFormValues } from "./stored-values";
import { validatePage, type FieldError, type FormValues } from "./validate";
import { toNumber, toStr } from "./values";

/** Maximum GOTO jumps without user input before reporting an infinite loop (as A2J). */
export const MAX_JUMPS = 100;
/** Maximum visited-page entries kept in the history. */
export const MAX_HISTORY = 1000;

export const VISITED_PAGES_VAR = "A2J Visited Pages";
export const INCOMPLETE_VAR = "A2J Interview Incomplete TF";
export const BOOKMARK_VAR = "A2J Bookmark";

/** One entry of the visited-pages history. */
export interface VisitedPage {
  interviewPage: string;
  /** Value of the page's counting variable when it was entered (null for non-loop pages). */
  repeatVarValue: number | null;
  outerLoopVarValue: number | null;
}

/** The finishing targets: each first opens "Check your answers", and completes once that is confirmed. */
export const FINISH_TARGETS = ["SUCCESS", "ASSEMBLE", "ASSEMBLE-SUCCESS"] as const;
export type FinishTarget = (typeof FINISH_TARGETS)[number];

export function isFinishTarget(target: string): target is FinishTarget {
  return (FINISH_TARGETS as readonly string[]).includes(target);
}

/**
 * A finishing button was pressed and waits for "Confirm and finish" on the review of every answer. While
 * `changing`, a Change link has reopened a visited page (the history is cut back to it); its next press returns
 * to the review with the full `history` it was opened with.
 */
export interface PendingFinish {
  target: FinishTarget;
  url?: string;
  message?: string;
  history: VisitedPage[];
  changing: boolean;
  /** While `changing`: the index in `history` of the page the Change link reopened. */
  changedAt?: number;
  /** While `changing`: the replay stopped on the current page, which the person must look at before going on. */
  stopped?: ReplayStop;
}

/**
 * Why replaying the path after a change stopped on a page: it was not on the path before (`new-page`), its
 * stored answers no longer pass its checks (`invalid`), or which of its buttons to press cannot be told (`choose`).
 */
export type ReplayStop = { reason: "new-page" } | { reason: "choose" } | { reason: "invalid"; errors: FieldError[] };

/**
 * What was typed on the current page and kept without leaving it (keepPageAnswers, for a detour to an AI page),
 * shown back as typed, what the checks would refuse included (a month and year without the day). Any step
 * away from the page drops it.
 */
export interface TypedDraft {
  page: string;
  /** The loop entry it was typed at (1 outside loops). */
  index: number;
  values: FormValues;
  /** Date questions' Day, Month and Year boxes as typed, by input name. */
  dates?: Record<string, DateBoxes>;
}

/** Serialisable interview state: the answers plus the visited-page history (last = current page). */
export interface InterviewState {
  answers: Answers;
  history: VisitedPage[];
  /** Present while "Check your answers" is open (or one of its Change links). */
  review?: PendingFinish;
  /** What was typed on the current page before a detour (TypedDraft). */
  typed?: TypedDraft;
}

/** A script error, with where it happened. */
export interface FlowScriptError extends ScriptError {
  page: string;
  script: "codeBefore" | "codeAfter";
}

export type FlowError =
  | { kind: "missing-page"; page: string; message: string }
  | { kind: "infinite-loop"; page: string; message: string }
  | { kind: "no-such-button"; page: string; message: string }
  | { kind: "not-current-page"; page: string; currentPage: string | null; message: string }
  | { kind: "no-current-page"; page: string; message: string }
  | { kind: "no-review"; page: string; message: string }
  | { kind: "internal"; page: string; message: string };

/** What happened after a transition. */
export type Outcome =
  | { kind: "page"; page: string }
  | { kind: "special"; target: SpecialTarget; url?: string; message?: string }
  | { kind: "review" }
  | { kind: "invalid"; errors: FieldError[] };

export type TransitionResult =
  | {
      ok: true;
      state: InterviewState;
      outcome: Outcome;
      scriptErrors: FlowScriptError[];
      traces: string[];
      /** The pages whose codeBefore ran on the way, in order (a GOTO chain passes through several); the last is where it stopped. */
      entered?: string[];
    }
  | { ok: false; error: FlowError; scriptErrors: FlowScriptError[] };

const pageCheckers = new WeakMap<Guide, (name: string) => boolean>();

/** GOTO targets a guide accepts: its pages and the special targets. */
function pageExists(guide: Guide): (name: string) => boolean {
  let f = pageCheckers.get(guide);
  if (!f) {
    f = (name: string) => own(guide.pages, name) !== undefined || isSpecialTarget(name);
    pageCheckers.set(guide, f);
  }
  return f;
}

function guarded(f: () => TransitionResult): TransitionResult {
  try {
    return f();
  } catch (e) {
    return { ok: false, error: { kind: "internal", page: "", message: `internal error: ${String(e)}` }, scriptErrors: [] };
  }
}

export function currentEntry(state: InterviewState): VisitedPage | undefined {
  return state.history[state.history.length - 1];
}

/** The current page name, or null before the interview has started. */
export function currentPage(state: InterviewState): string | null {
  return currentEntry(state)?.interviewPage ?? null;
}

function loopValue(answers: Answers, counter: string): number | null {
  if (counter === "") return null;
  const n = toNumber(varGet(answers, counter));
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** Index at which a page's fields read and write their variables (the loop counter, else 1). */
export function answerIndex(entry: VisitedPage | undefined): number {
  return entry?.repeatVarValue ?? 1;
}

/** JSON of each history array, so that pushing one entry appends to the string instead of re-serialising. */
const historyJson = new WeakMap<VisitedPage[], string>();

function historyToJson(history: VisitedPage[], previous?: VisitedPage[]): string {
  const cached = historyJson.get(history);
  if (cached !== undefined) return cached;
  let json: string;
  const prev = previous ? historyJson.get(previous) : undefined;
  const last = history[history.length - 1];
  if (prev !== undefined && previous && last && previous.length === history.length - 1 && previous.length > 0) {
    json = prev.slice(0, -1) + "," + JSON.stringify(last) + "]";
  } else {
    json = JSON.stringify(history);
  }
  historyJson.set(history, json);
  return json;
}

function writeHistory(answers: Answers, history: VisitedPage[], previous?: VisitedPage[]): void {
  varSet(answers, VISITED_PAGES_VAR, historyToJson(history, previous));
  const cur = history[history.length - 1];
  if (cur) varSet(answers, BOOKMARK_VAR, cur.interviewPage);
}

function specialResult(
  target: SpecialTarget,
  answers: Answers,
  history: VisitedPage[],
  extra: { url?: string; message?: string },
  scriptErrors: FlowScriptError[],
  traces: string[],
  review?: PendingFinish,
): TransitionResult {
  if (target === "SUCCESS" || target === "ASSEMBLE" || target === "ASSEMBLE-SUCCESS" || target === "FAIL") {
    varSet(answers, INCOMPLETE_VAR, false);
  } else if (target === "EXIT") {
    varSet(answers, INCOMPLETE_VAR, true);
  }
  writeHistory(answers, history);
  const outcome: Outcome = { kind: "special", target };
  if (extra.url) outcome.url = extra.url;
  if (extra.message) outcome.message = extra.message;
  const state: InterviewState = { answers, history };
  // Leaving (Save and finish later) from a page a Change link opened: coming back, the change goes on.
  if (review) state.review = review;
  return { ok: true, state, outcome, scriptErrors, traces };
}

/**
 * Enter `target` on top of `history` (mutates `answers`): run codeBefore; follow GOTOs (up to MAX_JUMPS).
 */
function enter(
  guide: Guide,
  answers: Answers,
  history: VisitedPage[],
  target: string,
  today: number,
  scriptErrors: FlowScriptError[],
  traces: string[],
): TransitionResult {
  let name = target;
  const entered: string[] = [];
  for (let jumps = 0; ; jumps++) {
    if (jumps > MAX_JUMPS) {
      return {
        ok: false,
        error: { kind: "infinite-loop", page: name, message: `More than ${MAX_JUMPS} jumps without user input (last page "${name}").` },
        scriptErrors,
      };
    }
    if (isSpecialTarget(name)) {
      if (name === "BACK" || name === "RESUME") return back(guide, { answers, history }, scriptErrors, traces);
      const special = specialResult(name, answers, history, {}, scriptErrors, traces);
      if (special.ok) special.entered = entered;
      return special;
    }
    const page = own(guide.pages, name);
    if (!page) {
      return { ok: false, error: { kind: "missing-page", page: name, message: `The page ${name} does not exist!` }, scriptErrors };
    }
    entered.push(name);
    const r = runScript(page.codeBefore, { answers, today, pageExists: pageExists(guide) });
    for (const e of r.errors) scriptErrors.push({ ...e, page: name, script: "codeBefore" });
    traces.push(...r.traces);
    if (r.goto !== null && r.goto !== name) {
      name = r.goto;
      continue;
    }
    const entry: VisitedPage = {
      interviewPage: name,
      repeatVarValue: loopValue(answers, page.repeatVar),
      outerLoopVarValue: loopValue(answers, page.outerLoopVar),
    };
    const newHistory = [...history, entry];
    // Over the cap, drop the oldest half at once (so the JSON is rebuilt rarely).
    if (newHistory.length > MAX_HISTORY) newHistory.splice(0, newHistory.length - Math.floor(MAX_HISTORY / 2));
    writeHistory(answers, newHistory, history);
    return { ok: true, state: { answers, history: newHistory }, outcome: { kind: "page", page: name }, scriptErrors, traces, entered };
  }
}

function back(
  _guide: Guide,
  state: InterviewState,
  scriptErrors: FlowScriptError[] = [],
  traces: string[] = [],
): TransitionResult {
  const history = state.history.slice(0, -1);
  if (history.length === 0) {
    // Nothing to go back to: stay where we are.
    const cur = currentEntry(state);
    if (!cur) return { ok: false, error: { kind: "no-current-page", page: "", message: "The interview has not started." }, scriptErrors };
    return { ok: true, state, outcome: { kind: "page", page: cur.interviewPage }, scriptErrors, traces };
  }
  const answers = state.answers;
  writeHistory(answers, history);
  const cur = history[history.length - 1] as VisitedPage;
  restoreLoopCounters(_guide, answers, cur);
  return { ok: true, state: { answers, history }, outcome: { kind: "page", page: cur.interviewPage }, scriptErrors, traces };
}

/**
 * Returning to a visited loop page puts its counting variables back to the values they had there, so the page
 * shows (and the next press continues from) that iteration, as A2J's page routes with a repeat value do.
 */
function restoreLoopCounters(guide: Guide, answers: Answers, entry: VisitedPage): void {
  const page = own(guide.pages, entry.interviewPage);
  if (!page) return;
  if (page.repeatVar !== "" && entry.repeatVarValue !== null) varSet(answers, page.repeatVar, entry.repeatVarValue);
  if (page.outerLoopVar !== "" && entry.outerLoopVarValue !== null) varSet(answers, page.outerLoopVar, entry.outerLoopVarValue);
}

/** A button's counting-variable control: `=1` creates the counter (Number) if missing and sets 1; `+=1` adds 1. */
function applyRepeatVarSet(answers: Answers, button: Button): void {
  if (button.repeatVar === "" || (button.repeatVarSet !== "=1" && button.repeatVarSet !== "+=1")) return;
  if (!getVar(answers, button.repeatVar)) {
    setOwn(answers, varKey(button.repeatVar), { name: button.repeatVar, type: "Number", repeating: false, values: [null] });
  }
  if (button.repeatVarSet === "=1") varSet(answers, button.repeatVar, 1);
  else {
    const cur = toNumber(varGet(answers, button.repeatVar));
    varSet(answers, button.repeatVar, (Number.isFinite(cur) ? cur : 0) + 1);
  }
}

/** A fresh, not yet started state (all guide variables present, interview marked incomplete). */
export function createInterviewState(guide: Guide): InterviewState {
  const answers = createAnswers(guide);
  varSet(answers, INCOMPLETE_VAR, true);
  return { answers, history: [] };
}

/**
 * Start an interview: a fresh state (or the given answers) entering the guide's first page after its codeBefore.
 */
function startInterviewImpl(guide: Guide, today: number, answers?: Answers): TransitionResult {
  const state = createInterviewState(guide);
  if (answers) {
    for (const [k, v] of Object.entries(cloneAnswers(answers))) setOwn(state.answers, k, v);
    varSet(state.answers, INCOMPLETE_VAR, true);
  }
  return enter(guide, state.answers, [], guide.firstPage, today, [], []);
}

/**
 * Enter a page by name (e.g. a navigation link), running its codeBefore and any GOTO chain.
 */
function enterPageImpl(
  guide: Guide,
  state: InterviewState,
  pageName: string,
  today: number,
  opts: TransitionOptions = {},
): TransitionResult {
  return enter(guide, opts.inPlace ? state.answers : cloneAnswers(state.answers), state.history, pageName, today, [], []);
}

/** Go back to the previous visited page, keeping every answer (codeBefore is not re-run). */
function goBackImpl(guide: Guide, state: InterviewState, today: number, opts: TransitionOptions = {}): TransitionResult {
  const answers = opts.inPlace ? state.answers : cloneAnswers(state.answers);
  if (state.review) {
    // Back from the review returns to the finishing page; from a page a Change link opened, see backWhileChanging.
    return state.review.changing ? backWhileChanging(guide, answers, state.history, state.review, today, opts.dates, [], []) : leaveReview(guide, answers, state.history);
  }
  return back(guide, { answers, history: state.history });
}

/**
 * Back while changing an answer. From a page the replay went on to, an ordinary Back (the change goes on). From
 * the page the Change link opened, back towards "Check your answers": the path is replayed with the answers as
 * they are, so that nothing computed from them is left stale.
 */
function backWhileChanging(
  guide: Guide,
  answers: Answers,
  history: VisitedPage[],
  review: PendingFinish,
  today: number,
  dates: DateLocale | undefined,
  scriptErrors: FlowScriptError[],
  traces: string[],
): TransitionResult {
  const changedAt = review.changedAt ?? history.length - 1;
  const going: PendingFinish = { ...review };
  delete going.stopped;
  if (history.length - 1 > changedAt) {
    const r = back(guide, { answers, history }, scriptErrors, traces);
    return r.ok ? { ...r, state: { ...r.state, review: going } } : r;
  }
  return replay(guide, answers, history, going, "as-before", today, dates, scriptErrors, traces);
}

function leaveReview(guide: Guide, answers: Answers, history: VisitedPage[]): TransitionResult {
  const last = history[history.length - 1];
  if (!last) return { ok: false, error: { kind: "no-current-page", page: "", message: "The interview has not started." }, scriptErrors: [] };
  restoreLoopCounters(guide, answers, last);
  return { ok: true, state: { answers, history }, outcome: { kind: "page", page: last.interviewPage }, scriptErrors: [], traces: [] };
}

function noReview(): TransitionResult {
  return { ok: false, error: { kind: "no-review", page: "", message: "There are no answers to check: the interview is not finishing." }, scriptErrors: [] };
}

/** "Confirm and finish" on the review: the finishing button's own outcome (the interview is complete). */
function confirmFinishImpl(state: InterviewState, opts: TransitionOptions): TransitionResult {
  const review = state.review;
  if (!review || review.changing) return noReview();
  const answers = opts.inPlace ? state.answers : cloneAnswers(state.answers);
  const extra: { url?: string; message?: string } = {};
  if (review.url) extra.url = review.url;
  if (review.message) extra.message = review.message;
  return specialResult(review.target, answers, review.history, extra, [], []);
}

/** A Change link on the review: reopens a visited page (by its index in the review's history). */
function changeAnswerImpl(guide: Guide, state: InterviewState, historyIndex: number, opts: TransitionOptions): TransitionResult {
  const review = state.review;
  if (!review || review.changing) return noReview();
  const reopened = reopenVisited(guide, state.answers, review.history, historyIndex, opts);
  if (!reopened.ok) return reopened;
  const changing: PendingFinish = { ...review, changing: true, changedAt: historyIndex };
  delete changing.stopped;
  return { ...reopened, state: { ...reopened.state, review: changing } };
}

/** Back to a page of `visited` (by index): the history cut after it, its loop counters as they were there. */
function reopenVisited(guide: Guide, current: Answers, visited: VisitedPage[], historyIndex: number, opts: TransitionOptions): TransitionResult {
  const entry = Number.isInteger(historyIndex) ? visited[historyIndex] : undefined;
  if (!entry || !own(guide.pages, entry.interviewPage)) {
    return { ok: false, error: { kind: "missing-page", page: entry?.interviewPage ?? "", message: `There is no visited page ${historyIndex}.` }, scriptErrors: [] };
  }
  const answers = opts.inPlace ? current : cloneAnswers(current);
  const history = visited.slice(0, historyIndex + 1);
  writeHistory(answers, history);
  restoreLoopCounters(guide, answers, entry);
  return { ok: true, state: { answers, history }, outcome: { kind: "page", page: entry.interviewPage }, scriptErrors: [], traces: [] };
}

/**
 * A finishing outcome becomes the review: the answers stay incomplete and the history stays on the finishing
 * page, so Back from the review returns there.
 */
function reviewInstead(result: TransitionResult): TransitionResult {
  if (!result.ok || result.outcome.kind !== "special" || !isFinishTarget(result.outcome.target)) return result;
  const { answers, history } = result.state;
  varSet(answers, INCOMPLETE_VAR, true);
  const review: PendingFinish = { target: result.outcome.target, history, changing: false };
  if (result.outcome.url) review.url = result.outcome.url;
  if (result.outcome.message) review.message = result.outcome.message;
  return { ...result, state: { answers, history, review }, outcome: { kind: "review" } };
}

function goToVisitedImpl(guide: Guide, state: InterviewState, historyIndex: number, opts: TransitionOptions): TransitionResult {
  return reopenVisited(guide, state.answers, state.history, historyIndex, opts);
}

/** "Save & Exit": go to the guide's exit page, marking the interview incomplete. BACK/RESUME there return. */
function saveAndExitImpl(guide: Guide, state: InterviewState, today: number): TransitionResult {
  const answers = cloneAnswers(state.answers);
  // Leaving from the review returns to the finishing page later, not to the review; leaving from a page a
  // Change link opened (or the replay went on to) comes back to it, the change still going on.
  const changing = state.review?.changing ? state.review : undefined;
  if (state.review && !changing) state = { answers, history: state.review.history };
  varSet(answers, INCOMPLETE_VAR, true);
  if (guide.exitPage === "") return specialResult("EXIT", answers, state.history, {}, [], [], changing);
  const r = enter(guide, answers, state.history, guide.exitPage, today, [], []);
  return r.ok && changing ? { ...r, state: { ...r.state, review: changing } } : r;
}

function parseHistory(raw: AnswerValue, guide: Guide): VisitedPage[] {
  if (typeof raw !== "string" || raw.trim() === "") return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const out: VisitedPage[] = [];
  for (const item of data) {
    if (typeof item !== "object" || item === null) continue;
    const r = item as Record<string, unknown>;
    const page = r.interviewPage;
    if (typeof page !== "string" || !own(guide.pages, page)) continue;
    const num = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : typeof v === "string" && /^\d+$/.test(v) && Number(v) >= 1 ? Number(v) : null);
    out.push({ interviewPage: page, repeatVarValue: num(r.repeatVarValue), outerLoopVarValue: num(r.outerLoopVarValue) });
  }
  return out;
}

/**
 * Resume an interview from saved answers (JSON form or already parsed): reopen the last visited page with its
 * history, without re-running codeBefore. Without a usable history, start at the first page.
 */
function resumeInterviewImpl(guide: Guide, saved: Answers | string, today: number): TransitionResult {
  const parsed = answersFromJSON(typeof saved === "string" ? saved : JSON.parse(JSON.stringify(saved)), guide);
  if (!parsed.ok) return { ok: false, error: { kind: "no-current-page", page: "", message: parsed.error }, scriptErrors: [] };
  const answers = parsed.value;
  const history = parseHistory(getRaw(answers, VISITED_PAGES_VAR), guide);
  if (history.length === 0) {
    const bookmark = getRaw(answers, BOOKMARK_VAR);
    if (typeof bookmark === "string" && own(guide.pages, bookmark)) {
      history.push({ interviewPage: bookmark, repeatVarValue: null, outerLoopVarValue: null });
    } else {
      varSet(answers, INCOMPLETE_VAR, true);
      return enter(guide, answers, [], guide.firstPage, today, [], []);
    }
  }
  writeHistory(answers, history);
  const cur = history[history.length - 1] as VisitedPage;
  return { ok: true, state: { answers, history }, outcome: { kind: "page", page: cur.interviewPage }, scriptErrors: [], traces: [] };
}

/**
 * Options of a transition. By default the input state is left untouched and the new state is a copy.
 * With `inPlace: true` the input state is consumed: its answers are updated in place (no copy, which is
 * what makes a transition cheap on guides with thousands of variables) and it must not be used afterwards.
 * A server that loads the state from storage for each request can always use `inPlace`.
 */
export interface TransitionOptions {
  inPlace?: boolean;
  /** How the person writes dates, for the dates named in validation messages (A2J's MM/DD/YYYY by default). */
  dates?: DateLocale;
}

/** Input of a button press. */
export interface SubmitInput {
  /** The page the form was rendered for (must be the current page). */
  pageName: string;
  /** Index of the pressed button on that page. */
  buttonIndex: number;
  /** Posted field values keyed by field input name. */
  values: FormValues;
}

function notCurrentPage(pageName: string, entry: VisitedPage | undefined, scriptErrors: FlowScriptError[]): TransitionResult {
  const message = `The page "${pageName}" is not the current page.`;
  return { ok: false, error: { kind: "not-current-page", page: pageName, currentPage: entry?.interviewPage ?? null, message }, scriptErrors };
}

/** Writes the valid fields of a page at its loop index and drops the invalid ones; returns the index. */
function keepValidValues(answers: Answers, page: Page, entry: VisitedPage, values: FormValues, today: number): number | undefined {
  const { errors, assignments } = validatePage(page, values, today);
  const bad = new Set(errors.map((e) => e.inputName));
  const index = page.repeatVar !== "" ? answerIndex(entry) : undefined;
  for (const a of assignments) if (!bad.has(varKey(a.name))) varSet(answers, a.name, a.value, index);
  return index;
}

function keepPageAnswersImpl(
  guide: Guide,
  state: InterviewState,
  input: Omit<SubmitInput, "buttonIndex"> & { dates?: Record<string, DateBoxes> },
  today: number,
  opts: TransitionOptions,
): TransitionResult {
  const entry = currentEntry(state);
  const page = entry && entry.interviewPage === input.pageName ? own(guide.pages, entry.interviewPage) : undefined;
  if (!entry || !page) return notCurrentPage(input.pageName, entry, []);
  const answers = opts.inPlace ? state.answers : cloneAnswers(state.answers);
  keepValidValues(answers, page, entry, input.values, today);
  const typed: TypedDraft = { page: page.name, index: answerIndex(entry), values: input.values };
  if (input.dates && Object.keys(input.dates).length > 0) typed.dates = input.dates;
  const kept: InterviewState = { answers, history: state.history, typed };
  if (state.review) kept.review = state.review;
  return { ok: true, state: kept, outcome: { kind: "page", page: page.name }, scriptErrors: [], traces: [] };
}

/**
 * Press a button, in A2J's order: validate every field → store fields and the button's value at the loop
 * index → FAIL/BACK/RESUME → codeAfter (its GOTO wins over the button's target) → repeatVarSet (`=1`, `+=1`)
 * → special targets → enter the next page (codeBefore, GOTO chain). A blank target stays on the page.
 */
function submitPageImpl(
  guide: Guide,
  state: InterviewState,
  input: SubmitInput,
  today: number,
  opts: TransitionOptions = {},
): TransitionResult {
  const scriptErrors: FlowScriptError[] = [];
  const traces: string[] = [];
  const entry = currentEntry(state);
  if (!entry || entry.interviewPage !== input.pageName) return notCurrentPage(input.pageName, entry, scriptErrors);
  const page = own(guide.pages, entry.interviewPage);
  if (!page) {
    return { ok: false, error: { kind: "missing-page", page: entry.interviewPage, message: `The page ${entry.interviewPage} does not exist!` }, scriptErrors };
  }
  const button = Number.isInteger(input.buttonIndex) ? page.buttons[input.buttonIndex] : undefined;
  if (!button) {
    return { ok: false, error: { kind: "no-such-button", page: page.name, message: `The page "${page.name}" has no button ${input.buttonIndex}.` }, scriptErrors };
  }
  const history = state.history; // never mutated: transitions build new arrays
  if (state.review && !state.review.changing) return noReview();
  if (button.next === "BACK" || button.next === "RESUME") {
    // Back never blocks and never loses what was typed: valid fields and the button value are kept,
    // invalid ones are dropped, codeAfter is skipped (as in A2J), the loop counter is still applied.
    const answers = opts.inPlace ? state.answers : cloneAnswers(state.answers);
    const index = keepValidValues(answers, page, entry, input.values, today);
    if (button.name !== "") varSet(answers, button.name, button.value, index);
    applyRepeatVarSet(answers, button);
    if (state.review) return backWhileChanging(guide, answers, history, state.review, today, opts.dates, scriptErrors, traces);
    return back(guide, { answers, history }, scriptErrors, traces);
  }

  const answers = opts.inPlace ? state.answers : cloneAnswers(state.answers);
  // A page a Change link opened (or the replay stopped on): the path from here is replayed to the review.
  if (state.review) {
    const replayed = replay(guide, answers, history, state.review, { button, values: input.values }, today, opts.dates, scriptErrors, traces);
    return replayed.ok && replayed.outcome.kind === "invalid" ? { ...replayed, state } : replayed;
  }
  const pressed = pressOn(guide, answers, page, entry, button, input.values, today, opts.dates, scriptErrors, traces);
  if (pressed.kind === "invalid") return { ok: true, state, outcome: { kind: "invalid", errors: pressed.errors }, scriptErrors, traces };
  if (pressed.kind === "special") return specialResult(pressed.target, answers, history, pressed.extra, scriptErrors, traces);
  if (pressed.target === "") {
    writeHistory(answers, history);
    return { ok: true, state: { answers, history }, outcome: { kind: "page", page: page.name }, scriptErrors, traces };
  }
  return enter(guide, answers, history, pressed.target, today, scriptErrors, traces);
}

/** What pressing a button did, short of entering the next page: refused, a special target, or the page to enter. */
type Pressed =
  | { kind: "invalid"; errors: FieldError[] }
  | { kind: "special"; target: SpecialTarget; extra: { url?: string; message?: string } }
  | { kind: "next"; target: string };

/**
 * A button (not Back) pressed on the current page, in A2J's order: validate every field (nothing is written when
 * one fails) → store fields and the button's value at the loop index → FAIL → codeAfter (its GOTO wins over the
 * button's target) → repeatVarSet → the special target or the page to enter. Mutates `answers`.
 */
function pressOn(
  guide: Guide,
  answers: Answers,
  page: Page,
  entry: VisitedPage,
  button: Button,
  values: FormValues,
  today: number,
  dates: DateLocale | undefined,
  scriptErrors: FlowScriptError[],
  traces: string[],
): Pressed {
  const { errors, assignments } = validatePage(page, values, today, dates);
  if (errors.length > 0) return { kind: "invalid", errors };
  const index = page.repeatVar !== "" ? answerIndex(entry) : undefined;
  for (const a of assignments) varSet(answers, a.name, a.value, index);
  if (button.name !== "") varSet(answers, button.name, button.value, index);
  if (button.next === "FAIL") return { kind: "special", target: "FAIL", extra: { url: button.url } };

  const r = runScript(page.codeAfter, { answers, today, pageExists: pageExists(guide) });
  for (const e of r.errors) scriptErrors.push({ ...e, page: page.name, script: "codeAfter" });
  traces.push(...r.traces);
  applyRepeatVarSet(answers, button);

  if (isSpecialTarget(button.next)) {
    const extra: { url?: string; message?: string } = {};
    if (button.url) extra.url = button.url;
    // Shown as text on the end screen: author text like any other, so its macros are evaluated.
    if (button.message) extra.message = renderMacrosAsText(button.message, answers, today, dates);
    return { kind: "special", target: button.next, extra };
  }
  return { kind: "next", target: r.goto !== null && r.goto !== button.next ? r.goto : button.next };
}

// ---------------------------------------------------------------------------------------------
// Replaying the path after a change (docs/decisions/0040-replay-and-return-address.md)

/** The most pages one replay walks before it stops on the page it is at (a guide that loops without end). */
const MAX_REPLAY = MAX_HISTORY;

function sameEntry(a: VisitedPage, b: VisitedPage | undefined): boolean {
  return b !== undefined && a.interviewPage === b.interviewPage && a.repeatVarValue === b.repeatVarValue && a.outerLoopVarValue === b.outerLoopVarValue;
}

/**
 * Where a page the replay landed on stands in the recorded path, `j` being the recorded entry expected next:
 * that entry, or a later one (the change skipped the pages between), or none (a page that was not on the path).
 */
function placeInRecord(recorded: VisitedPage[], j: number, landed: VisitedPage): number | null {
  for (let k = j; k < recorded.length; k++) if (sameEntry(landed, recorded[k])) return k;
  return null;
}

/** The recorded entry the replay expects next, given the pages it has walked since the changed one. */
function recordedPosition(review: PendingFinish, history: VisitedPage[]): number {
  const changedAt = review.changedAt ?? history.length - 1;
  let j = changedAt + 1;
  for (let i = changedAt + 1; i < history.length; i++) {
    const k = placeInRecord(review.history, j, history[i] as VisitedPage);
    if (k !== null) j = k + 1;
  }
  return j;
}

/** The variables a visit of a page writes (its fields and named buttons), at the visit's loop index. */
function writtenBy(guide: Guide, entry: VisitedPage): { name: string; index: number }[] {
  const page = own(guide.pages, entry.interviewPage);
  if (!page) return [];
  const index = page.repeatVar !== "" ? answerIndex(entry) : 1;
  return [...page.fields.map((f) => f.name), ...page.buttons.map((b) => b.name)].filter((name) => name !== "").map((name) => ({ name, index }));
}

const writtenKey = (w: { name: string; index: number }) => `${varKey(w.name)}#${w.index}`;

/**
 * The answers of the pages still ahead on the recorded path, put aside while the replay walks towards them, so
 * that each script sees what it saw when the person first came this way: a guide that counts its loop entries
 * from the answers (the first blank one) would otherwise leave the loop at once. A page's answers come back
 * when the replay reaches it, and all of them when it ends (a page the change skipped keeps its answers, as in A2J).
 */
class AnswersAhead {
  private readonly aside = new Map<string, { name: string; index: number; value: AnswerValue }>();
  constructor(
    private readonly guide: Guide,
    private readonly answers: Answers,
    recorded: VisitedPage[],
    j: number,
  ) {
    const past = new Set(recorded.slice(0, j).flatMap((entry) => writtenBy(guide, entry).map(writtenKey)));
    for (const entry of recorded.slice(j)) {
      for (const written of writtenBy(guide, entry)) {
        const key = writtenKey(written);
        const value = getRaw(answers, written.name, written.index);
        if (past.has(key) || this.aside.has(key) || value === null || value === "") continue;
        this.aside.set(key, { ...written, value });
        varSet(answers, written.name, null, written.index);
      }
    }
  }
  /** Puts back what was put aside, where nothing has been written since. */
  private restore(keys: Iterable<string>): void {
    for (const key of keys) {
      const held = this.aside.get(key);
      if (!held) continue;
      this.aside.delete(key);
      const now = getRaw(this.answers, held.name, held.index);
      if (now === null || now === "") varSet(this.answers, held.name, held.value, held.index);
    }
  }
  reached(entry: VisitedPage): void {
    this.restore(writtenBy(this.guide, entry).map(writtenKey));
  }
  all(): void {
    this.restore([...this.aside.keys()]);
  }
}

/** The buttons a replay may press: neither Back nor a way out of the interview (Save and finish later, FAIL…). */
function forwardButtons(page: Page): Button[] {
  return page.buttons.filter((b) => b.next !== "BACK" && b.next !== "RESUME" && (!isSpecialTarget(b.next) || isFinishTarget(b.next)));
}

/**
 * The button the person pressed on this page before: the only way forward; else the one whose name holds its
 * value in the answers (a Yes/No page); else the one that leads where the recorded path went next (or to the
 * review, from the last recorded page). Null when none can be told.
 */
function pressedBefore(
  guide: Guide,
  page: Page,
  answers: Answers,
  history: VisitedPage[],
  entry: VisitedPage,
  values: FormValues,
  expected: VisitedPage | undefined,
  today: number,
  dates: DateLocale | undefined,
): Button | null {
  const forward = forwardButtons(page);
  if (forward.length <= 1) return forward[0] ?? null;
  const index = page.repeatVar !== "" ? answerIndex(entry) : 1;
  const answered = forward.filter((b) => b.name !== "" && toStr(getRaw(answers, b.name, index) ?? "") === b.value);
  if (answered.length === 1) return answered[0] as Button;
  for (const button of forward) {
    const trial = cloneAnswers(answers);
    const pressed = pressOn(guide, trial, page, entry, button, values, today, dates, [], []);
    if (pressed.kind === "special" && expected === undefined && isFinishTarget(pressed.target)) return button;
    if (pressed.kind !== "next" || pressed.target === "") continue;
    const entered = enter(guide, trial, history, pressed.target, today, [], []);
    if (!entered.ok) continue;
    const outcome = entered.outcome;
    if (outcome.kind === "page" && expected?.interviewPage === outcome.page) return button;
    if (outcome.kind === "special" && expected === undefined && isFinishTarget(outcome.target)) return button;
  }
  return null;
}

/** How the current page is pressed to start a replay: with what the person posted, or as they pressed it before. */
type FirstPress = { button: Button; values: FormValues } | "as-before";

/**
 * The path replayed to "Check your answers" after a change, as a person pressing Continue would: first the
 * current page (the one a Change link opened, or the replay stopped on), then each page entered (codeBefore,
 * GOTOs), its stored answers checked and the button pressed before pressed again (codeAfter, loop counters). It
 * stops on a page that was not on the path, whose answers no longer pass, or whose button cannot be told; at a
 * finishing target the review opens on the new path. Another special target (Save and finish later) is taken
 * with the change kept open. A refused first press comes back as "invalid", the answers as they were.
 */
function replay(
  guide: Guide,
  answers: Answers,
  history: VisitedPage[],
  review: PendingFinish,
  first: FirstPress,
  today: number,
  dates: DateLocale | undefined,
  scriptErrors: FlowScriptError[],
  traces: string[],
): TransitionResult {
  const going: PendingFinish = { ...review, changing: true, changedAt: review.changedAt ?? history.length - 1 };
  delete going.stopped;
  let j = recordedPosition(going, history);
  const ahead = new AnswersAhead(guide, answers, going.history, j);
  const stop = (stopped: ReplayStop): TransitionResult => {
    ahead.all();
    writeHistory(answers, history);
    const page = history[history.length - 1]?.interviewPage ?? "";
    return { ok: true, state: { answers, history, review: { ...going, stopped } }, outcome: { kind: "page", page }, scriptErrors, traces };
  };

  let entry = history[history.length - 1] as VisitedPage;
  let page = own(guide.pages, entry.interviewPage) as Page;
  let next: Pressed;
  if (first === "as-before") {
    const values = storedFormValues(page, answers, page.repeatVar !== "" ? answerIndex(entry) : 1, today);
    const button = pressedBefore(guide, page, answers, history, entry, values, going.history[j], today, dates);
    if (!button) return stop({ reason: "choose" });
    next = pressOn(guide, answers, page, entry, button, values, today, dates, scriptErrors, traces);
  } else {
    next = pressOn(guide, answers, page, entry, first.button, first.values, today, dates, scriptErrors, traces);
    if (next.kind === "invalid") {
      ahead.all();
      return { ok: true, state: { answers, history, review }, outcome: { kind: "invalid", errors: next.errors }, scriptErrors, traces };
    }
  }
  for (let steps = 0; ; steps++) {
    if (next.kind === "invalid") return stop({ reason: "invalid", errors: next.errors });
    if (next.kind === "special") {
      ahead.all();
      return replayEnded(answers, history, going, next.target, next.extra, scriptErrors, traces);
    }
    if (next.target === "" || steps > MAX_REPLAY) return stop({ reason: "choose" });
    const entered = enter(guide, answers, history, next.target, today, scriptErrors, traces);
    if (!entered.ok) {
      ahead.all();
      return entered;
    }
    history = entered.state.history;
    if (entered.outcome.kind === "special") {
      ahead.all();
      return replayEnded(answers, history, going, entered.outcome.target, {}, scriptErrors, traces);
    }
    entry = history[history.length - 1] as VisitedPage;
    const k = placeInRecord(going.history, j, entry);
    if (k === null) return stop({ reason: "new-page" });
    j = k + 1;
    ahead.reached(entry);
    page = own(guide.pages, entry.interviewPage) as Page;
    const values = storedFormValues(page, answers, page.repeatVar !== "" ? answerIndex(entry) : 1, today);
    const checked = validatePage(page, values, today, dates);
    if (checked.errors.length > 0) return stop({ reason: "invalid", errors: checked.errors });
    const button = pressedBefore(guide, page, answers, history, entry, values, going.history[j], today, dates);
    if (!button) return stop({ reason: "choose" });
    next = pressOn(guide, answers, page, entry, button, values, today, dates, scriptErrors, traces);
  }
}

/** The replay reached a special target: a finishing one opens the review on the new path; any other is taken. */
function replayEnded(
  answers: Answers,
  history: VisitedPage[],
  review: PendingFinish,
  target: SpecialTarget,
  extra: { url?: string; message?: string },
  scriptErrors: FlowScriptError[],
  traces: string[],
): TransitionResult {
  if (!isFinishTarget(target)) return specialResult(target, answers, history, extra, scriptErrors, traces, review);
  varSet(answers, INCOMPLETE_VAR, true);
  writeHistory(answers, history);
  const reopened: PendingFinish = { target, history, changing: false };
  if (extra.url) reopened.url = extra.url;
  if (extra.message) reopened.message = extra.message;
  return { ok: true, state: { answers, history, review: reopened }, outcome: { kind: "review" }, scriptErrors, traces };
}

// ---------------------------------------------------------------------------------------------
// Public transitions: never throw (an unexpected failure becomes an "internal" error value).

/** Start an interview: a fresh state (or the given answers) entering the guide's first page after its codeBefore. */
export function startInterview(guide: Guide, today: number, answers?: Answers): TransitionResult {
  return guarded(() => startInterviewImpl(guide, today, answers));
}

/** Enter a page by name (e.g. a navigation link), running its codeBefore and any GOTO chain. */
export function enterPage(
  guide: Guide,
  state: InterviewState,
  pageName: string,
  today: number,
  opts: TransitionOptions = {},
): TransitionResult {
  return guarded(() => enterPageImpl(guide, state, pageName, today, opts));
}

/** Return to an earlier visited page (by history index), keeping every answer; later history is dropped. */
export function goToVisited(guide: Guide, state: InterviewState, historyIndex: number, opts: TransitionOptions = {}): TransitionResult {
  return guarded(() => goToVisitedImpl(guide, state, historyIndex, opts));
}

/**
 * Go back to the previous visited page, keeping every answer (codeBefore is not re-run). From a page a Change
 * link opened it goes back towards "Check your answers", replaying the path on `today` (its scripts run).
 */
export function goBack(guide: Guide, state: InterviewState, today: number, opts: TransitionOptions = {}): TransitionResult {
  return guarded(() => goBackImpl(guide, state, today, opts));
}

/** "Save & Exit": go to the guide's exit page, marking the interview incomplete. BACK/RESUME there return. */
export function saveAndExit(guide: Guide, state: InterviewState, today: number): TransitionResult {
  return guarded(() => saveAndExitImpl(guide, state, today));
}

/**
 * Resume from saved answers (JSON form, or parsed, e.g. from `answersFromANX`): reopen the last visited page
 * (`A2J Visited Pages`, else `A2J Bookmark`) with its history, without re-running codeBefore; otherwise start.
 */
export function resumeInterview(guide: Guide, saved: Answers | string, today: number): TransitionResult {
  return guarded(() => resumeInterviewImpl(guide, saved, today));
}

/**
 * Press a button on the current page, in A2J's order: validate every field (errors → outcome "invalid", state
 * unchanged) → store fields and the button's name=value at the loop index → FAIL/BACK/RESUME → codeAfter (its
 * GOTO wins over the button's page target) → repeatVarSet (`=1`, `+=1`) → special targets (SUCCESS, EXIT,
 * ASSEMBLE, ASSEMBLE-SUCCESS, MESSAGE) → enter the next page (codeBefore, GOTO chain). A blank target stays.
 * A finishing target (SUCCESS, ASSEMBLE, ASSEMBLE-SUCCESS) first opens "Check your answers" (outcome "review",
 * `state.review` set); `confirmFinish` then completes. On a page a Change link opened, a press returns there.
 */
export function submitPage(
  guide: Guide,
  state: InterviewState,
  input: SubmitInput,
  today: number,
  opts: TransitionOptions = {},
): TransitionResult {
  return guarded(() => reviewInstead(submitPageImpl(guide, state, input, today, opts)));
}

/** "Confirm and finish" on "Check your answers": the finishing button's own outcome (SUCCESS, ASSEMBLE…). */
export function confirmFinish(state: InterviewState, opts: TransitionOptions = {}): TransitionResult {
  return guarded(() => confirmFinishImpl(state, opts));
}

/**
 * A completed interview's state opened again to correct it (as a new draft): its answers incomplete again, on
 * "Check your answers" when its last page has a finishing button (its Change links then work as before), else
 * on that page.
 */
export function reopenCompleted(guide: Guide, state: InterviewState): InterviewState {
  const answers = cloneAnswers(state.answers);
  varSet(answers, INCOMPLETE_VAR, true);
  const history = state.history;
  const last = history[history.length - 1];
  const page = last ? own(guide.pages, last.interviewPage) : undefined;
  const finish = page?.buttons.find((b) => isFinishTarget(b.next));
  if (!finish || !last) return { answers, history };
  restoreLoopCounters(guide, answers, last);
  const review: PendingFinish = { target: finish.next as FinishTarget, history, changing: false };
  if (finish.url) review.url = finish.url;
  return { answers, history, review };
}

/** A Change link on "Check your answers": reopens that visited page; its next press returns to the review. */
export function changeAnswer(guide: Guide, state: InterviewState, historyIndex: number, opts: TransitionOptions = {}): TransitionResult {
  return guarded(() => changeAnswerImpl(guide, state, historyIndex, opts));
}

/**
 * Keeps what was typed on the current page without leaving it, as Back does (valid fields written at the loop
 * index, invalid ones dropped, no button value and no script), and the whole form as typed (`typed`, with the
 * date boxes given) to show back: for a detour such as the AI pages.
 */
export function keepPageAnswers(
  guide: Guide,
  state: InterviewState,
  input: Omit<SubmitInput, "buttonIndex"> & { dates?: Record<string, DateBoxes> },
  today: number,
  opts: TransitionOptions = {},
): TransitionResult {
  return guarded(() => keepPageAnswersImpl(guide, state, input, today, opts));
}
