/**
 * The render model of the current page, for a viewer to draw: texts with macros evaluated and popups resolved,
 * fields with their current values and errors, buttons, step and help; and the list of visited pages. Pure,
 * like the transitions in flow.ts that move the state this model is drawn from.
 */
import { numberAsTyped } from "./numbers";
import { getRaw, isBlank } from "./answers";
import { A2J_DATES, boxesFromStored, type DateBox, type DateBoxes, type DateLocale, showStoredDate } from "./dates";
import { answerIndex, currentEntry, type InterviewState } from "./flow";
import { isSpecialTarget, type SpecialTarget } from "./guide";
import { escapeHtml, renderMacros, renderMacrosAsText, resolvePopups } from "./macros";
import type { AnswerValue, Guide, Page } from "./types";
import { own } from "./util";
import { shownText, storedChecked, storedText } from "./stored-values";
import { DEFAULT_PROMPTS, fieldLimits, inputName, listOptions, numberPickOptions, type FieldError, type FormValues, type MessageSays, type PickOption } from "./validate";
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
  /** The error when it is one of the engine's own messages, as an identifier and values (validate.ts); else null. */
  errorSays: MessageSays | null;
  /** Why the answer was refused when the error is the author's prompt: the field's limits (validate.ts); else null. */
  errorReason: MessageSays | null;
  /**
   * A number or date field's limits, for a viewer to say before anyone errs ("A date between 1 December 2014 and
   * 31 December 2014"): an engine message (validate.ts, fieldLimits) with the dates in the page's locale; else null.
   */
  limits: MessageSays | null;
  /**
   * A pick list with no choices to offer (its list file is not among the guide's files): the question cannot be
   * answered, and `listSrc` names the missing file ("" when the guide names none). Null for every other field.
   */
  noChoices: { listSrc: string; message: string } | null;
  /** A date field's Day, Month and Year boxes (from its value); null for other fields. */
  date: DateBoxes | null;
  /** The date boxes the error is about (every box when the whole date is wrong). */
  errorBoxes: DateBox[];
}

/** Where the page is: "Step 2 of 5", and inside a loop which entry ("Event 2 of 3", or "Event 2"). */
export interface Progress {
  /** The page's step among the steps the guide's pages use; null when the guide has fewer than two. */
  step: { number: number; of: number } | null;
  /** Null outside loops; `of` is null when the guide holds no count for the loop. */
  entry: { noun: string; number: number; of: number | null; unnamed?: true } | null;
}

export interface ButtonView {
  index: number;
  /** Label with macros evaluated (blank labels become "Continue"). */
  label: string;
  /** The author gave no label: `label` is the engine's "Continue", for a viewer to word in the guide's language. */
  unlabelled?: true;
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
  /** What the page asks, as plain text: its question when short, else its first sentence, else its step's name. */
  heading: string;
  /** The page has no text and its step no name: `heading` is the engine's "Question", for a viewer to word. */
  headingUnnamed?: true;
  /** The heading already says the whole question text (which then need not be shown again). */
  headingIsText: boolean;
  /**
   * The text to show below the heading: the text without what the heading already says (its first sentence,
   * when that is the heading), empty when the heading says all of it.
   */
  body: string;
  /** The page's fields answer one question: the viewer groups them in a fieldset under the heading. */
  oneQuestion: boolean;
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
  progress: Progress;
  /** How the person writes dates: the order of the date boxes, and the dates in the page's texts. */
  dates: DateLocale;
}

export interface RenderOptions {
  /** Values posted with a failed submit, shown again in the fields. */
  submitted?: FormValues;
  /** Errors of a failed submit. */
  errors?: FieldError[];
  /** How the person writes dates: dates shown in texts follow it (A2J's MM/DD/YYYY by default). */
  dates?: DateLocale;
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
  const dates = opts.dates ?? A2J_DATES;
  const html = (s: string) => {
    if (s === "") return "";
    const withMacros = renderMacros(s, answers, today, dates);
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

  // Author texts shown as plain text (messages, button labels, alt text) get their macros too, then lose markup.
  const plain = (s: string) => renderMacrosAsText(s, answers, today, dates);
  // A field's own invalid prompt is author text ("Enter %%[Child name TE]%%'s birthday"); A2J's defaults have no macros.
  const errors = (opts.errors ?? []).map((e) => ({ ...e, message: plain(e.message) || e.message }));
  // What was typed here before a detour (flow.ts, keepPageAnswers) is shown as typed.
  const typed = !opts.submitted && state.typed?.page === page.name && state.typed.index === idx ? state.typed : undefined;
  const submitted = opts.submitted ?? typed?.values;
  const fields: FieldView[] = page.fields.map((f, i) => {
    const name = inputName(f, i);
    const stored = f.name !== "" ? getRaw(answers, f.name, idx) : null;
    const sub = submitted?.[name];
    let value = !submitted ? shownText(f, stored, today) : sub !== undefined ? (Array.isArray(sub) ? (sub[0] ?? "") : sub) : storedText(stored);
    let checked = false;
    if (f.type === "checkbox" || f.type === "checkboxNOTA" || f.type === "checkboxmultiple") {
      checked = submitted ? sub !== undefined && sub !== "" && sub !== "false" : storedChecked(stored);
      value = "true";
    } else if (f.type === "radio") {
      const cur = submitted ? (Array.isArray(sub) ? sub[0] : sub) : storedText(stored);
      checked = cur !== undefined && cur !== "" && cur === f.value;
    }
    let options: PickOption[] = [];
    if (f.type === "textpick") options = listOptions(f).map((o) => (o.label.includes("%%") ? { ...o, label: plain(o.label) } : o));
    else if (f.type === "numberpick") options = numberPickOptions(f).map((n) => ({ value: String(n), label: String(n) }));
    else if (f.type === "gender") options = [
      { value: "Female", label: "Female" },
      { value: "Male", label: "Male" },
    ];
    const maxChars = parseInt(f.maxChars, 10);
    const fieldError = errors.find((e) => e.fieldIndex === i);
    const error = fieldError?.message ?? null;
    const errorSays = fieldError?.says ?? null;
    const errorReason = fieldError?.reason ?? null;
    const isDate = f.type === "datemdy";
    return {
      index: i,
      type: f.type,
      inputName: name,
      // The Day, Month and Year boxes say the order; a guide's "(month/day/year)" would contradict them.
      label: html(isDate ? withoutDateOrderHint(f.label) : f.label),
      required: f.required,
      value,
      checked,
      optionValue: f.type === "radio" ? f.value : "",
      options,
      min: f.min,
      max: f.max,
      maxChars: Number.isFinite(maxChars) && maxChars > 0 ? maxChars : null,
      placeholder: f.type === "numberssn" ? "999-99-9999" : f.type === "numberphone" ? "(555) 555-5555" : "",
      error,
      errorSays,
      errorReason,
      limits: fieldLimits(f, today, dates),
      noChoices: f.type === "textpick" && options.length === 0 ? { listSrc: f.listSrc.trim(), message: DEFAULT_PROMPTS.noChoices } : null,
      date: isDate ? (typed?.dates?.[name] ?? boxesFromStored(value)) : null,
      errorBoxes: isDate && fieldError ? (fieldError.boxes ?? ["day", "month", "year"]) : [],
    };
  });
  const buttons: ButtonView[] = page.buttons.map((b, i) => {
    const label = plain(b.label);
    return { index: i, label: label || "Continue", ...(label ? {} : { unlabelled: true as const }), next: b.next, special: isSpecialTarget(b.next) ? b.next : null };
  });
  const text = html(page.text);
  const learn = renderMacros(page.learn, answers, today, dates);
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
  const stepText = typeof override === "string" && override.trim() !== "" ? escapeHtml(override) : html(step?.text ?? "");
  const question = plainText(text);
  const { heading, from } = headingFrom(question, plainText(stepText));
  const headingIsText = from === "whole" && !MEDIA_OR_LINK.test(text);
  return {
    name: page.name,
    step: {
      index: page.step,
      number: step?.number ?? String(page.step),
      text: stepText,
    },
    heading,
    ...(question === "" && from === "cut" ? { headingUnnamed: true as const } : {}),
    headingIsText,
    body: headingIsText ? "" : from === "first sentence" ? (withoutLeadingWords(text, heading) ?? text) : text,
    oneQuestion: answersOneQuestion(fields),
    answerIndex: idx,
    text,
    textCitation,
    learn,
    help,
    helpCitation,
    helpImageURL: page.helpImageURL,
    helpAltText: plain(page.helpAltText),
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
    dates,
    progress: { step: stepProgress(guide, page.step), entry: page.repeatVar !== "" ? loopEntry(answers, page.repeatVar, idx) : null },
  };
}

/** Text without markup or repeated spaces. */
export function plainText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
}

const HEADING_MAX = 120;

/** Shortens to a whole word with an ellipsis. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  if (space > max / 2) cut = cut.slice(0, space);
  return cut.trimEnd() + "…";
}

/**
 * A page's heading from its question text: the whole text when short; else its first sentence when that is
 * short (a question usually comes first: "Who owes you the money?"), else the step's name, else the text cut.
 */
function headingFrom(question: string, stepText: string): { heading: string; from: "whole" | "first sentence" | "step" | "cut" } {
  if (question !== "" && question.length <= HEADING_MAX) return { heading: question, from: "whole" };
  const first = question.match(/^.+?[.?!:](?=\s|$)/)?.[0];
  if (first && first.length <= HEADING_MAX) return { heading: first, from: "first sentence" };
  if (stepText !== "") return { heading: stepText, from: "step" };
  return { heading: question === "" ? "Question" : shorten(question, HEADING_MAX), from: "cut" };
}

function headingOf(question: string, stepText: string): string {
  return headingFrom(question, stepText).heading;
}

/** Markup that must stay where the author put it, even inside words the heading already says. */
const MEDIA_OR_LINK = /<(a|img|audio|video|iframe|object|embed)\b/i;

/** Elements left with nothing in them once the leading words are gone. */
const EMPTY_ELEMENT = /<(p|div|span|strong|b|em|i|u|small|mark|h[1-6])\b[^>]*>\s*<\/\1\s*>/gi;

/**
 * The HTML without its leading `words` (plain text, as plainText reads the HTML: tags count as spaces), its
 * tags kept, the elements they leave empty and a line break that followed removed. Null when the HTML does not
 * start with those words, or when they hold a link or media, which must not be lost: the text is then shown
 * whole, as the author wrote it.
 */
export function withoutLeadingWords(html: string, words: string): string | null {
  const target = words.replace(/\s+/g, " ").trim();
  if (target === "") return null;
  let matched = 0;
  let space = false;
  let tags = "";
  let i = 0;
  while (matched < target.length) {
    if (i >= html.length) return null;
    if (html[i] === "<") {
      const end = html.indexOf(">", i);
      if (end < 0) return null;
      const tag = html.slice(i, end + 1);
      if (MEDIA_OR_LINK.test(tag)) return null;
      tags += tag;
      space = true;
      i = end + 1;
      continue;
    }
    const entity = /^&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/.exec(html.slice(i, i + 16));
    const raw = entity ? entity[0] : html[i]!;
    const char = entity ? decodeEntities(raw) : raw;
    i += raw.length;
    if (/^\s+$/.test(char)) {
      space = true;
      continue;
    }
    if (space && matched > 0) {
      if (target[matched] !== " ") return null;
      matched++;
    }
    space = false;
    if (!target.startsWith(char, matched)) return null;
    matched += char.length;
  }
  // What followed the words, without the space or line break that parted it from them.
  let rest = (tags + html.slice(i)).replace(/^((?:\s*<[^>]*>)*?)\s*(?:<br\s*\/?>\s*)*(?=[^<\s]|$)/i, "$1");
  for (let before = ""; before !== rest; ) {
    before = rest;
    rest = rest.replace(EMPTY_ELEMENT, "");
  }
  return rest.trim();
}

const CHOICE_TYPES = new Set(["radio", "gender"]);

/**
 * Whether a page's fields answer one question (and so belong in one fieldset under the page's heading): the
 * options of one radio group alone, or several fields none of which is a choice (a name in parts, an address,
 * one entry of a loop). A single field has its own label; a choice beside other fields keeps its own legend.
 */
function answersOneQuestion(fields: FieldView[]): boolean {
  const shown = fields.filter((f) => f.type !== "button");
  const choices = new Set(shown.filter((f) => CHOICE_TYPES.has(f.type)).map((f) => f.inputName));
  if (choices.size > 0) return choices.size === 1 && shown.every((f) => CHOICE_TYPES.has(f.type));
  return shown.length >= 2;
}

/** "(month/day/year)", "(optional, mm/dd/yyyy)" and the like at the end of a date field's label. */
const DATE_ORDER_HINT = /\s*\((optional,\s*)?(?:month\s*\/\s*day\s*\/\s*year|mm\s*\/\s*dd\s*\/\s*yy(?:yy)?)\)\s*$/i;

/** A date field's label without the guide's order hint ("Date of birth (optional, month/day/year)" → "Date of birth (optional)"). */
function withoutDateOrderHint(label: string): string {
  return label.replace(DATE_ORDER_HINT, (_hint, optional?: string) => (optional ? " (optional)" : ""));
}

/** The steps a guide's question pages use, in order; once per guide (loaded guides are not changed). */
const usedSteps = new WeakMap<Guide, number[]>();

/** The page's step counted among the steps that the guide's question pages use (popups have none). */
function stepProgress(guide: Guide, step: number): Progress["step"] {
  let steps = usedSteps.get(guide);
  if (!steps) {
    const used = new Set<number>();
    for (const p of Object.values(guide.pages)) if (p.type.toLowerCase() !== "popup") used.add(p.step);
    steps = [...used].sort((a, b) => a - b);
    usedSteps.set(guide, steps);
  }
  const position = steps.indexOf(step);
  return steps.length > 1 && position >= 0 ? { number: position + 1, of: steps.length } : null;
}

/** What a loop's entries are called when its counter's name gives no noun. */
const UNNAMED_ENTRY = "Entry";

/** A loop's noun from its counter's name: "EventIndex" or "Event index NU" gives "Event"; "Entry" when none. */
function loopNoun(counter: string): string {
  // "Event index NU", "event_count" or "EventIndex", but not the "no" of "Casino".
  const noun = counter
    .replace(/\s+(NU|TE)$/i, "")
    .replace(/[\s_#-]+(index|counter|count|number|num|no)$/i, "")
    .replace(/(Index|Counter|Count|Number|Num|No)$/, "")
    .replace(/[\s_#-]+$/, "")
    .trim();
  return noun === "" ? UNNAMED_ENTRY : noun.charAt(0).toUpperCase() + noun.slice(1);
}

/**
 * Which entry of a loop the page is about. A2J names no noun and no count for a loop, so both come from the
 * guide's names: the counter "EventIndex" gives "Event", and a Number variable "Event count NU" (or "Number of
 * events NU", "How many events NU") answered with at least this entry gives the count.
 */
function loopEntry(answers: InterviewState["answers"], counter: string, index: number): Progress["entry"] {
  const word = loopNoun(counter);
  const lower = word.toLowerCase();
  const names = [`${lower} count`, `${lower}s count`, `number of ${lower}s`, `how many ${lower}s`];
  let of: number | null = null;
  for (const name of names.flatMap((n) => [`${n} NU`, n])) {
    const stored = getRaw(answers, name);
    const count = typeof stored === "number" ? stored : Number.NaN;
    if (of === null && Number.isInteger(count) && count >= index) of = count;
  }
  return { noun: word, number: index, of, ...(word === UNNAMED_ENTRY ? { unnamed: true as const } : {}) };
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

/** One answer on "Check your answers". */
export interface ReviewAnswer {
  /** The page's position in the review's history (pass to `changeAnswer`). */
  historyIndex: number;
  question: string;
  answer: string;
  /** The loop entry the answer belongs to (1, 2…), null outside loops. */
  entry: number | null;
  /** What the loop's entries are, from its counter's name as on the page's progress ("Event"), else "Entry"; null outside loops. */
  entryNoun: string | null;
  /** `answer` is the engine's own word ("Yes", "Not answered"…), for a viewer to word in the guide's language. */
  says?: AnswerWord;
}

/** The engine's own words for an answer on "Check your answers". */
export type AnswerWord = "yes" | "no" | "notAnswered" | "noFile" | "fileAttached";

/** The answers of one step, in the order they were asked. */
export interface ReviewStep {
  title: string;
  /** The step has no name: `title` is the engine's "Step N" and this is N. */
  stepNumber?: number;
  answers: ReviewAnswer[];
}

const NOT_ANSWERED = "Not answered";

type Answered = { question: string; answer: string; says?: AnswerWord };

const WORDS: Record<AnswerWord, string> = { yes: "Yes", no: "No", notAnswered: NOT_ANSWERED, noFile: "No file", fileAttached: "A file is attached" };

/** One of the engine's own answers, in English and as a word for the viewer. */
function said(question: string, word: AnswerWord): Answered {
  return { question, answer: WORDS[word], says: word };
}

function shown(question: string, value: AnswerValue): Answered {
  return isBlank(value) ? said(question, "notAnswered") : { question, answer: storedText(value) };
}

/** The answers a visited page gave: its fields (a radio group as one answer), or the choice of its buttons. */
function pageAnswers(guide: Guide, page: Page, state: InterviewState, index: number, today: number, dates: DateLocale, numbersLanguage: string | undefined): Answered[] {
  const answers = state.answers;
  const label = (html: string) => plainText(renderMacros(html, answers, today, dates));
  const pageHeading = headingOf(label(page.text), "");
  const out: Answered[] = [];
  const seenRadios = new Set<string>();
  page.fields.forEach((field, i) => {
    if (field.type === "button" || field.name === "") return;
    const stored = getRaw(answers, field.name, index);
    // As on the page: a date's answer reads the person's way, so a guide's "(month/day/year)" would contradict it.
    const question = label(field.type === "datemdy" ? withoutDateOrderHint(field.label) : field.label) || pageHeading;
    if (field.type === "radio") {
      const name = inputName(field, i);
      if (seenRadios.has(name)) return;
      seenRadios.add(name);
      const chosen = page.fields.find((f) => f.type === "radio" && f.name === field.name && f.value === storedText(stored));
      out.push(chosen ? { question: pageHeading, answer: label(chosen.label) || chosen.value } : shown(pageHeading, stored));
    } else if (field.type === "checkbox" || field.type === "checkboxNOTA" || field.type === "checkboxmultiple") {
      out.push(said(question, stored === true || stored === "true" ? "yes" : "no"));
    } else if (field.type === "textpick") {
      const option = listOptions(field).find((o) => o.value === storedText(stored));
      out.push(option ? { question, answer: label(option.label) } : shown(question, stored));
    } else if (field.type === "attachment") {
      out.push(said(question, isBlank(stored) ? "noFile" : "fileAttached"));
    } else if (field.type === "datemdy" && typeof stored === "string" && !isBlank(stored)) {
      out.push({ question, answer: showStoredDate(stored, dates) });
    } else if ((field.type === "number" || field.type === "numberdollar") && !isBlank(stored)) {
      // With the decimal sign the person typed it with ("345,5" in French).
      out.push({ question, answer: numberAsTyped(storedText(stored), numbersLanguage) });
    } else {
      out.push(shown(question, stored));
    }
  });
  const choices = page.buttons.filter((b) => b.next !== "BACK" && b.next !== "RESUME");
  if (out.length === 0 && choices.length > 1) {
    const pressed = choices.find((b) => b.name !== "" && storedText(getRaw(answers, b.name, index)) === b.value);
    if (pressed) out.push({ question: pageHeading, answer: label(pressed.label) });
  }
  return out;
}

/**
 * "Check your answers": every answer given on the pages visited, in the order asked, grouped by step (a step
 * met again later joins its first group), loop pages with their entry number. Reads the review's history
 * when one is open, else the state's. Dates read as the person writes them (`dates`; A2J's MM/DD/YYYY by
 * default); numbers with the decimal sign of `numbersLanguage` (the one their fields read: the dates' language
 * unless told). Never throws.
 */
export function reviewAnswers(guide: Guide, state: InterviewState, today: number, dates: DateLocale = A2J_DATES, numbersLanguage = dates.language): ReviewStep[] {
  try {
    const history = state.review?.history ?? state.history;
    const steps = new Map<number, ReviewStep>();
    const seen = new Set<string>();
    history.forEach((entry, historyIndex) => {
      const key = `${entry.interviewPage}\u0000${entry.repeatVarValue}\u0000${entry.outerLoopVarValue}`;
      const page = own(guide.pages, entry.interviewPage);
      if (!page || seen.has(key)) return;
      seen.add(key);
      const loop = page.repeatVar !== "" ? answerIndex(entry) : null;
      const found = pageAnswers(guide, page, state, loop ?? 1, today, dates, numbersLanguage);
      if (found.length === 0) return;
      let step = steps.get(page.step);
      if (!step) {
        const stepText = guide.steps[page.step]?.text ?? "";
        const title = plainText(renderMacros(stepText, state.answers, today, dates));
        step = title ? { title, answers: [] } : { title: `Step ${page.step + 1}`, stepNumber: page.step + 1, answers: [] };
        steps.set(page.step, step);
      }
      const entryNoun = loop === null ? null : loopNoun(page.repeatVar);
      for (const a of found) step.answers.push({ historyIndex, question: a.question, answer: a.answer, entry: loop, entryNoun, ...(a.says ? { says: a.says } : {}) });
    });
    return [...steps.values()];
  } catch {
    return [];
  }
}
