/**
 * Replays an answer set through a guide as a person would (issue 32's test scenarios): from the first page,
 * each page's fields are given the answers' values at the page's loop index, and a button is pressed: the one
 * whose variable holds its value in the answers (the person pressed it), else one that goes to the next page
 * of the answers' own route (`A2J Visited Pages`), else the first that moves on. It ends at an ending, or
 * stops where the answers cannot go on (a refusal, a page that cannot be left, an error). Pure.
 */
import { displayValue, getRaw, getVar, varKey } from "./answers";
import { answerIndex, confirmFinish, currentEntry, currentPage, startInterview, submitPage, VISITED_PAGES_VAR, type InterviewState } from "./flow";
import type { Answers, AnswerValue, Button, Field, Guide } from "./types";
import { own } from "./util";
import { englishMessage, inputName, type FormValues } from "./validate";

export interface Replay {
  /** Pages shown, in order. */
  visited: string[];
  /** The ending reached (SUCCESS, ASSEMBLE-SUCCESS, EXIT, FAIL, …), or null when the replay stopped before one. */
  outcome: string | null;
  /** Where and why it stopped before an ending. */
  stopped: { page: string | null; reason: string } | null;
  /** The answers at the end. */
  answers: Answers;
}

/** Most pages a replay goes through before it is said not to end. */
export const MAX_REPLAY_PAGES = 2000;

function formValue(field: Field, raw: AnswerValue): string | undefined {
  if (raw === null || raw === "") return undefined;
  if (field.type === "checkbox" || field.type === "checkboxNOTA" || field.type === "checkboxmultiple") return raw === true || raw === "true" ? "true" : undefined;
  return displayValue(raw);
}

/** The page's fields filled from the answers, at the page's loop index. */
function valuesFor(guide: Guide, state: InterviewState, answers: Answers): FormValues {
  const entry = currentEntry(state);
  const page = entry ? own(guide.pages, entry.interviewPage) : undefined;
  const values: FormValues = {};
  if (!page) return values;
  const index = page.repeatVar !== "" ? answerIndex(entry) : 1;
  page.fields.forEach((field, i) => {
    if (field.name.trim() === "") return;
    const value = formValue(field, getRaw(answers, field.name, index));
    if (value !== undefined) values[inputName(field, i)] = value;
  });
  return values;
}

function routeOf(answers: Answers): string[] {
  const raw = getRaw(answers, VISITED_PAGES_VAR);
  if (typeof raw !== "string") return [];
  try {
    const list = JSON.parse(raw) as unknown;
    return Array.isArray(list) ? list.map((e) => (e && typeof e === "object" ? String((e as { interviewPage?: unknown }).interviewPage ?? "") : "")) : [];
  } catch {
    return [];
  }
}

/** Buttons in the order they are tried: the one the answers say was pressed, then toward the route's next page, then the rest. */
function buttonOrder(buttons: Button[], answers: Answers, index: number, nextOnRoute: string | null): number[] {
  const rank = (b: Button) => {
    if (b.name.trim() !== "" && getVar(answers, b.name) && displayValue(getRaw(answers, b.name, index)) === b.value) return 0;
    if (nextOnRoute !== null && b.next === nextOnRoute) return 1;
    return 2;
  };
  return buttons
    .map((b, i) => ({ i, r: rank(b) }))
    .filter(({ i }) => buttons[i]?.next !== "BACK" && buttons[i]?.next !== "RESUME")
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ i }) => i);
}

/** Replays `answers` through `guide` from its first page (see the module's comment). Never throws. */
export function replayAnswers(guide: Guide, answers: Answers, today: number, maxPages = MAX_REPLAY_PAGES): Replay {
  const visited: string[] = [];
  const route = routeOf(answers);
  let routeAt = -1;
  const stop = (state: InterviewState | null, reason: string): Replay => ({ visited, outcome: null, stopped: { page: state ? currentPage(state) : null, reason }, answers: state?.answers ?? {} });
  const started = startInterview(guide, today);
  if (!started.ok) return stop(null, started.error.message);
  if (started.outcome.kind === "special") return { visited, outcome: started.outcome.target, stopped: null, answers: started.state.answers };
  let state = started.state;
  const seen = new Map<string, number>();
  for (let step = 0; step < maxPages; step++) {
    const pageName = currentPage(state) as string;
    visited.push(pageName);
    const at = route.indexOf(pageName, routeAt + 1);
    if (at >= 0) routeAt = at;
    const page = own(guide.pages, pageName);
    if (!page) return stop(state, `The page "${pageName}" does not exist.`);
    const index = page.repeatVar !== "" ? answerIndex(currentEntry(state)) : 1;
    const values = valuesFor(guide, state, answers);
    const order = buttonOrder(page.buttons, answers, index, route[routeAt + 1] ?? null);
    if (order.length === 0) return stop(state, "The page has no button that moves on.");
    let moved: InterviewState | null = null;
    for (const buttonIndex of order) {
      const r = submitPage(guide, state, { pageName, buttonIndex, values }, today);
      if (!r.ok) return stop(state, r.error.message);
      if (r.outcome.kind === "invalid") {
        const first = r.outcome.errors[0];
        const field = first ? page.fields[first.fieldIndex] : undefined;
        // The author's prompt, and the limits it does not say (validate.ts, `reason`).
        const said = `${first?.message ?? "invalid"}${first?.reason ? ` ${englishMessage(first.reason)}` : ""}`;
        return stop(state, `The answers were refused${field?.name ? ` at [${field.name}]` : ""}: ${said}`);
      }
      if (r.outcome.kind === "review") {
        const finished = confirmFinish(r.state);
        return finished.ok && finished.outcome.kind === "special"
          ? { visited, outcome: finished.outcome.target, stopped: null, answers: finished.state.answers }
          : stop(r.state, "The review could not be confirmed.");
      }
      if (r.outcome.kind === "special") return { visited, outcome: r.outcome.target, stopped: null, answers: r.state.answers };
      if (r.outcome.page !== pageName || r.state.history.length > state.history.length) {
        moved = r.state;
        break;
      }
    }
    if (!moved) return stop(state, "No button moves on from this page.");
    // The same page with the same loop round many times over: the answers go round a loop that never ends.
    const entry = currentEntry(moved);
    const round = `${entry?.interviewPage}\u0000${entry?.repeatVarValue}\u0000${entry?.outerLoopVarValue}`;
    const times = (seen.get(round) ?? 0) + 1;
    if (times > 50) return stop(moved, "The answers go round the same pages without end.");
    seen.set(round, times);
    state = moved;
  }
  return stop(state, `The interview did not end within ${maxPages} pages.`);
}

/** A variable's value at the end of a replay, as text (A2J's stored form: dates MM/DD/YYYY, true/false). */
export function replayValue(answers: Answers, name: string): string {
  const hash = name.lastIndexOf("#");
  const index = hash > 0 && /^\d+$/.test(name.slice(hash + 1)) ? Number(name.slice(hash + 1)) : 1;
  const variable = hash > 0 && index !== 1 ? name.slice(0, hash) : name.replace(/#1$/, "");
  return displayValue(getRaw(answers, varKey(variable), index));
}
