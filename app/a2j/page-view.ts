/**
 * The render model of the current page, for a viewer to draw: texts with macros evaluated and popups resolved,
 * fields with their current values and errors, buttons, step and help; and the list of visited pages. Pure,
 * like the transitions in flow.ts that move the state this model is drawn from.
 */
import { getRaw, isBlank } from "./answers";
import { formatDays } from "./dates";
import { answerIndex, currentEntry, type InterviewState } from "./flow";
import { isSpecialTarget, type SpecialTarget } from "./guide";
import { escapeHtml, renderMacros, resolvePopups } from "./macros";
import type { AnswerValue, Guide, Page } from "./types";
import { own } from "./util";
import { inputName, listOptions, numberPickOptions, type FieldError, type FormValues, type PickOption } from "./validate";
import { toStr } from "./values";
import { decodeEntities } from "./xml";

export interface FieldView {
  index: number;
  type: Page["fields"][number]["type"];
  /** Name of the form input to post this field's value under. */
  inputName: string;
  /** Label HTML with macros evaluated. */
  label: string;
  required: boolean;
  /** Current value as text (answer, else submitted value, else default). */
  value: string;
  /** For checkboxes and radios: whether this one is selected. */
  checked: boolean;
  /** For radios: the value this option stores. */
  optionValue: string;
  /** For textpick, numberpick and gender: the choices. */
  options: PickOption[];
  min: string;
  max: string;
  maxChars: number | null;
  placeholder: string;
  /** Validation message, when the last submit failed on this field. */
  error: string | null;
}

export interface ButtonView {
  index: number;
  /** Label with macros evaluated (blank labels become "Continue"). */
  label: string;
  next: string;
  special: SpecialTarget | null;
}

export interface PopupView {
  id: string;
  name: string;
  /** Popup text HTML (macros evaluated), or null if the guide has no such page. */
  html: string | null;
}

export interface PageView {
  name: string;
  step: { index: number; number: string; text: string };
  /** Loop index the fields are bound to (1 outside loops). */
  answerIndex: number;
  text: string;
  textCitation: string;
  learn: string;
  help: string;
  helpCitation: string;
  helpImageURL: string;
  helpAltText: string;
  helpVideoURL: string;
  helpAudioURL: string;
  textAudioURL: string;
  fields: FieldView[];
  buttons: ButtonView[];
  popups: PopupView[];
  /** Field errors of a failed submit, in field order. */
  errors: FieldError[];
  canGoBack: boolean;
  isExitPage: boolean;
  /** False when the guide set `A2J Navigation TF` to false (hide the progress/navigation menu). */
  allowNavigation: boolean;
}

function storedText(v: AnswerValue): string {
  if (v === null) return "";
  return toStr(v);
}

export interface RenderOptions {
  /** Values posted with a failed submit, shown again in the fields. */
  submitted?: FormValues;
  /** Errors of a failed submit. */
  errors?: FieldError[];
}

/**
 * The render model of the current page: texts with macros evaluated and popups resolved, fields with their
 * current values and errors, buttons, step and help. Never throws; returns null when there is no current page.
 */
export function renderPage(guide: Guide, state: InterviewState, today: number, opts: RenderOptions = {}): PageView | null {
  try {
    return renderPageImpl(guide, state, today, opts);
  } catch {
    return null;
  }
}

function renderPageImpl(guide: Guide, state: InterviewState, today: number, opts: RenderOptions): PageView | null {
  const entry = currentEntry(state);
  if (!entry) return null;
  const page = own(guide.pages, entry.interviewPage);
  if (!page) return null;
  const answers = state.answers;
  const idx = page.repeatVar !== "" ? answerIndex(entry) : 1;
  const popupRefs: { id: string; name: string; exists: boolean }[] = [];
  const html = (s: string) => {
    if (s === "") return "";
    const withMacros = renderMacros(s, answers, today);
    const r = resolvePopups(withMacros, guide, "a2j-popup-");
    for (const p of r.popups) {
      const existing = popupRefs.find((x) => x.name === p.name);
      if (!existing) {
        const id = `a2j-popup-${popupRefs.length + 1}`;
        popupRefs.push({ ...p, id });
      }
    }
    // Re-number ids consistently across all texts of the page.
    return r.html.replace(/#a2j-popup-(\d+)/g, (_m, n: string) => {
      const p = r.popups[Number(n) - 1];
      const ref = p ? popupRefs.find((x) => x.name === p.name) : undefined;
      return `#${ref?.id ?? "a2j-popup-" + n}`;
    });
  };

  const errors = opts.errors ?? [];
  const submitted = opts.submitted;
  const fields: FieldView[] = page.fields.map((f, i) => {
    const name = inputName(f, i);
    const stored = f.name !== "" ? getRaw(answers, f.name, idx) : null;
    let value = storedText(stored);
    if (f.type === "datemdy" && typeof stored === "string") value = stored;
    const sub = submitted?.[name];
    if (submitted && sub !== undefined) value = Array.isArray(sub) ? (sub[0] ?? "") : sub;
    if (isBlank(stored) && !submitted && f.type !== "radio" && f.type !== "checkbox" && f.type !== "checkboxNOTA" && f.type !== "gender") {
      if (f.value !== "") value = f.type === "datemdy" && f.value.trim().toUpperCase() === "TODAY" ? formatDays(today) : f.value;
    }
    let checked = false;
    if (f.type === "checkbox" || f.type === "checkboxNOTA" || f.type === "checkboxmultiple") {
      checked = submitted ? sub !== undefined && sub !== "" && sub !== "false" : stored === true || stored === "true";
      value = "true";
    } else if (f.type === "radio") {
      const cur = submitted ? (Array.isArray(sub) ? sub[0] : sub) : storedText(stored);
      checked = cur !== undefined && cur !== "" && cur === f.value;
    }
    let options: PickOption[] = [];
    if (f.type === "textpick") options = listOptions(f);
    else if (f.type === "numberpick") options = numberPickOptions(f).map((n) => ({ value: String(n), label: String(n) }));
    else if (f.type === "gender") options = [
      { value: "Female", label: "Female" },
      { value: "Male", label: "Male" },
    ];
    const maxChars = parseInt(f.maxChars, 10);
    const error = errors.find((e) => e.fieldIndex === i)?.message ?? null;
    return {
      index: i,
      type: f.type,
      inputName: name,
      label: html(f.label),
      required: f.required,
      value,
      checked,
      optionValue: f.type === "radio" ? f.value : "",
      options,
      min: f.min,
      max: f.max,
      maxChars: Number.isFinite(maxChars) && maxChars > 0 ? maxChars : null,
      placeholder: f.type === "numberssn" ? "999-99-9999" : f.type === "numberphone" ? "(555) 555-5555" : f.type === "datemdy" ? "mm/dd/yyyy" : "",
      error: error === null ? null : error,
    };
  });
  const buttons: ButtonView[] = page.buttons.map((b, i) => ({
    index: i,
    label: b.label.trim() === "" ? "Continue" : renderMacros(b.label, answers, today),
    next: b.next,
    special: isSpecialTarget(b.next) ? b.next : null,
  }));
  const text = html(page.text);
  const learn = renderMacros(page.learn, answers, today);
  const help = html(page.help);
  const textCitation = html(page.textCitation);
  const helpCitation = html(page.helpCitation);
  const popups: PopupView[] = [];
  for (let k = 0; k < popupRefs.length; k++) {
    const p = popupRefs[k];
    if (!p) continue;
    const pp = own(guide.pages, p.name);
    popups.push({ id: p.id, name: p.name, html: pp ? html(pp.text) : null });
  }
  const step = guide.steps[page.step];
  const override = getRaw(answers, `A2J Step ${page.step}`);
  return {
    name: page.name,
    step: {
      index: page.step,
      number: step?.number ?? String(page.step),
      text: typeof override === "string" && override.trim() !== "" ? escapeHtml(override) : (step?.text ?? ""),
    },
    answerIndex: idx,
    text,
    textCitation,
    learn,
    help,
    helpCitation,
    helpImageURL: page.helpImageURL,
    helpAltText: page.helpAltText,
    helpVideoURL: page.helpVideoURL,
    helpAudioURL: page.helpAudioURL,
    textAudioURL: page.textAudioURL,
    fields,
    buttons,
    popups,
    errors,
    canGoBack: state.history.length > 1,
    isExitPage: page.name === guide.exitPage,
    allowNavigation: getRaw(answers, "A2J Navigation TF") !== false,
  };
}

/** One entry of the "My progress" list of visited pages. */
export interface VisitedPageView {
  /** Position in the history (pass to `goToVisited`). */
  index: number;
  page: string;
  /** The page text without markup (macros evaluated), shortened, as a title. */
  title: string;
  step: number;
  repeatVarValue: number | null;
  current: boolean;
}

/** The visited pages, oldest first, for a progress/navigation list. */
export function visitedPages(guide: Guide, state: InterviewState, today: number, maxTitle = 80): VisitedPageView[] {
  try {
    return state.history.map((h, i) => {
      const page = own(guide.pages, h.interviewPage);
      const text = page ? renderMacros(page.text, state.answers, today) : "";
      let title = decodeEntities(text.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
      if (title.length > maxTitle) {
        let cut = title.slice(0, maxTitle - 1);
        const space = cut.lastIndexOf(" ");
        if (space > maxTitle / 2) cut = cut.slice(0, space); // end on a whole word
        title = cut.trimEnd() + "…";
      }
      return {
        index: i,
        page: h.interviewPage,
        title: title === "" ? h.interviewPage : title,
        step: page?.step ?? 0,
        repeatVarValue: h.repeatVarValue,
        current: i === state.history.length - 1,
      };
    });
  } catch {
    return [];
  }
}
